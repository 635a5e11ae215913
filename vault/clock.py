"""Time: the injectable clock and the one timestamp format of the vault.

Timestamps are aware UTC datetimes in memory and `YYYY-MM-DDTHH:MM:SSZ` on disk.
This module never reads the environment; callers pass `VAULT_NOW` in.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, date, datetime

Clock = Callable[[], datetime]


def utc_now() -> datetime:
    return datetime.now(UTC).replace(microsecond=0)


def parse_time(value: object) -> datetime:
    """Parse a frontmatter or command-line timestamp into an aware UTC datetime.

    Accepts datetimes (naive ones are taken as UTC), dates, and ISO 8601 strings
    with or without a `Z`/offset. Raises ValueError on anything else.
    """
    if isinstance(value, datetime):
        parsed = value
    elif isinstance(value, date):
        parsed = datetime(value.year, value.month, value.day)
    elif isinstance(value, str):
        text = value.strip()
        if text.endswith(("Z", "z")):
            text = text[:-1] + "+00:00"
        parsed = datetime.fromisoformat(text)
    else:
        raise ValueError(f"not a timestamp: {value!r}")
    if parsed.tzinfo is None:
        parsed = parsed.replace(tzinfo=UTC)
    return parsed.astimezone(UTC)


def format_time(moment: datetime) -> str:
    return parse_time(moment).strftime("%Y-%m-%dT%H:%M:%SZ")


def fixed_clock(moment: datetime) -> Clock:
    """A clock that always answers `moment` (for `--now` and `VAULT_NOW`)."""
    frozen = parse_time(moment)
    return lambda: frozen
