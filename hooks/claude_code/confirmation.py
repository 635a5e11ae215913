"""A clear "yes" right after a hedged memory was shown confirms it.

The prompt hook records the activated (hedged) ids it showed to a session; on
that session's next prompt the record is consumed: an affirmative prompt
("yeah, still applies") confirms them (stability x2.5), anything else changes
nothing. Before the reply the record is only read (`previous`) and held in
memory (`note`); the state file is written after it (`settle`), and only when
needed. Standard library only.
"""

from __future__ import annotations

import json
import re
import time
from collections.abc import Mapping
from pathlib import Path
from typing import Any

AFFIRMATIVE = re.compile(
    r"^\W*(yes|yeah|yep|yup|ya|sure|correct|right|exactly|indeed|definitely|absolutely|"
    r"still (?:applies|true|holds|valid)|that(?:'s| is) (?:right|correct|still true)|"
    r"good call|confirmed?)\b",
    re.IGNORECASE,
)
NEGATION = re.compile(r"\b(no|nope|nah|not|doesn'?t|don'?t|isn'?t|wrong|outdated)\b", re.IGNORECASE)


def affirms(prompt: str) -> bool:
    head = prompt.strip()[:120]
    return bool(AFFIRMATIVE.match(head)) and not NEGATION.search(head)


def _state_path(root: Path) -> Path:
    return root / ".state" / "shown.json"


class Shown:
    """The hedged ids a session's previous prompt showed, as of `at` (time.time());
    `held`: this process answered that prompt and holds them in memory."""

    __slots__ = ("at", "held", "ids")

    def __init__(self, ids: list[str], at: float, held: bool) -> None:
        self.ids, self.at, self.held = ids, at, held


# (vault, session) -> the latest prompt this process answered for it: (at, hedged
# ids). The daemon answers a session's prompts in order but may write their state
# files in another order (a step yields to the next prompt), so what the next
# prompt takes comes from here; a restart forgets it and the file answers.
_answered: dict[tuple[str, str], tuple[float, list[str]]] = {}
_SESSIONS = 200


def previous(root: Path, session: str) -> Shown:
    """What `session`'s previous prompt showed hedged and nobody took yet: the
    newer of this process's memory and the state file (read only: no lock, no write)."""
    at, ids = _answered.get((str(root), session), (-1.0, []))
    held = Shown(ids, at, True)
    try:
        data: Any = json.loads(_state_path(root).read_text(encoding="utf-8"))
    except (FileNotFoundError, ValueError, UnicodeDecodeError):
        return held
    entry = data.get(session) if isinstance(data, dict) else None
    if entry is None or _shown_at(entry) <= at:
        return held
    return Shown(_ids(entry), _shown_at(entry), False)


def note(root: Path, session: str, ids: list[str]) -> float:
    """Hold `ids` as what `session`'s prompt showed hedged now (memory only, no
    write); the time it was noted, later than any before for the session."""
    key = (str(root), session)
    at = max(time.time(), _answered.pop(key, (0.0, []))[0] + 1e-6)
    _answered[key] = (at, ids)
    while len(_answered) > _SESSIONS:
        _answered.pop(next(iter(_answered)))
    return at


def settle(root: Path, session: str, before: Shown, ids: list[str], at: float) -> list[str]:
    """The state file after a prompt (a step after its reply): the session's entry
    becomes `ids` as of `at`, unless a later prompt's is there already. Returns the
    ids this prompt takes for confirmation: `before` when this process held them,
    else only if the file still has them, so two prompts never both take them."""
    from vault.state import JsonState

    taken: list[str] = before.ids if before.held else []

    def put(current: dict[str, Any]) -> None:
        entry = current.get(session)
        if not before.held and entry is not None and _shown_at(entry) == before.at:
            taken.extend(_ids(entry))
        if entry is not None and _shown_at(entry) > at:
            return  # a later prompt of the session wrote its own already
        current[session] = {"ids": ids, "at": at}
        while len(current) > 200:  # the oldest sessions' entries (the file's keys are sorted)
            current.pop(min(current, key=lambda s: _shown_at(current[s])))

    JsonState(_state_path(root)).update(put)
    return taken


def _ids(entry: object) -> list[str]:
    ids = entry.get("ids") if isinstance(entry, dict) else entry  # older versions: a list
    return [str(i) for i in ids] if isinstance(ids, list) else []


def _shown_at(entry: object) -> float:
    """When an entry was recorded (entries of older versions: never)."""
    at = entry.get("at") if isinstance(entry, dict) else None
    return float(at) if isinstance(at, int | float) else 0.0


def confirm(root: Path, ids: list[str], environ: Mapping[str, str]) -> None:
    from hooks.client import client

    for memory_id in ids:
        try:
            client.request(root, "confirm", {"id": memory_id, "now": environ.get("VAULT_NOW")}, 2.0)
        except client.DaemonError:
            continue  # purged or archived meanwhile
        except client.DaemonSlow:
            continue  # it took the request and will confirm: never a second time here
        except client.DaemonUnavailable:
            client.run_detached(root, ["confirm", memory_id], environ)
