"""What one consolidation run would do, decided on a snapshot without writing:
supersessions first (the newer fact wins), then merges of groups of the same
fact (mature groups, or near-identical ones of any size: the dedupe sweep),
then gists of old long episodic memories, then patterns over what is left.
"""

from __future__ import annotations

import functools
from dataclasses import asdict, dataclass, field
from datetime import datetime
from typing import Any

from indexer.progress_steps import counter
from indexer.sync import Progress, Stages
from memory.consolidation.clusters import cluster
from memory.consolidation.config import ConsolidationConfig
from memory.consolidation.gist import WriteGists, decision_gist, long_enough, written_gist
from memory.consolidation.merge import merged_text
from memory.consolidation.patterns import Generalise, find_themes, pattern_text
from memory.consolidation.relations import change, why_not_one_fact
from memory.consolidation.snapshot import Snapshot
from memory.decay import days_between
from vault.clock import parse_time

DISTINCTIVE_SHARE = 0.08  # a distinctive word is in at most 8% of the memories compared
DISTINCTIVE_MIN = 10  # ... or in at most 10 of them (a small vault)


@dataclass(frozen=True)
class Supersede:
    older: str
    newer: str
    reason: str


@dataclass(frozen=True)
class Merge:
    sources: tuple[str, ...]  # most central first
    text: str
    reason: str


@dataclass(frozen=True)
class Gist:
    memory: str
    text: str


@dataclass(frozen=True)
class Pattern:
    sources: tuple[str, ...]  # a merged source is named by its first (most central) id
    text: str
    topic: str


Action = Supersede | Merge | Gist | Pattern


@dataclass
class Plan:
    actions: list[Action] = field(default_factory=list)

    def of(self, kind: type) -> list[Any]:
        return [a for a in self.actions if isinstance(a, kind)]

    def counts(self) -> dict[str, int]:
        kinds = {"supersede": Supersede, "merge": Merge, "gist": Gist, "pattern": Pattern}
        return {name: len(self.of(kind)) for name, kind in kinds.items()}

    def to_dict(self) -> list[dict[str, Any]]:
        return [{"action": type(a).__name__.lower(), **asdict(a)} for a in self.actions]


def make_plan(
    snapshot: Snapshot,
    config: ConsolidationConfig,
    now: datetime,
    generalise: Generalise | None = None,
    covered: list[frozenset[str]] | None = None,
    write_gists: WriteGists | None = None,
    stages: Stages | None = None,
) -> Plan:
    """`covered`: the sources of existing patterns (a theme is generalised once);
    `write_gists`: the model's gists (llm_gist), else the rule-based ones;
    `stages` hears each step (judging pairs, grouping, gists, themes)."""

    def stage(label: str) -> Progress | None:
        return stages(label) if stages else None

    bar = config.contradiction_cosine
    plan = Plan(list[Action](_supersessions(snapshot, bar, stage("Judging pairs"))))
    superseded = {s.older for s in plan.of(Supersede)}
    groups = _groups(snapshot, config, superseded, stage("Grouping restatements"))
    for group in groups:
        if len(group) >= config.merge_maturity or _near_identical(snapshot, group, config):
            texts = [snapshot.items[m].text for m in group]
            mean = _mean_similarity(snapshot, group)
            plan.actions.append(
                Merge(tuple(group), merged_text(texts), f"{len(group)} alike, mean {mean:.2f}")
            )
    merged = {m for merge in plan.of(Merge) for m in merge.sources}
    plan.actions += _gists(snapshot, config, now, superseded | merged, write_gists)
    themes = stage("Finding themes")
    plan.actions += _patterns(
        snapshot, config, groups, superseded, generalise, covered or [], themes
    )
    return plan


def _supersessions(snapshot: Snapshot, bar: float, progress: Progress | None) -> list[Supersede]:
    found = []
    close = sorted(pair for pair, cosine in snapshot.cosines.items() if cosine >= bar)
    step = counter(progress, len(close))
    for a, b in close:
        cosine = snapshot.cosines[(a, b)]
        older, newer = sorted((snapshot.items[a], snapshot.items[b]), key=lambda i: i.created)
        changed = change(older, newer, cosine, snapshot.similarities.get((a, b), 0.0), bar)
        if changed:
            found.append(Supersede(older.id, newer.id, changed.reason))
        step()
    return sorted(found, key=lambda s: (snapshot.items[s.newer].created, s.older))


def _groups(
    snapshot: Snapshot,
    config: ConsolidationConfig,
    superseded: set[str],
    progress: Progress | None = None,
) -> list[list[str]]:
    """Groups of live memories stating one fact, each most central first."""

    def vetoed(a: str, b: str) -> bool:
        first, second = snapshot.items[a], snapshot.items[b]
        cosine, alike = snapshot.cosine(a, b), snapshot.similarities.get(_pair(a, b), 0.0)
        bar = config.contradiction_cosine
        return bool(
            why_not_one_fact(first, second)
            or change(first, second, cosine, alike, bar)
            or change(second, first, cosine, alike, bar)
        )

    live = {
        pair: value
        for pair, value in snapshot.similarities.items()
        if not set(pair) & superseded
        and snapshot.items[pair[0]].kind == snapshot.items[pair[1]].kind
    }
    one_subject = functools.partial(_one_subject, snapshot)
    groups = cluster(live, config.merge_bar, vetoed, coherent=one_subject, progress=progress)
    return [_by_centrality(snapshot, group) for group in groups]


