"""A clear "yes" right after a hedged memory was shown confirms it.

The prompt hook records the activated (hedged) ids it showed to a session; on
that session's next prompt the record is consumed: an affirmative prompt
("yeah, still applies") confirms them (stability x2.5), anything else changes
nothing. Standard library only; the state file is touched only when needed.
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


def take_shown(root: Path, session: str) -> list[str]:
    """The ids shown hedged to `session` on its previous prompt (consumed). A
    quick look without the lock finds most prompts have none; what is returned
    is what was taken under the lock, so two prompts never both take it."""
    path = _state_path(root)
    try:
        data: Any = json.loads(path.read_text(encoding="utf-8"))
    except (FileNotFoundError, ValueError, UnicodeDecodeError):
        return []
    if not isinstance(data, dict) or session not in data:
        return []
    from vault.state import JsonState

    taken: list[object] = []
    JsonState(path).update(lambda current: taken.append(current.pop(session, None)))
    shown = taken[0] if taken else None
    if isinstance(shown, dict):
        shown = shown.get("ids")
    return [str(i) for i in shown] if isinstance(shown, list) else []


def _shown_at(entry: object) -> float:
    """When an entry was recorded (entries of older versions: never)."""
    at = entry.get("at") if isinstance(entry, dict) else None
    return float(at) if isinstance(at, int | float) else 0.0


def remember_shown(root: Path, session: str, ids: list[str]) -> None:
    from vault.state import JsonState

    def put(current: dict[str, Any]) -> None:
        current[session] = {"ids": ids, "at": time.time()}
        while len(current) > 200:  # the oldest sessions' entries (the file's keys are sorted)
            current.pop(min(current, key=lambda s: _shown_at(current[s])))

    JsonState(_state_path(root)).update(put)


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
