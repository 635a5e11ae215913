"""How two memories relate (pure): does a newer one supersede an older one, and
what keeps two from being one fact. Cosine alone cannot tell (duplicates at
0.16, updates at 0.93), so the wording decides: a differing value of one kind
(port 8000 -> 8080), a change naming what was before ("moved off Heroku"), or
another name in the same sentence frame; never across projects or environments.
"""

from __future__ import annotations

import math
import re
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass

from memory.consolidation.merge import clauses
from memory.consolidation.pair_model import shipped_model
from memory.consolidation.pair_signals import signals
from memory.consolidation.subject import (
    other_attribute,
    other_subject,
    subjects_apart,
    swapped_slot,
)
from memory.consolidation.text import Facts, contrasted_terms, stem, tokens
from memory.consolidation.values import (
    measure_apart,
    named_apart,
    number_swapped,
    other_detail,
    related_word,
    value_change,
    value_conflict,
)
from vault.lazy_pattern import LazyPattern
from vault.schema import STATUS_KIND

NUMBER_MARGIN = 0.05  # a differing value also needs a subject this much closer
NAME_MARGIN = 0.15  # a differing name needs a much closer subject (names are weak evidence)
NAME_FRAME_SHARE = 0.7
NAMED_GONE_MARGIN = 0.15  # "moved off Segment": a named thing gone counts below the bar
# A pattern is made of memories; a status (a statement bounded to now) neither
# replaces nor restates a lasting fact, and fades in days by itself.
NEVER_RELATED_KINDS = frozenset({"pattern", STATUS_KIND})
# Two memories are one fact said twice from this cosine up (with no veto); below
# it the same thing's other attributes sit (calibrated on the tuning pairs of
# benchmarks/data/consolidation_pairs.json: restatements >= 0.77, others <= 0.72).
RESTATEMENT_COSINE = 0.75
MAX_TAKEN = 6  # new words a "Y instead of X" change brings (more: another statement)
_CONTRAST = frozenset({"instead", "rather", "place"})


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


def comparable(older: Item, newer: Item) -> bool:
    """`newer` could replace `older` at all: one project, said later, neither a
    pattern nor a status, both rules or both exceptions, no two environments, not
    a question, and one speaker (one person's words do not update another's)."""
    if older.project != newer.project or older.created >= newer.created:
        return False
    if {older.kind, newer.kind} & NEVER_RELATED_KINDS:
        return False
    old, new = older.facts, newer.facts
    if old.exception != new.exception or environment_conflict(old, new) or new.question:
        return False
    return old.speaker == new.speaker


def supersedes(older: Item, newer: Item, cosine: float, bar: float) -> str | None:
    """Why `newer` replaces the fact `older` states by the rules, or None. `cosine`
    is the similarity of their core wording; `bar` the least that means "same subject"."""
    if not comparable(older, newer):
        return None
    old, new = older.facts, newer.facts
    if other_subject(old.core, new.core):
        return None  # the same attribute of another thing
    return _change(old, new, cosine, bar)


def _change(old: Facts, new: Facts, cosine: float, bar: float) -> str | None:
    # a value or detail changes only on the same thing: not when the two open on
    # different things that share only what they use ("Node 18" / "Node 20")
    apart = subjects_apart(old.core, new.core)
    valued = None if apart else value_change(old, new, cosine, bar, NUMBER_MARGIN)
    if valued is not None:
        return valued or None  # "": it says again what the older said was before
    margin = 0.0 if new.change and not old.change else NUMBER_MARGIN
    # "off port 8004" replaces a value the older never held ("port 8060"): not it
    elsewhere = bool(new.gone_values) and not new.gone_values & old.numbers
    changed = frozenset() if elsewhere else new.replaced & old.affirmed
    # a thing the older names, said to be gone ("moved off Segment"), is strong
    # evidence at a lower similarity than a value
    named_gone = changed & old.marked
    if changed and (cosine >= bar or (named_gone and cosine >= bar - NAMED_GONE_MARGIN)):
        return f"says {', '.join(sorted(changed))} was replaced"
    # "use loguru instead of structlog", "from the release branch, not main": a few
    # new words in place of what the older chose; not a restatement that rejects
    # the same thing ("not setUp" again).
    dropped = (contrasted_terms(new.core) | new.negated) & old.affirmed - _rejected(
        old
    ) - new.stated
    taken = new.affirmed - old.tokens - _CONTRAST
    if (
        dropped
        and 0 < len(taken) <= MAX_TAKEN
        and not (old.negated | contrasted_terms(old.core)) & new.negated
        and cosine >= bar
    ):
        return f"takes {', '.join(sorted(taken))} instead of {', '.join(sorted(dropped))}"
    if _ADDING.search(new.core):
        return None  # "now also feeds OpenSearch": a second one, not one in place of the other
    if cosine >= bar + NUMBER_MARGIN:
        for clause in clauses(new.core):
            slot = swapped_slot(old.core, clause)
            if slot:
                return f"{slot[1]} where it said {slot[0]}"
    if (
        cosine >= bar + NAME_MARGIN
        and frame_share(old, new) >= NAME_FRAME_SHARE
        and substituted_names(old, new)
    ):
        before, after = sorted(old.names - new.names), sorted(new.names - old.names)
        return f"names {', '.join(after)} where it said {', '.join(before)}"
    if new.change and _handed_over(old, new) and cosine >= bar:
        before, after = sorted(old.names - new.names), sorted(new.names - old.names)
        return f"{after[0]} where it said {before[0]}"
    renamed = _renamed(old, new) if new.change and cosine >= bar else None
    if renamed:
        return f"{renamed[1]} where it said {renamed[0]}, saying it changed"
    if apart:
        return None
    swapped = number_swapped(old, new)
    if swapped and cosine >= bar + NUMBER_MARGIN:
        return f"{swapped[1]} where it said {swapped[0]}"
    if new.change and other_detail(old, new) and cosine >= bar + margin:
        return f"{', '.join(sorted(new.specific_values))} where it said " + ", ".join(
            sorted(old.specific_values)
        )
    return None


