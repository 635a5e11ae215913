"""Which memories a SessionStart briefing shows: the strongest now, from the
manifest alone (standard library only: no model, no file reads). Eligible are
the current project's memories (boosted x1.3), those without a project, and
preferences from anywhere; none under the retrieval floor.
"""

from __future__ import annotations

from datetime import datetime
from pathlib import Path
from typing import NamedTuple

from indexer.catalog_reader import active_memories, catalog_path
from memory.config import MemoryConfig
from memory.decay import days_between
from memory.lifecycle_factors import lifecycle_strength
from vault.clock import parse_time

MAX_ITEMS = 8


class Briefed(NamedTuple):
    score: float  # strength, boosted for the current project
    id: str
    tier: str
    text: str  # on one line
    age_days: float


def strongest(
    root: Path, now: datetime, config: MemoryConfig, project: str | None, limit: int = MAX_ITEMS
) -> list[Briefed]:
    """The eligible memories, best first (at most `limit`)."""
    ranked = []
    for row in active_memories(catalog_path(root)):
        mine = bool(project) and row.project == project
        if row.project and not mine and row.kind != "preference":
            continue
        current = lifecycle_strength(row, now, config, parse_time(row.last_access))
        if current < config.retrieval_floor:
            continue
        score = current * (config.project_boost if mine else 1.0)
        age = days_between(parse_time(row.created), now)
        ranked.append(Briefed(score, row.id, row.tier, " ".join(str(row.body).split()), age))
    ranked.sort(reverse=True)
    return ranked[:limit]
