"""A plan's actions done through the journal, links both ways: supersede (older
to archive/ with `superseded_by`; newer gets `supersedes`), merge (new memory
with `merged_from`; sources archived with `merged_into`; links repointed), gist
(same id, gist body, full wording archived: `gist_of`/`gist`), pattern (`pattern_of`).
"""

from __future__ import annotations

import contextlib
from collections import Counter
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Any

from memory.config import MemoryConfig
from memory.consolidation.files import JournaledFiles, StaleMemory
from memory.consolidation.journal import exists_in_vault
from memory.consolidation.plan import Action, Gist, Merge, Pattern, Supersede
from memory.consolidation.statement import appended
from memory.decay import effective_stability
from vault import frontmatter
from vault.errors import VaultError
from vault.ids import make_id
from vault.links import link_targets, wikilink
from vault.schema import MemoryRecord

MERGED_CONFIDENCE = 0.9  # a mature cluster merges into a high-confidence memory (seed 004)


@dataclass
class Applied:
    done: list[dict[str, Any]] = field(default_factory=list)  # the journal's action entries
    skipped: list[str] = field(default_factory=list)  # why an action was left out
    merged_into: dict[str, str] = field(default_factory=dict)  # source -> merged memory


@dataclass
class Runner:
    files: JournaledFiles
    config: MemoryConfig
    now: datetime
    planned_hashes: dict[str, str]  # the body each memory had when the plan was made
    backlinks: dict[str, list[str]]  # memory -> memories whose `links` name it
    applied: Applied = field(default_factory=Applied)
    indexed: int = 0  # how many of the touched files the index has seen

    def run(self, actions: list[Action]) -> Applied:
        for action in actions:
            self.apply(action)
        return self.applied

    def apply(self, action: Action) -> None:
        # Write down every existing file the action may change, in one journal save.
        self.files.journal.remember(self._paths(action))
        try:
            entry = self._apply(action)
        except StaleMemory as exc:
            self.applied.skipped.append(f"{type(action).__name__.lower()}: {exc}")
            return
        self.applied.done.append(entry)
        self.files.journal.record(entry)

    def _paths(self, action: Action) -> list[Path]:
        vault = self.files.vault
        if isinstance(action, Supersede):
            ids = [action.older, action.newer]
        elif isinstance(action, Merge):
            others = {o for s in action.sources for o in self.backlinks.get(s, [])}
            ids = [*action.sources, *sorted(others)]
        elif isinstance(action, Gist):
            ids = [action.memory]
        else:
            return []
        paths = []
        for memory_id in ids:
            with contextlib.suppress(VaultError):
                path = self.files.locate(memory_id)
                paths += [path, vault.counterpart(path)]
        return paths

    def _apply(self, action: Action) -> dict[str, Any]:
        if isinstance(action, Supersede):
            return self.supersede(action)
        if isinstance(action, Merge):
            return self.merge(action)
        if isinstance(action, Gist):
            return self.gist(action)
        return self.pattern(action)

    def supersede(self, action: Supersede) -> dict[str, Any]:
        older, newer = action.older, action.newer
        self.files.read(older)
        self.files.read(newer)
        self.files.update(older, appended("superseded_by", newer), to_archive=True)
        self.files.update(newer, appended("supersedes", older))
        return {"action": "supersede", "older": older, "newer": newer, "reason": action.reason}

    def merge(self, action: Merge) -> dict[str, Any]:
        records = [self.files.read(m, self.planned_hashes.get(m))[0] for m in action.sources]
        text = action.text.strip() + "\n"
        merged_id = self._free_id(action.text, min(r.created for r in records))
        meta = merged_meta(merged_id, records, self.config)
        self.files.create(merged_id, frontmatter.render(meta, text))
        for source in action.sources:
            self.files.update(source, appended("merged_into", merged_id), to_archive=True)
            self.applied.merged_into[source] = merged_id
        for other in sorted({o for s in action.sources for o in self.backlinks.get(s, [])}):
            if other not in action.sources and other not in self.applied.merged_into:
                self.files.update(other, _relinked(set(action.sources), merged_id))
        return {"action": "merge", "sources": list(action.sources), "into": merged_id,
                "reason": action.reason}  # fmt: skip

    def gist(self, action: Gist) -> dict[str, Any]:
        record, text = self.files.read(action.memory, self.planned_hashes.get(action.memory))
        full_id = self._free_id(action.memory + "-full", record.created, exact=True)
        original = frontmatter.update(text, {"id": full_id, "gist": [wikilink(action.memory)]})
        self.files.create(full_id, original, archived=True)
        stability = effective_stability(record.stability, record.tier, self.config)

        def changes(_: MemoryRecord) -> dict[str, Any]:
            return {"gist_of": [wikilink(full_id)], "tier": "semantic", "stability": stability}

        self.files.update(action.memory, changes, body=action.text.strip() + "\n")
        return {"action": "gist", "memory": action.memory, "full_text": full_id}

    def pattern(self, action: Pattern) -> dict[str, Any]:
        sources = list(dict.fromkeys(self.applied.merged_into.get(s, s) for s in action.sources))
        pattern_id = self._free_id(action.text, self.now)
        links = [wikilink(s) for s in sources]
        meta = {
            "id": pattern_id, "created": self.now, "last_access": self.now,
            "stability": self.config.semantic_base_stability, "tier": "semantic",
            "kind": "pattern", "topic": action.topic, "tags": [], "project": "", "session": "",
            "source": "consolidation", "recalls": 0, "confirmations": 0, "salience": 1.0,
            "links": links, "pattern_of": links,
        }  # fmt: skip
        self.files.create(pattern_id, frontmatter.render(meta, action.text.strip() + "\n"))
        return {"action": "pattern", "sources": sources, "into": pattern_id, "topic": action.topic}

    def _free_id(self, text: str, created: datetime, exact: bool = False) -> str:
        for attempt in range(50):
            if exact:
                candidate = text if attempt == 0 else f"{text}-{attempt + 1}"
            else:
                candidate = make_id(text, created, salt=str(attempt) if attempt else "")
            if not exists_in_vault(self.files.vault, candidate):
                return candidate
        raise StaleMemory(f"no free id for {text[:40]!r}")


