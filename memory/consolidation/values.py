"""Values in two memories' wording (pure): numbers keyed by the dimension they
measure, which differ, and whether the rest of the two sentences is the same
frame, so a differing value is a new value of the same thing. relations.py
decides change or restatement with these; nothing here reads files.
"""

from __future__ import annotations

import re

from memory.consolidation.text import Facts, stem
from vault.lazy_pattern import LazyPattern

# a differing value: some of the rest in common (not "upload 50 MB" / "4 GB memory")
SAME_FRAME_SHARE = 0.25
CHANGE_FRAME_WORDS = 2  # plain words in common enough when the newer says it changed


# Units of one dimension: "30 minutes" and "2 hours" are values of one attribute.
DIMENSIONS = {
    "millisecond": "duration", "second": "duration", "minute": "duration", "hour": "duration",
    "day": "duration", "week": "duration", "kb": "size", "mb": "size", "gb": "size", "tb": "size",
}  # fmt: skip


_RATE = LazyPattern(r"(\w+) per (second|minute|hour|day|week)")
SECONDS = {"millisecond": 0.001, "second": 1, "minute": 60, "hour": 3600, "day": 86400,
           "week": 604800}  # fmt: skip


def by_dimension(facts: Facts) -> dict[str, frozenset[str]]:
    """Values by what they measure, with their unit: {"duration": {"15 minute"}},
    {"request rate": {"600 per minute"}}."""
    found: dict[str, frozenset[str]] = {}
    for key, values in facts.values.items():
        rate = _RATE.fullmatch(key)
        dimension = f"{rate.group(1)} rate" if rate else DIMENSIONS.get(key, key)
        unit = f"per {rate.group(2)}" if rate else key
        found[dimension] = found.get(dimension, frozenset()) | {
            v if key == dimension else f"{v} {unit}" for v in values
        }
    return found


def in_base_unit(value: str) -> str:
    """A duration in seconds, a rate per second ("1 hour" and "60 minute" are one
    value, as are "600 per minute" and "10 per second"); anything else as it is."""
    parts = value.split()
    if not re.fullmatch(r"\d+(?:\.\d+)?", parts[0]) or parts[-1] not in SECONDS:
        return value
    number = float(parts[0])
    if len(parts) == 2:
        return f"{number * SECONDS[parts[1]]:g} second"
    return f"{number / SECONDS[parts[-1]]:g} per second" if parts[1] == "per" else value


def value_conflict(older: Facts, newer: Facts) -> str | None:
    """The kind of value both state with no value in common ("port"; "1 hour" is
    "60 minutes"), or None."""
    old, new = by_dimension(older), by_dimension(newer)
    for key in sorted(old):
        if key in new and not {in_base_unit(v) for v in old[key]} & {
            in_base_unit(v) for v in new[key]
        }:
            return key
    return None


def value_change(old: Facts, new: Facts, cosine: float, bar: float, margin: float) -> str | None:
    """Why a differing value of one kind makes the newer a change ("port 8000 ->
    8080"); "" when the newer says again, with no change said, what the older
    called the former value; None when no value decides. A change said in words
    needs no `margin` over the `bar` ("was upgraded to 1.29")."""
    key = value_conflict(old, new)
    if not key:
        return None
    if not new.change and by_dimension(new)[key] <= old.former:
        return ""
    before, after = sorted(by_dimension(old)[key]), sorted(by_dimension(new)[key])
    said = 0.0 if new.change and not old.change else margin
    if cosine >= bar + said and same_frame(old, new):
        return f"{key} {', '.join(before)} -> {', '.join(after)}"
    if former_named(old, new, key) and cosine >= bar + margin:
        return f"{key} {', '.join(before)} -> {', '.join(after)}, naming it the former"
    return None


# Words before a number that say which one it is (ticket 4512), not how much.
_COUNTED = frozenset(
    "ticket issue pr job order invoice incident build run room step phase item case bug "
    "story epic page line table chapter section sprint batch node shard rack".split()
)


