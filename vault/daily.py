"""daily/YYYY-MM-DD.md session logs. A new day's file is written atomically; an
entry is appended (O_APPEND, fsynced) under a lock, never by rewriting the whole
file, so an editor's change saved meanwhile is never dropped."""

from __future__ import annotations

import os
from datetime import date, datetime
from pathlib import Path

from vault.atomic import atomic_write, file_lock
from vault.layout import Vault


def daily_path(vault: Vault, day: date) -> Path:
    return vault.daily_dir / f"{day:%Y-%m-%d}.md"


def read_daily(vault: Vault, day: date) -> str | None:
    try:
        return daily_path(vault, day).read_text(encoding="utf-8", errors="replace")
    except FileNotFoundError:
        return None


def init_daily(vault: Vault, day: date) -> tuple[Path, bool]:
    """Create the day's log with its heading unless it exists; True when created now."""
    path = daily_path(vault, day)
    with file_lock(vault.index_dir / "locks" / "daily.lock"):
        if path.exists():
            return path, False
        atomic_write(path, f"# {day:%Y-%m-%d}\n".encode())
    return path, True


def append_daily(vault: Vault, moment: datetime, entry: str) -> None:
    path = daily_path(vault, moment.date())
    with file_lock(vault.index_dir / "locks" / "daily.lock"):
        if not path.exists():
            atomic_write(path, f"# {moment:%Y-%m-%d}\n".encode())
        fd = os.open(path, os.O_RDWR | os.O_APPEND | os.O_CLOEXEC)
        try:
            size = os.fstat(fd).st_size
            ends_in_newline = size == 0 or os.pread(fd, 1, size - 1) == b"\n"
            text = ("" if ends_in_newline else "\n") + "\n" + entry.rstrip() + "\n"
            data = text.encode("utf-8")
            while data:
                data = data[os.write(fd, data) :]
            os.fsync(fd)
        finally:
            os.close(fd)


def recent_daily(vault: Vault, moment: datetime, max_chars: int) -> str:
    """The tail of the newest daily logs up to `moment`, at most `max_chars`."""
    if not vault.daily_dir.is_dir():
        return ""
    names = sorted(p.name for p in vault.daily_dir.glob("*.md") if p.stem <= f"{moment:%Y-%m-%d}")
    text = ""
    for name in reversed(names[-3:]):
        part = (vault.daily_dir / name).read_text(encoding="utf-8", errors="replace").strip()
        text = part + ("\n\n" + text if text else "")
        if len(text) >= max_chars:
            break
    return text[-max_chars:] if len(text) > max_chars else text
