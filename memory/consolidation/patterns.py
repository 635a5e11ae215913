"""Recurring themes become `pattern` memories (pure): memories filed under one
topic, across projects and kinds, that are loosely alike as a group (no
duplicates: a group of restatements counts once). The wording is a template
over the words they share plus one clause from each, or, when the LLM switch
is on, what a `Generalise` callable (hooks/claude_code) writes.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING

from memory.consolidation.clusters import Pair, cluster
from memory.consolidation.merge import clauses
from memory.consolidation.nearest import nearest_pairs
from memory.consolidation.relations import Item, WordWeights, similarity
from memory.consolidation.text import stem

if TYPE_CHECKING:
    import numpy as np

THEME_BAR = 0.2  # mean similarity of a theme's memories (calibrated on the scenario set)
THEME_FLOOR = 0.1
MAX_SOURCES = 6
THEME_NEIGHBOURS = 30  # a big topic's pairs: each memory's nearest (as candidate pairs)
MIN_PROJECTS = 2  # a theme recurs across projects (or a project and the global scope)
# Tendencies show in what the person prefers and decides, not in plain facts.
THEME_KINDS = frozenset({"preference", "decision", "procedure", "episode"})
# Takes the sources' texts, returns one generalised sentence (or None to fall back).
Generalise = Callable[[list[str]], "str | None"]


def find_themes(
    items: list[Item],
    vectors: dict[str, np.ndarray],
    weights: WordWeights,
    min_members: int,
    covered: Iterable[frozenset[str]] = (),
    progress: Callable[[int, int], None] | None = None,
) -> list[list[str]]:
    """Groups of `min_members`+ item ids sharing a theme, best first; groups that
    overlap an existing pattern's sources by half or more are left out;
    `progress(done, total)` counts the topics."""
    by_topic: dict[str, list[Item]] = {}
    for item in items:
        if item.topic and item.kind in THEME_KINDS:
            by_topic.setdefault(item.topic, []).append(item)
    themes = []
    known = list(covered)
    for done, members in enumerate(by_topic.values(), 1):
        if progress is not None:
            progress(done, len(by_topic))
        if len(members) < min_members:
            continue
        pairs = _pairs(members, vectors, weights)
        for group in cluster(pairs, THEME_BAR, lambda a, b: False, THEME_FLOOR):
            group = _most_central(group, pairs)[:MAX_SOURCES]
            projects = {item.project for item in members if item.id in group}
            if len(projects) < MIN_PROJECTS:
                continue
            if len(group) >= min_members and not any(
                len(set(group) & done) * 2 >= len(group) for done in known
            ):
                themes.append(group)
                known.append(frozenset(group))
    return themes


def _pairs(
    members: list[Item], vectors: dict[str, np.ndarray], weights: WordWeights
) -> dict[Pair, float]:
    """Every pair of a topic's memories; in a topic of more than THEME_NEIGHBOURS + 1,
    each memory's THEME_NEIGHBOURS nearest by cosine (every pair grew with the square
    of the topic). A pair left out counts as 0, under the floor: there a theme is a
    group of near neighbours."""
    facts = {item.id: item.facts for item in members}
    if len(members) > THEME_NEIGHBOURS + 1:
        ids = [item.id for item in members]
        cosines = nearest_pairs(ids, vectors, THEME_NEIGHBOURS, -1.0)
        return {
            (a, b): similarity(cos, facts[a], facts[b], weights) for (a, b), cos in cosines.items()
        }
    pairs = {}
    for n, a in enumerate(members):
        for b in members[n + 1 :]:
            cosine = float(vectors[a.id] @ vectors[b.id])
            key = (a.id, b.id) if a.id < b.id else (b.id, a.id)
            pairs[key] = similarity(cosine, a.facts, b.facts, weights)
    return pairs


def _most_central(group: list[str], pairs: dict[Pair, float]) -> list[str]:
    def centrality(memory: str) -> float:
        others = [pairs.get((min(memory, o), max(memory, o)), 0.0) for o in group if o != memory]
        return sum(others) / max(1, len(others))

    return sorted(group, key=lambda m: (-centrality(m), m))


def pattern_text(topic: str, sources: list[Item], weights: WordWeights) -> str:
    """Template wording: the theme's shared words, then one clause of each source."""
    surface: dict[str, Counter[str]] = {}
    counts: Counter[str] = Counter()
    for item in sources:
        for word in {w.lower().strip(".,;:()`'\"") for w in item.facts.core.split()}:
            if len(word) > 2 and stem(word) in item.facts.tokens:
                surface.setdefault(stem(word), Counter())[word] += 1
        counts.update(item.facts.tokens)
    shared = [w for w, n in counts.items() if n >= 2 and w in surface and w != stem(topic)]
    shared.sort(key=lambda w: (-counts[w] * weights.idf.get(w, 1.0), w))
    words = [surface[w].most_common(1)[0][0] for w in shared[:4]]
    head = f"Recurring theme in {topic} across {len(sources)} memories"
    head += f" ({', '.join(words)})." if words else "."
    examples = [clauses(item.facts.core)[0].rstrip(".") for item in sources]
    return f"{head} For example: {'; '.join(examples)}."
