"""daily/YYYY-MM-DD.md session logs: appended under a lock, written atomically."""

from __future__ import annotations

from datetime import datetime

from vault.atomic import atomic_write, file_lock
from vault.layout import Vault


def append_daily(vault: Vault, moment: datetime, entry: str) -> None:
    path = vault.daily_dir / f"{moment:%Y-%m-%d}.md"
    with file_lock(vault.index_dir / "locks" / "daily.lock"):
        existing = path.read_text(encoding="utf-8") if path.exists() else f"# {moment:%Y-%m-%d}\n"
        if not existing.endswith("\n"):
            existing += "\n"
        atomic_write(path, (existing + "\n" + entry.rstrip() + "\n").encode("utf-8"))


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