def _handed_over(old: Facts, new: Facts) -> bool:
    """One person in place of another for the same role, which the newer says
    changed ("maintained by Aiko" / "maintainer is Rafael as of October"): every
    other word of the older is in the newer (or a form of it: owner, ownership)."""
    if value_conflict(old, new) or not substituted_names(old, new):
        return False
    gone, came = old.names - new.names, new.names - old.names
    if len(gone) != 1 or len(came) != 1 or old.negated & new.affirmed:
        return False
    named = {stem(w) for name in old.names | new.names for w in name.split()}
    rest = old.tokens - named
    return bool(rest) and all(related_word(word, new.tokens - named) for word in rest)


_ADDING = LazyPattern(r"\b(?:also|too|as well|in addition|alongside|besides|both)\b", re.I)


def _renamed(old: Facts, new: Facts) -> tuple[str, str] | None:
    """One name in place of another, all else the older said said again, in a
    newer that says it changed ("the job queue is RabbitMQ" / "the job queue
    switched to SQS"); not one that adds a second ("now also feeds Kafka")."""
    if value_conflict(old, new):
        return None
    gone = sorted(w for w in old.marked if not related_word(w, new.tokens))
    came = sorted(w for w in new.marked if not related_word(w, old.tokens))
    if len(gone) != 1 or len(came) != 1:
        return None
    rest = old.tokens - old.marked
    if not rest or not all(related_word(word, new.tokens) for word in rest):
        return None
    return gone[0], came[0]


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
    about = other_subject(a.facts.core, b.facts.core)
    if about:
        return about
    slots = other_attribute(a.facts.tokens, b.facts.tokens, a.facts.specific_values,
                            b.facts.specific_values)  # fmt: skip
    if slots:
        return f"about its {slots[0]} and its {slots[1]}"
    left, right = a.facts.specific_values, b.facts.specific_values
    if left - right and right - left and not left & right:
        return "different details"
    named = named_apart(a.facts, b.facts)
    if named:
        return f"names {named[0]} and {named[1]}"
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
        self._weights: dict[frozenset[str], float] = {}

    def weight(self, words: Iterable[str]) -> float:
        return sum(self.idf.get(word, 1.0) for word in words)

    def _set_weight(self, words: frozenset[str]) -> float:
        """A memory's word set is compared with each of its ~30 candidates: once each."""
        known = self._weights.get(words)
        if known is None:
            known = self._weights[words] = self.weight(words)
        return known

    def overlap(self, a: frozenset[str], b: frozenset[str]) -> float:
        """Weighted share of the smaller word set found in the other (0-1)."""
        smaller = min(self._set_weight(a), self._set_weight(b))
        return self.weight(a & b) / smaller if smaller else 0.0


LEXICAL_WEIGHT = 0.3  # similarity = 0.7 x cosine + 0.3 x weighted word overlap


def similarity(cosine: float, a: Facts, b: Facts, weights: WordWeights) -> float:
    return (1 - LEXICAL_WEIGHT) * cosine + LEXICAL_WEIGHT * weights.overlap(a.tokens, b.tokens)


