"""`.state/hooks.log`: what the hooks could not do, kept small. Entries are
appended under a lock and the file rotates at MAX_BYTES (hooks.log.1 ...
hooks.log.BACKUPS), like the daemon's log. `note_once` writes a notice the
first time only (an over-long path, say), so a flood of events adds one line.
"""

from __future__ import annotations

import datetime
import os
from pathlib import Path

from vault.atomic import file_lock
from vault.state import JsonState

MAX_BYTES = 1_000_000
BACKUPS = 3


def _now() -> str:
    return datetime.datetime.now(datetime.UTC).isoformat(timespec="seconds")


def append(root: Path | str, text: str) -> None:
    """Add a stamped entry to hooks.log, rotating it first when it is full."""
    state = Path(root) / ".state"
    if not state.is_dir():
        return
    path = state / "hooks.log"
    entry = f"{_now()} {text.rstrip()}\n".encode("utf-8", "replace")[:MAX_BYTES]
    with file_lock(state / "locks" / "hooks-log.lock"):
        try:
            size = path.stat().st_size
        except FileNotFoundError:
            size = 0
        if size + len(entry) > MAX_BYTES:
            _rotate(path)
        with open(path, "ab") as handle:
            handle.write(entry)


def _rotate(path: Path) -> None:
    for number in range(BACKUPS - 1, 0, -1):
        older = path.with_name(f"{path.name}.{number}")
        if older.exists():
            os.replace(older, path.with_name(f"{path.name}.{number + 1}"))
    os.replace(path, path.with_name(f"{path.name}.1"))


def note_once(root: Path | str, key: str, text: str) -> None:
    """Log `text` unless a note under `key` was logged before (.state/notices.json)."""
    state = Path(root) / ".state"
    if not state.is_dir():
        return
    notices = JsonState(state / "notices.json")
    if key in notices.read():
        return
    first: list[bool] = []

    def mark(data: dict[str, object]) -> None:
        first.append(key not in data)
        data.setdefault(key, _now())

    notices.update(mark)
    if first[0]:
        append(root, f"{text} (logged once; later ones are not)")
