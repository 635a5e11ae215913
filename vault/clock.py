"""Time: the injectable clock, the one timestamp format of the vault, and how
an age reads to a person.

Timestamps are aware UTC datetimes in memory and `YYYY-MM-DDTHH:MM:SSZ` on disk.
This module never reads the environment; callers pass `VAULT_NOW` in.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, date, datetime
from functools import lru_cache

Clock = Callable[[], datetime]


def utc_now() -> datetime:
    return datetime.now(UTC).replace(microsecond=0)


def parse_time(value: object) -> datetime:
    """Parse a frontmatter or command-line timestamp into an aware UTC datetime.

    Accepts datetimes (naive ones are taken as UTC), dates, and ISO 8601 strings
    with or without a `Z`/offset. Raises ValueError on anything else.
    """
    if isinstance(value, str):
        return _parse_text(value)
    if isinstance(value, datetime):
        return _as_utc(value)
    if isinstance(value, date):
        return _as_utc(datetime(value.year, value.month, value.day))
    raise ValueError(f"not a timestamp: {value!r}")


@lru_cache(maxsize=8192)  # ranking parses the same manifest timestamps on every query
def _parse_text(value: str) -> datetime:
    text = value.strip()
    if text.endswith(("Z", "z")):
        text = text[:-1] + "+00:00"
    return _as_utc(datetime.fromisoformat(text))


def _as_utc(moment: datetime) -> datetime:
    """Naive times are taken as UTC."""
    return (moment if moment.tzinfo else moment.replace(tzinfo=UTC)).astimezone(UTC)


def format_time(moment: datetime) -> str:
    return parse_time(moment).strftime("%Y-%m-%dT%H:%M:%SZ")


def fixed_clock(moment: datetime) -> Clock:
    """A clock that always answers `moment` (for `--now` and `VAULT_NOW`)."""
    frozen = parse_time(moment)
    return lambda: frozen


def describe_age(days: float) -> str:
    """An age in words, the same in the terminal and in Claude's context:
    today, a day ago, 12 days ago, 5 months ago, 2.1 years ago."""
    if days < 1:
        return "today"
    if days < 1.5:
        return "a day ago"
    if days < 60:
        return f"{days:.0f} days ago"
    if days < 730:
        return f"{days / 30.4:.0f} months ago"
    return f"{days / 365:.1f} years ago"
