"""Periodic notes: periodic/weekly/2027-W05.md (ISO weeks), monthly/2027-01.md,
quarterly/2027-Q1.md and yearly/2027.md, the names Obsidian's periodic-notes
plugin uses. Owns a period's name, dates and level below, and the files' reading,
atomic writing and appending (under one lock). Says nothing about their contents.
"""

from __future__ import annotations

import calendar
import re
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import date, datetime, timedelta
from pathlib import Path

from vault.atomic import atomic_write, file_lock
from vault.errors import VaultError
from vault.layout import Vault
from vault.note_blocks import split_source

LEVELS = ("weekly", "monthly", "quarterly", "yearly")
BELOW = {"weekly": "daily", "monthly": "weekly", "quarterly": "monthly", "yearly": "quarterly"}
_KEY = {
    "daily": re.compile(r"^(\d{4})-(\d{2})-(\d{2})$"),
    "weekly": re.compile(r"^(\d{4})-W(\d{2})$"),
    "monthly": re.compile(r"^(\d{4})-(\d{2})$"),
    "quarterly": re.compile(r"^(\d{4})-Q([1-4])$"),
    "yearly": re.compile(r"^(\d{4})$"),
}


@dataclass(frozen=True, order=True)
class Period:
    """One day, week, month, quarter or year: `start` and `end` are inclusive."""

    start: date
    end: date
    level: str
    key: str

    @property
    def title(self) -> str:
        if self.level == "weekly":
            return f"{self.key} (week of {self.start:%Y-%m-%d} to {self.end:%Y-%m-%d})"
        if self.level == "monthly":
            return f"{self.key} ({self.start:%B %Y})"
        if self.level == "quarterly":
            return f"{self.key} ({self.start:%B} to {self.end:%B %Y})"
        return self.key

    def contains(self, day: date) -> bool:
        return self.start <= day <= self.end

    def children(self) -> list[Period]:
        """The periods of the level below that make this one. A week belongs to the
        month of its Thursday (the ISO rule for years), so no week counts twice."""
        if self.level == "daily":
            return []
        below = BELOW[self.level]
        if self.level == "monthly":
            first = self.start - timedelta(days=self.start.weekday())  # its Monday
            weeks = (containing("weekly", first + timedelta(weeks=n)) for n in range(6))
            return [w for w in weeks if self.contains(w.start + timedelta(days=3))]
        found: list[Period] = []
        day = self.start
        while day <= self.end:
            child = containing(below, day)
            found.append(child)
            day = child.end + timedelta(days=1)
        return found


def containing(level: str, day: date | datetime) -> Period:
    """The period of `level` that holds `day` (a datetime counts by its date)."""
    day = day.date() if isinstance(day, datetime) else day
    if level == "daily":
        return Period(day, day, level, f"{day:%Y-%m-%d}")
    if level == "weekly":
        year, week, weekday = day.isocalendar()
        start = day - timedelta(days=weekday - 1)
        return Period(start, start + timedelta(days=6), level, f"{year}-W{week:02d}")
    if level == "monthly":
        last = calendar.monthrange(day.year, day.month)[1]
        return Period(day.replace(day=1), day.replace(day=last), level, f"{day:%Y-%m}")
    if level == "quarterly":
        quarter = (day.month - 1) // 3 + 1
        start = date(day.year, 3 * quarter - 2, 1)
        end_month = 3 * quarter
        end = date(day.year, end_month, calendar.monthrange(day.year, end_month)[1])
        return Period(start, end, level, f"{day.year}-Q{quarter}")
    if level == "yearly":
        return Period(date(day.year, 1, 1), date(day.year, 12, 31), level, str(day.year))
    raise VaultError(f"unknown period level {level!r}; use one of {', '.join(LEVELS)}")


def parse_period(level: str, key: str) -> Period:
    """The period named `key` (2027-W05, 2027-01, 2027-Q1, 2027 or 2027-01-25)."""
    pattern = _KEY.get(level)
    match = pattern.match(key.strip()) if pattern else None
    if match is None:
        raise VaultError(f"{key!r} is not a {level} period name (e.g. {_example(level)})")
    numbers = [int(part) for part in match.groups()]
    try:
        if level == "weekly":
            return containing(level, date.fromisocalendar(numbers[0], numbers[1], 1))
        if level == "quarterly":
            return containing(level, date(numbers[0], 3 * numbers[1] - 2, 1))
        numbers += [1] * (3 - len(numbers))
        return containing(level, date(numbers[0], numbers[1], numbers[2]))
    except ValueError as exc:
        raise VaultError(f"{key!r} is not a {level} period ({exc})") from None


def _example(level: str) -> str:
    return {"daily": "2027-01-25", "weekly": "2027-W05", "monthly": "2027-01",
            "quarterly": "2027-Q1", "yearly": "2027"}.get(level, "?")  # fmt: skip


def note_path(vault: Vault, period: Period) -> Path:
    return vault.note_dir(period.level) / f"{period.key}.md"


def read_note(vault: Vault, period: Period) -> str | None:
    try:
        return note_path(vault, period).read_text(encoding="utf-8", errors="replace")
    except FileNotFoundError:
        return None


def _lock(vault: Vault) -> Path:
    return vault.index_dir / "locks" / "periodic.lock"


def write_note(vault: Vault, period: Period, text: str) -> Path:
    """Replace the note atomically (under the periodic-notes lock)."""
    path = note_path(vault, period)
    with file_lock(_lock(vault)):
        atomic_write(path, text.encode("utf-8"))
    return path


def create_note(vault: Vault, period: Period, template: str) -> tuple[Path, bool]:
    """Write `template` unless the note exists; True when it was created now."""
    path = note_path(vault, period)
    with file_lock(_lock(vault)):
        if path.exists():
            return path, False
        atomic_write(path, template.encode("utf-8"))
    return path, True


def append_to_note(vault: Vault, period: Period, entry: str, template: str) -> Path:
    """Add `entry` as its own line at the end of the note's hand-written part, just
    above the raw source (which synthesis rewrites); a missing note is created
    from `template` first."""
    path = note_path(vault, period)
    with file_lock(_lock(vault)):
        text = path.read_text(encoding="utf-8") if path.exists() else template
        head, source = split_source(text)
        head = head.rstrip("\n") + "\n" if head.strip() else ""
        ending = "" if source else "\n"
        atomic_write(path, (head + entry.strip("\n") + ending + source).encode("utf-8"))
    return path


def list_notes(vault: Vault, level: str) -> list[Period]:
    """The notes of `level` on disk, oldest first (names that are not periods are skipped)."""
    return sorted(_periods_in(vault.note_dir(level), level))


def _periods_in(folder: Path, level: str) -> Iterator[Period]:
    if not folder.is_dir():
        return
    for path in folder.glob("*.md"):
        try:
            yield parse_period(level, path.stem)
        except VaultError:
            continue
