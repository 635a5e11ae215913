"""What the SessionStart briefing adds to the strongest memories and the daily
log, each behind a setting: this week's and month's periodic notes (a share of
the cap), and CCL compression of the memories' texts so that more of them fit
under the same cap. Standard library only, like the rest of the hook.
"""

from __future__ import annotations

from datetime import datetime

from hooks.claude_code.context_text import briefing_text
from memory.config import MemoryConfig
from memory.notes.briefing import Briefed, strongest
from memory.notes.ccl import encode, load_dictionary
from memory.notes.recent import periodic_load
from vault.config import Settings
from vault.daily import recent_daily
from vault.layout import Vault

LEGEND_SYMBOLS = ("&", "w/", "->", "[!]")


def session_briefing(
    vault: Vault, now: datetime, settings: Settings, project: str | None, limit: int
) -> str:
    """The whole SessionStart text within `limit`: the strongest memories, this
    week's and month's notes, the recent daily log."""
    tier = int(settings.briefing_ccl_tier)
    config = MemoryConfig.from_settings(settings)
    items = strongest(vault.root, now, config, project, candidates(tier, settings))
    periodic = periodic_part(vault, now, limit, float(settings.briefing_periodic_share))
    daily = recent_daily(vault, now, limit // (4 if periodic else 3))
    room = limit - len(periodic) - len(daily) - 80  # the section titles
    items, legend = compressed(items, tier, room)
    return briefing_text(items, daily, limit, periodic=periodic, legend=legend)


def periodic_part(vault: Vault, now: datetime, limit: int, share: float) -> str:
    """The week's and month's notes in at most `share` of `limit` characters."""
    room = int(limit * max(0.0, min(share, 1.0)))
    return periodic_load(vault, now, room) if room >= 80 else ""


def candidates(tier: int, settings: Settings) -> int:
    """How many memories to rank: compressed ones may let twice as many in."""
    most = int(settings.briefing_max_memories)
    return most * 2 if tier else most


def compressed(items: list[Briefed], tier: int, room: int) -> tuple[list[Briefed], str]:
    """The memories in CCL at `tier`, as many as fit in `room` characters, and
    the legend line that says so (tier 0: plain, no legend)."""
    if not tier:
        return fitting(items, room), ""
    shorter = [item._replace(text=encode(item.text, tier)) for item in items]
    legend = legend_text(tier)
    for count in range(len(shorter), 0, -1):
        if len(briefing_text(shorter[:count], "", 10**6, legend=legend)) <= room:
            return shorter[:count], legend
    return [], legend


def fitting(items: list[Briefed], room: int) -> list[Briefed]:
    """As many of `items` (best first) as fit in `room`, uncompressed."""
    for count in range(len(items), 0, -1):
        if len(briefing_text(items[:count], "", 10**6)) <= room:
            return items[:count]
    return []


def legend_text(tier: int) -> str:
    book = load_dictionary()
    expansions = book.expansions
    shown = " ".join(f"{s}={expansions[s]}" for s in LEGEND_SYMBOLS if s in expansions)
    return f"(CCL v{book.version} T{tier}: {shown}; small words dropped)"
