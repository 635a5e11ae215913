"""Which memories a SessionStart briefing shows: what the session likely needs,
from the manifest alone (standard library only: no model, no file reads). The
current project's memories come first, strongest first, any above the retrieval
floor; then memories without a project and preferences from anywhere, only
while they are strong (ELSEWHERE_BAR). The count follows from that (at most
`limit`); the characters are capped by the caller.
"""

from __future__ import annotations

from datetime import datetime
from pathlib import Path
from typing import NamedTuple

from indexer.catalog_reader import bodies, briefing_candidates, catalog_path
from memory.config import MemoryConfig
from memory.decay import days_between
from memory.lifecycle_factors import lifecycle_strength
from vault.clock import parse_time

MAX_ITEMS = 12  # a ceiling: a project with fewer memories worth briefing gets fewer
ELSEWHERE_BAR = 0.5  # strength a memory from outside the current project needs


class Briefed(NamedTuple):
    score: float  # strength, boosted for the current project
    id: str
    tier: str
    text: str  # on one line
    age_days: float


def strongest(
    root: Path, now: datetime, config: MemoryConfig, project: str | None, limit: int = MAX_ITEMS
) -> list[Briefed]:
    """The memories the session likely needs, the current project's first (at most
    `limit`). Strength is computed for every candidate from the manifest's
    fields; only the text of those shown is read."""
    mine: list[tuple[float, str, str, float]] = []
    elsewhere: list[tuple[float, str, str, float]] = []
    catalog = catalog_path(root)
    for row in briefing_candidates(catalog, project):
        own = row.project == project if project else not row.project
        current = lifecycle_strength(row, now, config, parse_time(row.last_access))
        if current < (
            config.retrieval_floor if own else max(config.retrieval_floor, ELSEWHERE_BAR)
        ):
            continue
        age = days_between(parse_time(row.created), now)
        (mine if own else elsewhere).append((current, row.id, row.tier, age))
    ranked = sorted(mine, reverse=True) + sorted(elsewhere, reverse=True)
    shown: list[Briefed] = []
    while ranked and len(shown) < limit:  # a row without text (none expected) is passed over
        batch, ranked = ranked[: limit - len(shown)], ranked[limit - len(shown) :]
        texts = bodies(catalog, [memory_id for _, memory_id, _, _ in batch])
        shown += [
            Briefed(score, memory_id, tier, " ".join(texts[memory_id].split()), age)
            for score, memory_id, tier, age in batch
            if memory_id in texts
        ]
    return shown