def _relinked(sources: set[str], merged_id: str) -> Any:
    def changes(record: MemoryRecord) -> dict[str, Any]:
        targets = [merged_id if t in sources else t for t in link_targets(record.links)]
        return {"links": [wikilink(t) for t in dict.fromkeys(targets)]}

    return changes


def merged_meta(
    merged_id: str, records: list[MemoryRecord], config: MemoryConfig
) -> dict[str, Any]:
    """The frontmatter of a merged memory: the semantic tier (seed 003) at the
    strongest source's stability (its strength is unchanged), summed recalls and
    confirmations, the union of tags and links."""
    strongest = max(records, key=lambda r: effective_stability(r.stability, r.tier, config))
    sources = {r.id for r in records}
    topics = Counter(r.topic for r in records if r.topic)
    links = [t for r in records for t in link_targets(r.links) if t not in sources]
    return {
        "id": merged_id, "created": min(r.created for r in records),
        "last_access": max(r.last_access for r in records),
        "stability": effective_stability(strongest.stability, strongest.tier, config),
        "tier": "semantic", "kind": records[0].kind,  # seed 003: merged memories are semantic
        "topic": topics.most_common(1)[0][0] if topics else "",
        "tags": list(dict.fromkeys(t for r in records for t in r.tags)),
        "project": records[0].project, "session": "", "source": "consolidation",
        "recalls": sum(r.recalls for r in records),
        "confirmations": sum(r.confirmations for r in records),
        "salience": max(r.salience for r in records),
        "links": [wikilink(t) for t in dict.fromkeys(links)],
        "confidence": max(MERGED_CONFIDENCE, *(r.confidence for r in records)),
        "merged_from": [wikilink(r.id) for r in records],
    }  # fmt: skip