def number_swapped(old: Facts, new: Facts) -> tuple[str, str] | None:
    """The same words but for a number ("minimum SDK is 24" / "... is 26",
    "Apollo Server 3" / "is on Apollo Server 4"), no number naming which one."""
    if not old.numbers or not new.numbers or old.numbers & new.numbers:
        return None
    if plain_tokens(old) != plain_tokens(new) or not plain_tokens(old):
        return None
    for core in (old.core, new.core):
        before = re.findall(r"([A-Za-z]+)\s+\d", core)
        if "#" in core or any(stem(word.lower()) in _COUNTED for word in before):
            return None
    return ", ".join(sorted(old.numbers)), ", ".join(sorted(new.numbers))


def related_word(word: str, others: frozenset[str]) -> bool:
    """`word` or a longer or shorter form of it (approv, approval) is in `others`."""
    return any(
        other == word or (min(len(word), len(other)) >= 4 and (
            other.startswith(word) or word.startswith(other)))
        for other in others
    )  # fmt: skip


def former_named(old: Facts, new: Facts, key: str) -> bool:
    """The newer names the older's value as the one before ("celery goes from 2.0
    up to 2.9" after "celery pinned at 2.0"), and they share a plain word."""
    values = old.values.get(key, frozenset())
    return bool(values) and values <= new.former and bool(plain_tokens(old) & plain_tokens(new))


def plain_tokens(facts: Facts) -> frozenset[str]:
    """Content words but values and codes (and the parts of codes: us-east-1)."""
    coded = {part for t in facts.specific_values for part in re.split(r"[./\-:]+", t)}
    return facts.tokens - facts.specific_values - coded


def same_frame(old: Facts, new: Facts) -> bool:
    """A quarter of the shorter sentence's plain words (or a form of them:
    Postgres, PostgreSQL) are in the other (a value of the same thing, not the
    same unit of two unrelated things); fewer when the newer says that
    something changed ("RDS was upgraded to PostgreSQL 16"), two are: one alone is
    often the product both use ("Node 18" / "Node 20"), not the same thing."""
    left, right = plain_tokens(old), plain_tokens(new)
    shared = sum(1 for word in left if related_word(word, right))
    if new.change and not old.change and shared >= CHANGE_FRAME_WORDS:
        return True
    return shared >= SAME_FRAME_SHARE * max(1, min(len(left), len(right)))


def other_detail(old: Facts, new: Facts) -> bool:
    """Another number or code in the same words ("per pod is 20" / "lowered to 10")."""
    if not old.specific_values or not new.specific_values:
        return False
    if old.specific_values & new.specific_values:
        return False
    if measure_apart(old, new):
        return False  # "at 02:00" / "keeps 30 days": two attributes
    if named_apart(old, new):
        return False  # "the EU cluster ... eu-west-1" / "our US cluster ... us-east-2"
    kinds = {_numeric(v) for v in old.specific_values | new.specific_values}
    return len(kinds) == 1 and same_frame(old, new)  # 1.29 is no new eu-west-1


def measure_apart(old: Facts, new: Facts) -> bool:
    """The numbers each has and the other lacks measure different things ("at
    02:00" / "keeps 30 days"): two attributes, not a new value of one."""
    measured = _measuring(old, old.specific_values - new.specific_values)
    measures = _measuring(new, new.specific_values - old.specific_values)
    return bool(measured and measures and not measured & measures)


def _measuring(facts: Facts, values: frozenset[str]) -> set[str]:
    """What `values` (some of the facts' numbers) measure: "time", "duration", ..."""
    return {DIMENSIONS.get(key, key) for key, found in facts.values.items() if found & values}


def _numeric(value: str) -> bool:
    return bool(re.fullmatch(r"[\d.:%]+", value))


def named_apart(a: Facts, b: Facts) -> tuple[str, str] | None:
    """A name each says that the other does not (the Tokyo / Frankfurt replica,
    the EU / US cluster): two things, whatever the rest shares."""
    left = sorted(w for w in a.marked if not related_word(w, b.tokens))
    right = sorted(w for w in b.marked if not related_word(w, a.tokens))
    return (left[0], right[0]) if left and right else None
