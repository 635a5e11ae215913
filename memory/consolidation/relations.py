"""How two memories relate (pure): does a newer one supersede an older one, and
what keeps two from being one fact. Cosine alone cannot tell (duplicates at
0.16, updates at 0.93), so the wording decides: a differing value of one kind
(port 8000 -> 8080), a change naming what was before ("moved off Heroku"), or
another name in the same sentence frame; never across projects or environments.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass

from memory.consolidation.text import Facts, stem

NUMBER_MARGIN = 0.05  # a differing value also needs a subject this much closer
NAME_MARGIN = 0.15  # a differing name needs a much closer subject (names are weak evidence)
FRAME_SHARE = 0.5  # share of the shorter memory's words the two sentences must have in common
NEVER_RELATED_KINDS = frozenset({"pattern"})


@dataclass(frozen=True)
class Item:
    """A memory as consolidation compares it."""

    id: str
    project: str
    kind: str
    topic: str
    created: str  # vault timestamp: sorts in time order
    text: str
    facts: Facts


def value_conflict(older: Facts, newer: Facts) -> str | None:
    """The kind of value both state with no value in common ("port"), or None."""
    for key in sorted(older.values):
        if key in newer.values and not older.values[key] & newer.values[key]:
            return key
    return None


def environment_conflict(a: Facts, b: Facts) -> bool:
    return bool(a.environments and b.environments and not a.environments & b.environments)


def frame_share(a: Facts, b: Facts) -> float:
    """How much of the shorter sentence the two share, names left out."""
    left = a.tokens - {w for name in a.names for w in name.split()}
    right = b.tokens - {w for name in b.names for w in name.split()}
    return len(left & right) / max(1, min(len(left), len(right)))


def substituted_names(older: Facts, newer: Facts) -> bool:
    """Each names someone or something the other does not mention at all."""
    if set(older.values) ^ set(newer.values):
        return False  # they state different kinds of values: different attributes

    def unmentioned(name: str, other: Facts) -> bool:
        words = name.split()
        if any(stem(word) in other.tokens for word in words):
            return False
        # A short form names the same one (Mel, Melanie).
        return not any(n.startswith(name) or name.startswith(n) for n in other.names)

    gone = [n for n in older.names - newer.names if unmentioned(n, newer)]
    came = [n for n in newer.names - older.names if unmentioned(n, older)]
    return bool(gone and came)


def supersedes(older: Item, newer: Item, cosine: float, bar: float) -> str | None:
    """Why `newer` replaces the fact `older` states, or None. `cosine` is the
    similarity of their core wording; `bar` the least that means "same subject"."""
    if older.project != newer.project or older.created >= newer.created:
        return None
    if {older.kind, newer.kind} & NEVER_RELATED_KINDS:
        return None
    old, new = older.facts, newer.facts
    if old.exception != new.exception or environment_conflict(old, new) or new.question:
        return None
    if old.speaker != new.speaker:
        return None  # one person's words do not update another's
    key = value_conflict(old, new)
    if key and cosine >= bar + NUMBER_MARGIN:
        before, after = sorted(old.values[key]), sorted(new.values[key])
        return f"{key} {', '.join(before)} -> {', '.join(after)}"
    changed = new.replaced & old.affirmed
    if new.change and changed and cosine >= bar:
        return f"says {', '.join(sorted(changed))} was replaced"
    if (
        cosine >= bar + NAME_MARGIN
        and frame_share(old, new) >= FRAME_SHARE
        and substituted_names(old, new)
    ):
        before, after = sorted(old.names - new.names), sorted(new.names - old.names)
        return f"names {', '.join(after)} where it said {', '.join(before)}"
    return None


def why_not_one_fact(a: Item, b: Item) -> str | None:
    """What keeps two memories from being the same fact said twice, or None."""
    if a.project != b.project:
        return "different projects"
    if a.kind != b.kind or a.kind in NEVER_RELATED_KINDS | {"episode"}:
        return "different kinds"
    if a.topic and b.topic and a.topic != b.topic:
        return "different topics"
    if a.facts.exception != b.facts.exception:
        return "a rule and its exception"
    if a.facts.speaker != b.facts.speaker:
        return "said by different people"
    if environment_conflict(a.facts, b.facts):
        return "different environments"
    if value_conflict(a.facts, b.facts):
        return "different values"
    left, right = a.facts.specific_values, b.facts.specific_values
    if left - right and right - left and not left & right:
        return "different details"
    return None


class WordWeights:
    """Inverse document frequency over the memories compared, for the lexical
    part of similarity (rare shared words count most)."""

    def __init__(self, documents: Iterable[frozenset[str]]) -> None:
        counts: Counter[str] = Counter()
        total = 0
        for words in documents:
            counts.update(words)
            total += 1
        self.total = total
        self.documents = counts  # how many memories use each word
        self.idf = {word: math.log((1 + total) / (1 + n)) + 1.0 for word, n in counts.items()}

    def weight(self, words: Iterable[str]) -> float:
        return sum(self.idf.get(word, 1.0) for word in words)

    def overlap(self, a: frozenset[str], b: frozenset[str]) -> float:
        """Weighted share of the smaller word set found in the other (0-1)."""
        smaller = min(self.weight(a), self.weight(b))
        return self.weight(a & b) / smaller if smaller else 0.0


LEXICAL_WEIGHT = 0.3  # similarity = 0.7 x cosine + 0.3 x weighted word overlap


def similarity(cosine: float, a: Facts, b: Facts, weights: WordWeights) -> float:
    return (1 - LEXICAL_WEIGHT) * cosine + LEXICAL_WEIGHT * weights.overlap(a.tokens, b.tokens)
