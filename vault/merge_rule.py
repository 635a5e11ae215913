"""The merge rule for the fields recall and reinforcement write, when two
machines changed one memory: the later last_access, the larger stability,
recalls and confirmations summed from the common ancestor, links as a union
(a link one side removed stays removed), the more consolidated tier.

Pure: frontmatter mappings in, field values out. Every other field and the
body are left to git's ordinary three-way merge (vault/merge_driver.py).
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import datetime
from typing import Any

from vault.clock import parse_time
from vault.links import link_targets

RULE_FIELDS = ("last_access", "stability", "recalls", "confirmations", "links", "tier")
TIER_ORDER = ("episodic", "semantic", "curated")  # later = more consolidated
Meta = Mapping[str, Any]


def merge_rule_fields(base: Meta | None, ours: Meta, theirs: Meta) -> dict[str, Any]:
    """The merged value of each rule field present on either side.

    `base` is the common ancestor's frontmatter, or None when both sides added
    the file independently (then counters take the larger side, not the sum).
    """
    merged: dict[str, Any] = {}
    for key in RULE_FIELDS:
        if key not in ours and key not in theirs:
            continue
        mine, other = ours.get(key), theirs.get(key)
        if key not in theirs:
            merged[key] = mine
        elif key not in ours:
            merged[key] = other
        else:
            merged[key] = _MERGERS[key](None if base is None else base.get(key), mine, other)
    return merged


def _later(_: object, mine: object, other: object) -> object:
    mine_time, other_time = _time(mine), _time(other)
    if mine_time is None or other_time is None:
        return mine if other_time is None else other
    return mine if mine_time >= other_time else other


def _time(value: object) -> datetime | None:
    try:
        return parse_time(value)
    except (ValueError, TypeError):
        return None


def _larger(_: object, mine: object, other: object) -> object:
    if not _is_number(other):
        return mine
    if not _is_number(mine):
        return other
    return mine if float(mine) >= float(other) else other  # type: ignore[arg-type]


def _summed(base: object, mine: object, other: object) -> object:
    """ours + theirs - base: each side's new events counted once."""
    if not (_is_number(mine) and _is_number(other)):
        return _larger(base, mine, other)
    if not _is_number(base):
        return max(int(mine), int(other))  # type: ignore[call-overload]
    total = int(mine) + int(other) - int(base)  # type: ignore[call-overload]
    return max(total, 0)


def _is_number(value: object) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def _links(base: object, mine: object, other: object) -> object:
    """Both sides' links in order, without a link one side dropped since the ancestor."""
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


def _more_consolidated(_: object, mine: object, other: object) -> object:
    if mine not in TIER_ORDER:
        return mine
    if other not in TIER_ORDER:
        return mine
    return mine if TIER_ORDER.index(str(mine)) >= TIER_ORDER.index(str(other)) else other


_MERGERS = {
    "last_access": _later,
    "stability": _larger,
    "recalls": _summed,
    "confirmations": _summed,
    "links": _links,
    "tier": _more_consolidated,
}
