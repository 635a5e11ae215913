"""Reading the recent daily logs and periodic notes: today's and yesterday's
logs, the newest note of each level, the week's and month's notes for a
session briefing (within a cap), and which memories the notes link (what a
consolidation bonus counts). Files only: cheap enough for the SessionStart hook.
"""

from __future__ import annotations

from datetime import datetime, timedelta

from vault import periodic
from vault.daily import read_daily
from vault.layout import Vault
from vault.links import link_targets
from vault.note_blocks import readable, split_source
from vault.periodic import LEVELS, Period


def daily_load(vault: Vault, now: datetime) -> list[dict[str, str]]:
    """Today's and yesterday's logs (the ones that exist), oldest first."""
    days = (now.date() - timedelta(days=1), now.date())
    return [
        {"date": f"{day:%Y-%m-%d}", "text": text}
        for day in days
        if (text := read_daily(vault, day)) is not None
    ]


def latest_notes(vault: Vault, now: datetime, levels: tuple[str, ...]) -> list[tuple[Period, str]]:
    """For each level, the note of the current period, or the newest before it
    (on a Monday this week's note is still empty: last week's says more)."""
    found = []
    for level in levels:
        current = periodic.containing(level, now)
        notes = [p for p in periodic.list_notes(vault, level) if p.start <= current.start]
        if notes:
            text = periodic.read_note(vault, notes[-1])
            if text is not None:
                found.append((notes[-1], text))
    return found


def periodic_load(vault: Vault, now: datetime, max_chars: int) -> str:
    """The week's and month's notes without their raw source, for a briefing,
    within `max_chars` (the week first: it is the more specific)."""
    parts = []
    for _, text in latest_notes(vault, now, ("weekly", "monthly")):
        body = readable(text)
        if body:
            parts.append(body)
    joined = "\n\n".join(parts)
    return joined if len(joined) <= max_chars else joined[: max(0, max_chars - 1)] + "…"


def linked_from_notes(vault: Vault) -> dict[str, list[str]]:
    """memory id -> the levels whose notes link it above their raw source (the
    synthesized and hand-written parts). One read of each note: cheap."""
    found: dict[str, list[str]] = {}
    for level in LEVELS:
        for period in periodic.list_notes(vault, level):
            head, _ = split_source(periodic.read_note(vault, period) or "")
            for memory_id in link_targets([head]) if "[[" in head else []:
                levels = found.setdefault(memory_id, [])
                if level not in levels:
                    levels.append(level)
    return found
