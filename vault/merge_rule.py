"""The merge rule for a memory's frontmatter when two machines changed one
memory: every field either side can change has a rule (below), and any other
field takes the side that changed it. What no rule can settle (a person
changed the same field two ways) is left out, for git to mark.

Rules: the later last_access, the larger stability, recalls and confirmations
summed from the common ancestor, confidence moved by both sides' steps, the
more consolidated tier, list fields (links, tags, the consolidation links,
damped_by) joined with a removal kept, salience damped once per newer memory,
and topic with its `filed` mark from one side (a person's filing wins).

Pure: frontmatter mappings in, field values out; the body and the fields left
out go to git's ordinary three-way merge (vault/merge_driver.py).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from datetime import datetime
from typing import Any

from vault.clock import parse_time
from vault.links import link_targets
from vault.schema import CONFIDENCE_RANGE, FILED_AUTO, LINK_FIELDS

TIER_ORDER = ("episodic", "semantic", "curated")  # later = more consolidated
LIST_FIELDS = ("links", "tags", *LINK_FIELDS)
FILING = ("topic", "filed")  # merged as a pair: a topic and who chose it
Meta = Mapping[str, Any]
_MISSING = object()


def merge_rule_fields(base: Meta | None, ours: Meta, theirs: Meta) -> dict[str, Any]:
    """The merged value of every field present on either side that can be settled.

    `base` is the common ancestor's frontmatter, or None when both sides added
    the file independently (then counters take the larger side, not the sum).
    """
    merged: dict[str, Any] = {}
    for key in dict.fromkeys([*ours, *theirs]):
        if key in FILING:
            continue
        value = _merge_key(key, base, ours, theirs)
        if value is not _MISSING:
            merged[key] = value
    merged.update(_filing(base or {}, ours, theirs))
    return merged


def _merge_key(key: str, base: Meta | None, ours: Meta, theirs: Meta) -> object:
    mine, other = ours.get(key, _MISSING), theirs.get(key, _MISSING)
    before = _MISSING if base is None else base.get(key, _MISSING)
    if other is _MISSING or mine is _MISSING:
        present = mine if other is _MISSING else other
        return present if before is _MISSING else _MISSING  # a removal is git's to merge
    if key == "salience":
        return _salience(base, ours, theirs)
    rule = _MERGERS.get(key)
    if rule is not None:
        return rule(None if before is _MISSING else before, mine, other)
    if mine == other or other == before:
        return mine
    return other if mine == before else _MISSING


def later(_: object, mine: object, other: object) -> object:
    mine_time, other_time = _time(mine), _time(other)
    if mine_time is None or other_time is None:
        return mine if other_time is None else other
    return mine if mine_time >= other_time else other


def _time(value: object) -> datetime | None:
    try:
        return parse_time(value)
    except (ValueError, TypeError):
        return None


def larger(_: object, mine: object, other: object) -> object:
    if not _is_number(other):
        return mine
    if not _is_number(mine):
        return other
    return mine if float(mine) >= float(other) else other  # type: ignore[arg-type]


def _summed(base: object, mine: object, other: object) -> object:
    """ours + theirs - base: each side's new events counted once."""
    if not (_is_number(mine) and _is_number(other)):
        return larger(base, mine, other)
    if not _is_number(base):
        return max(int(mine), int(other))  # type: ignore[call-overload]
    total = int(mine) + int(other) - int(base)  # type: ignore[call-overload]
    return max(total, 0)


def _stepped(base: object, mine: object, other: object) -> object:
    """Confidence: both sides' validation steps, within the validation range."""
    if not (_is_number(base) and _is_number(mine) and _is_number(other)):
        return larger(base, mine, other)
    moved = float(mine) + float(other) - float(base)  # type: ignore[arg-type]
    low, high = CONFIDENCE_RANGE
    return round(min(high, max(low, moved)), 3)


def _is_number(value: object) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def _joined(base: object, mine: object, other: object) -> object:
    """Both sides' items in order, without an item one side dropped since the ancestor."""
    mine_list, other_list = _as_list(mine), _as_list(other)
    if mine_list is None or other_list is None:
        return mine if other_list is None else other
    base_targets = set(link_targets(_as_list(base) or []))
    kept_mine = set(link_targets(mine_list))
    kept_other = set(link_targets(other_list))
    dropped = (base_targets - kept_mine) | (base_targets - kept_other)
    result: list[str] = []
    seen: set[str] = set()
    for link in [*mine_list, *other_list]:
        targets = link_targets([link])
        target = targets[0] if targets else str(link)
        if target in dropped or target in seen:
            continue
        seen.add(target)
        result.append(str(link))
    return result


def _as_list(value: object) -> list[str] | None:
    if value is None or value == "":
        return []
    if isinstance(value, list):
        return [str(item) for item in value if item is not None]
    return None


def more_consolidated(_: object, mine: object, other: object) -> object:
    if mine not in TIER_ORDER:
        return mine
    if other not in TIER_ORDER:
        return mine
    return mine if TIER_ORDER.index(str(mine)) >= TIER_ORDER.index(str(other)) else other


def _salience(base: Meta | None, ours: Meta, theirs: Meta) -> object:
    """Salience only falls after a memory is written, damped once per newer memory
    that updates it (listed in damped_by): ours times the damping only theirs did."""
    mine, other = ours.get("salience"), theirs.get("salience")
    before = None if base is None else base.get("salience")
    if not (_is_number(mine) and _is_number(other)):
        return mine if not _is_number(other) else other
    if not _is_number(before) or float(before) <= 0:  # type: ignore[arg-type]
        return min(float(mine), float(other))  # type: ignore[arg-type]
    if mine == before or other == before:
        return other if mine == before else mine
    previous = _targets(base, "damped_by")
    mine_new = _targets(ours, "damped_by") - previous
    other_new = _targets(theirs, "damped_by") - previous
    ratio = float(other) / float(before)  # type: ignore[arg-type]
    if other_new:  # each damping theirs did, once; those ours did too are in `mine`
        ratio **= len(other_new - mine_new) / len(other_new)
    return round(float(mine) * ratio, 4)  # type: ignore[arg-type]


def _targets(meta: Meta | None, key: str) -> set[str]:
    values = _as_list(None if meta is None else meta.get(key))
    return set(link_targets(values or []))


def _filing(base: Meta, ours: Meta, theirs: Meta) -> dict[str, Any]:
    """topic and filed from one side: the side that changed them; when both did,
    the one a person filed (filed not `auto`); two classifier choices: the first
    topic by name, so both machines pick the same. Two people: left to git."""
    present = [key for key in FILING if key in ours or key in theirs]
    if not present:
        return {}

    def pair(meta: Meta) -> tuple[str, str]:
        return (str(meta.get("topic") or ""), str(meta.get("filed") or ""))

    before, mine, other = pair(base), pair(ours), pair(theirs)
    if mine == other or other == before:
        chosen = mine
    elif mine == before:
        chosen = other
    elif (mine[1] == FILED_AUTO) != (other[1] == FILED_AUTO):
        chosen = other if mine[1] == FILED_AUTO else mine
    elif mine[1] == FILED_AUTO:
        chosen = min(mine, other)
    else:
        return {}
    values = dict(zip(FILING, chosen, strict=True))
    return {key: values[key] for key in present}


_MERGERS: dict[str, Callable[[object, object, object], object]] = {
    "last_access": later,
    "stability": larger,
    "recalls": _summed,
    "confirmations": _summed,
    "confidence": _stepped,
    "tier": more_consolidated,
    **dict.fromkeys(LIST_FIELDS, _joined),
}
