"""The bound on what an automatic run retires, and the review list of what it
(or capture, for a change it was not confident about) left for a person
(.state/consolidation-review.json): `vault consolidate
--review` applies or drops each entry; the next SessionStart briefing mentions
new entries once. Light on imports (the briefing hook reads it); it applies
nothing itself (run.py does, as a journaled run).
"""

from __future__ import annotations

import math
from typing import Any

from vault.layout import Vault
from vault.state import JsonState

REVIEW_FILE = "consolidation-review.json"


def retire_bound(limit: int, share: float, active: int) -> int:
    """How many memories one automatic run may retire: `limit`, and never more
    than `share` of the active memories (at least one)."""
    return max(1, min(limit, math.floor(share * active)))


def retires(action: dict[str, Any]) -> int:
    """Memories an action moves to archive/ (a supersede one, a merge its sources)."""
    if action["action"] == "supersede":
        return 1
    if action["action"] == "merge":
        return len(action["sources"])
    return 0


def within_bound(
    actions: list[dict[str, Any]], bound: int
) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """(applied now, left for review): actions in plan order while what they retire
    stays within `bound`; the rest wait. Actions that retire nothing always go."""
    now, later, used = [], [], 0
    for action in actions:
        cost = retires(action)
        if cost and used + cost > bound:
            later.append(action)
            continue
        used += cost
        now.append(action)
    return now, later


def _state(vault: Vault) -> JsonState:
    return JsonState(vault.state_dir / REVIEW_FILE)


def _entries(data: dict[str, Any]) -> list[dict[str, Any]]:
    found = data.get("pending")
    return [e for e in found if isinstance(e, dict)] if isinstance(found, list) else []


def defer(vault: Vault, actions: list[dict[str, Any]], run: str, when: str) -> None:
    """Put actions an automatic run left on the review list (unmentioned yet)."""
    if not actions:
        return

    def add(data: dict[str, Any]) -> None:
        known = {_key(e["action"]) for e in _entries(data)}
        fresh = [a for a in actions if _key(a) not in known]
        entries = [{"action": a, "run": run, "queued": when, "mentioned": False} for a in fresh]
        data["pending"] = _entries(data) + entries

    _state(vault).update(add)


def _key(action: dict[str, Any]) -> str:
    if action["action"] == "supersede":
        return f"supersede {action['older']} {action['newer']}"
    return f"{action['action']} {' '.join(action.get('sources', []))}"


def pending(vault: Vault) -> list[dict[str, Any]]:
    return _entries(_state(vault).read())


def take(vault: Vault, picks: list[int] | None) -> list[dict[str, Any]]:
    """Remove entries (1-based numbers as `pending` lists them; None: all) from
    the list; returns their actions."""
    taken: list[dict[str, Any]] = []

    def remove(data: dict[str, Any]) -> None:
        entries = _entries(data)
        chosen = set(range(1, len(entries) + 1)) if picks is None else set(picks)
        taken.extend(e["action"] for n, e in enumerate(entries, 1) if n in chosen)
        data["pending"] = [e for n, e in enumerate(entries, 1) if n not in chosen]

    _state(vault).update(remove)
    return taken


def notice_once(vault: Vault) -> str:
    """One line for the SessionStart briefing when an automatic run left actions
    for review since the last briefing ("" otherwise); marks them mentioned."""
    path = vault.state_dir / REVIEW_FILE
    if not path.exists():
        return ""
    fresh = [e for e in pending(vault) if not e.get("mentioned")]
    if not fresh:
        return ""

    def mark(data: dict[str, Any]) -> None:
        for entry in _entries(data):
            entry["mentioned"] = True

    _state(vault).update(mark)
    total = len(pending(vault))
    return (
        f"Memory upkeep: automatic consolidation and capture left {total} change(s) for review "
        "(they retire few memories on their own); `vault consolidate --review` "
        "applies or drops each."
    )