def _no_contrast(snapshot: Snapshot, group: list[str]) -> bool:
    """No member contrasts itself with the group: one that states a value of its
    own and negates what most others affirm ("exchange rates are NUMERIC(18,8),
    not integer cents") is another fact, not one more "money is integer cents".
    (Negation alone is no sign: restatements often say "never X" to mean "Y".)"""
    for member in group:
        others = [snapshot.items[m].facts for m in group if m != member]
        facts = snapshot.items[member].facts
        if len(others) < 2 or not facts.specific_values:
            continue
        if facts.specific_values & frozenset().union(*(f.specific_values for f in others)):
            continue
        for word in facts.negated:
            if sum(word in other.affirmed for other in others) * 2 > len(others):
                return False
    return True


def _one_subject(snapshot: Snapshot, group: list[str]) -> bool:
    """A group states one thing: every member shares a distinctive word (in at
    most 8% of the memories compared, or 10; names left out: they say who, not what)
    with at least half of the others, and none contrasts itself with the rest.
    Chit-chat that is alike in tone ("Thanks, Mel!", "Glad it helped!") is not."""
    if not _no_contrast(snapshot, group):
        return False
    if len(group) < 3:
        return True
    words = {m: _distinctive(snapshot, m) for m in group}
    for member in group:
        shared = sum(1 for other in group if other != member and words[member] & words[other])
        if shared * 2 < len(group) - 1:
            return False
    return True


def _distinctive(snapshot: Snapshot, memory_id: str) -> frozenset[str]:
    facts = snapshot.items[memory_id].facts
    names = {word for name in facts.names for word in name.split()}
    weights = snapshot.weights
    most = max(DISTINCTIVE_SHARE * weights.total, DISTINCTIVE_MIN)
    return frozenset(w for w in facts.affirmed - names if weights.documents.get(w, 0) <= most)


def _by_centrality(snapshot: Snapshot, group: list[str]) -> list[str]:
    def centrality(memory: str) -> float:
        values = [snapshot.similarities.get(_pair(memory, o), 0.0) for o in group if o != memory]
        return sum(values) / max(1, len(values))

    return sorted(group, key=lambda m: (-centrality(m), snapshot.items[m].created))


def _pair(a: str, b: str) -> tuple[str, str]:
    return (a, b) if a < b else (b, a)


def _mean_similarity(snapshot: Snapshot, group: list[str]) -> float:
    values = [
        snapshot.similarities.get(_pair(a, b), 0.0)
        for n, a in enumerate(group)
        for b in group[n + 1 :]
    ]
    return sum(values) / max(1, len(values))


def _near_identical(snapshot: Snapshot, group: list[str], config: ConsolidationConfig) -> bool:
    """The dedupe sweep: every pair as alike as a capture-time duplicate."""
    return all(
        snapshot.cosine(a, b) >= config.dedupe_cosine
        for n, a in enumerate(group)
        for b in group[n + 1 :]
    )


def _gists(
    snapshot: Snapshot,
    config: ConsolidationConfig,
    now: datetime,
    skip: set[str],
    write_gists: WriteGists | None = None,
) -> list[Gist]:
    """Old, long episodic memories' gists: the model's when `write_gists` is
    given and writes one (asked once for all), else the rule-based one."""
    due = []
    for memory_id, item in sorted(snapshot.items.items()):
        row = snapshot.rows[memory_id]
        if memory_id in skip or row.tier != "episodic" or row.source == "consolidation":
            continue
        if days_between(parse_time(row.created), now) <= config.gist_after_days:
            continue
        if long_enough(item.text, config.gist_min_sentences):
            due.append((memory_id, item.text))
    written: list[str | None] = [None] * len(due)
    if write_gists is not None and due:
        answers = write_gists([text for _, text in due])
        if len(answers) == len(due):  # else the answer is not about these texts
            written = list(answers)
    found = []
    for (memory_id, text), answer in zip(due, written, strict=True):
        gist = written_gist(answer, text) or decision_gist(text, config.gist_min_sentences)
        if gist:
            found.append(Gist(memory_id, gist))
    return found


def _patterns(
    snapshot: Snapshot,
    config: ConsolidationConfig,
    groups: list[list[str]],
    superseded: set[str],
    generalise: Generalise | None,
    covered: list[frozenset[str]],
    progress: Progress | None = None,
) -> list[Pattern]:
    """Themes over the live memories, each group of restatements counted once
    (by its most central member)."""
    restated = {m for group in groups for m in group[1:]}
    items = [
        item
        for memory_id, item in sorted(snapshot.items.items())
        if memory_id not in superseded and memory_id not in restated
    ]
    themes = find_themes(
        items, snapshot.vectors, snapshot.weights, config.pattern_min_memories, covered, progress
    )
    patterns = []
    for theme in themes:
        sources = [snapshot.items[m] for m in theme]
        topic = sources[0].topic
        text = generalise([s.text for s in sources]) if generalise else None
        patterns.append(
            Pattern(tuple(theme), text or pattern_text(topic, sources, snapshot.weights), topic)
        )
    return patterns
