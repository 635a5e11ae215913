"""What a statement about to be captured is to the memories already there, by
the one judge of relations.py: a restatement of one (capture reinforces it), a
change of some (capture writes it and retires those the judge is confident
about: archive/ with `superseded_by`, the new one `supersedes`; the others wait
on the review list of `vault consolidate --review`), or new. Capture decides
nothing of this itself.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from indexer.index import Candidate
from memory.consolidation.relations import Item, WordWeights, judge, similarity
from memory.consolidation.review import defer
from memory.consolidation.text import analyse
from memory.context import ServiceContext
from vault.clock import format_time
from vault.links import link_targets, wikilink
from vault.schema import MemoryRecord

REINFORCE_COSINE = 0.92  # capture reinforces only a near-identical restatement
COMPARED = 5  # the best hybrid matches a statement is judged against


@dataclass
class Verdict:
    restates: str | None = None  # the memory to reinforce
    changes: list[tuple[str, str]] = field(default_factory=list)  # (older id, why): confident
    doubtful: list[tuple[str, str]] = field(default_factory=list)  # changes left for review

    @property
    def changed(self) -> bool:
        return bool(self.changes or self.doubtful)

    def add(self, other: Verdict) -> None:
        self.changes += other.changes
        self.doubtful += other.doubtful


def judge_statement(
    service: ServiceContext, text: str, project: str, kind: str, created: str,
    candidates: list[Candidate], archived: bool = False,
) -> Verdict:  # fmt: skip
    """Judge `text` (said at `created`) against its best matches (active ones;
    `archived`: the archive's instead)."""
    new = Item("", project, kind, "", created, text, analyse(text))
    olders = []
    for candidate in candidates[:COMPARED]:
        row = candidate.row
        if row.archived != archived or row.tier == "curated" or row.superseded_by:
            continue
        body = " ".join(service.index.body(row.id).split())
        olders.append((Item(row.id, row.project, row.kind, row.topic, row.created, body,
                            analyse(body)), candidate.cosine))  # fmt: skip
    weights = WordWeights([new.facts.tokens, *(item.facts.tokens for item, _ in olders)])
    change_bar = float(service.settings.contradiction_cosine)
    merge_bar = float(service.settings.merge_bar)
    verdict = Verdict()
    for older, cosine in olders:
        alike = similarity(cosine, older.facts, new.facts, weights)
        judged = judge(older, new, cosine, alike, change_bar, merge_bar)
        if judged.relation == "change":
            found = verdict.changes if judged.confident else verdict.doubtful
            found.append((older.id, judged.reason))
        elif judged.relation == "restatement" and cosine >= REINFORCE_COSINE:
            verdict.restates = verdict.restates or older.id
    if verdict.changed:
        verdict.restates = None  # a change is new, whatever else it resembles
    return verdict


def archived_changes(
    service: ServiceContext, text: str, project: str, kind: str, created: str,
    archived: list[Candidate],
) -> Verdict:  # fmt: skip
    """The archived memories `text` changes: a fact that decay archived before
    its change was said is superseded too, so no cue brings its old value back
    as if it still held; restatements of them change nothing."""
    unreplaced = [c for c in archived if c.row.archived and not c.row.superseded_by]
    found = judge_statement(service, text, project, kind, created, unreplaced, True)
    return Verdict(None, found.changes, found.doubtful)


def leave_for_review(
    service: ServiceContext, changes: list[tuple[str, str]], newer: str
) -> list[str]:
    """Put the supersedes the judge is not confident about on the review list
    (`vault consolidate --review` applies or drops each); returns the older ids."""
    actions = [
        {"action": "supersede", "older": older, "newer": newer, "reason": f"{why}, from capture"}
        for older, why in changes
    ]
    defer(service.vault, actions, "capture", format_time(service.clock()))
    return [older for older, _ in changes]


def retire(service: ServiceContext, older: str, newer: str) -> list[MemoryRecord]:
    """`older` to archive/ (where decay may have moved it already) with
    `superseded_by: [[newer]]`; `newer` gets `supersedes`. Undone by `vault
    revive OLDER`."""
    mark = appended("superseded_by", newer)
    if service.vault.is_archived(service.vault.locate(older)):
        moved = service.store.update(older, mark)
    else:
        moved = service.store.move(older, to_archive=True, mutate=mark)
    kept = service.store.update(newer, appended("supersedes", older))
    paths = [service.vault.counterpart(moved.path), moved.path, kept.path]
    service.index.apply(paths, allow_embed=False)
    return [moved, kept]


def appended(key: str, memory_id: str) -> Any:
    """A mutation adding `[[memory_id]]` to the link list `key` (once)."""

    def changes(record: MemoryRecord) -> dict[str, Any]:
        current = link_targets(getattr(record, key))
        return {key: [wikilink(t) for t in dict.fromkeys([*current, memory_id])]}

    return changes