@dataclass(frozen=True)
class Judgement:
    """What a newer memory is to an older one: "change" (it replaces it),
    "restatement" (the same fact again) or "distinct" (both stand). A change is
    `confident` when a rule found it and the newer says in words that it changed
    (said_changed): no rule-found change of that kind was wrong on any of the
    labelled pair sets, while a bare value difference was ("lives one hour" /
    "expires after 60 minutes")."""

    relation: str
    reason: str
    confident: bool = False


def said_changed(old: Facts, new: Facts) -> bool:
    """The newer says in words that something changed ("moved", "now", "no
    longer"), or names the older's value or term as what was before ("from
    8000", "not 7001", "off Heroku", "loguru instead of structlog")."""
    return bool(
        new.change
        or (new.former | new.gone_values) & old.numbers
        or new.replaced & old.affirmed
        or contrasted_terms(new.core) & old.affirmed
    )


def replaces_nothing(old: Facts, new: Facts) -> str | None:
    """A rule's finding that the newer replaces nothing the older says, whatever
    else they share (the learned layer never overrules it): it adds a second one
    ("now also feeds OpenSearch"), names as gone a value the older never held
    ("off port 8004" / "port 8060"), or its numbers measure another attribute
    ("at 02:00" / "now keeps 30 days"; "timeout" / "retries")."""
    if _ADDING.search(new.core):
        return "adds a second one"
    if new.gone_values and not new.gone_values & old.numbers:
        return "names as gone a value the older never held"
    if measure_apart(old, new) or other_attribute(
        old.tokens, new.tokens, old.specific_values, new.specific_values
    ):
        return "about another attribute"
    return None


def change(
    older: Item, newer: Item, cosine: float, alike: float, bar: float, rules_only: bool = False
) -> Judgement | None:
    """The change `newer` makes to `older`, or None: what the rules find, else
    what the shipped learned layer (pair_model.py; not with `rules_only`) scores
    at its threshold or above, on a comparable pair at the cosine `bar` or above."""
    why = supersedes(older, newer, cosine, bar)
    if why:
        return Judgement("change", why, said_changed(older.facts, newer.facts))
    model = None if rules_only else shipped_model()
    if model is None or cosine < bar or not comparable(older, newer):
        return None
    if replaces_nothing(older.facts, newer.facts):
        return None
    veto = why_not_one_fact(older, newer) is not None
    score = model.probability(signals(older.facts, newer.facts, cosine, alike, False, veto))
    if score < model.threshold:
        return None
    return Judgement("change", f"learned score {score:.2f}, no rule found it")


def judge(
    older: Item, newer: Item, cosine: float, alike: float, change_bar: float, merge_bar: float,
    rules_only: bool = False,
) -> Judgement:  # fmt: skip
    """The one home of "is this a change, a restatement or something else", for
    consolidation and capture. `cosine`: of their core wording; `alike`: the
    similarity (cosine and shared rare words); the bars from the settings;
    `rules_only`: without the learned layer."""
    changed = change(older, newer, cosine, alike, change_bar, rules_only)
    if changed:
        return changed
    veto = why_not_one_fact(older, newer)
    if veto:
        return Judgement("distinct", veto)
    if alike < merge_bar or cosine < RESTATEMENT_COSINE:
        return Judgement("distinct", f"cosine {cosine:.2f}, similarity {alike:.2f}: not alike")
    denied = (newer.facts.negated | newer.facts.replaced) & older.facts.affirmed
    if denied:  # "..., not main": a restatement never denies what the older states
        return Judgement("distinct", f"denies {', '.join(sorted(denied))}")
    old_values, new_values = older.facts.specific_values, newer.facts.specific_values
    if newer.facts.change and old_values != new_values:
        return Judgement("distinct", "says it changed, with other values")
    if newer.facts.change and not older.facts.change:
        return Judgement("distinct", "says something changed that the older did not")
    return Judgement("restatement", f"cosine {cosine:.2f}, similarity {alike:.2f}")


_REJECTING = LazyPattern(r"\b(?:not|never|no|don't|do not|avoid|without)\b", re.IGNORECASE)


def _rejected(facts: Facts) -> frozenset[str]:
    """Every word of the clauses that reject something ("Don't write TestCase
    classes with setUp"): what the older said no to is not what it chose, even
    past where the negation's scope ends."""
    found: set[str] = set()
    for clause in re.split(r"[,;:.]\s+", facts.core):
        if _REJECTING.search(clause):
            found |= tokens(clause)
    return frozenset(found)
