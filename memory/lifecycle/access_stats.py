"""Retrieval strengthening and the consolidation bonus as the service applies
them: the score factor of one memory at `now`, noting which memories appeared
in results (after the reply; never the memory file), and `vault access-stats`.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import asdict, dataclass
from datetime import UTC, datetime
from typing import Any

from memory.context import ServiceContext
from memory.lifecycle_factors import (
    appearance_factor,
    is_evergreen,
    path_salience,
    periodic_factor,
)
from vault.clock import format_time
from vault.periodic import LEVELS


def refresh_usage(service: ServiceContext) -> None:
    """Pick up new appearances and changed periodic notes (once per query)."""
    service.appearances.refresh()
    service.periodic_links.refresh()


def usage_factor(service: ServiceContext, memory_id: str, now: datetime) -> float:
    """(1 + retrieval boost) x (1 + consolidation bonus) for one memory at `now`,
    as of the last `refresh_usage`."""
    config = service.config
    seen = service.appearances.count(memory_id, now, config.appearance_window_days)
    levels = len(service.periodic_links.levels(memory_id))
    return appearance_factor(seen, config) * periodic_factor(levels, config)


def note_appearances(service: ServiceContext, memory_ids: Iterable[str]) -> None:
    """Count one appearance in results for each memory (once per call)."""
    config = service.config
    service.appearances.record(memory_ids, service.clock(), config.appearance_window_days)


@dataclass(frozen=True)
class AccessStats:
    id: str
    appearances_in_window: int
    appearances_total: int
    last_appearance: str  # "" when never
    retrieval_boost: float  # the added share: 0.15 means x1.15
    periodic_levels: tuple[str, ...]
    consolidation_bonus: float
    evergreen: bool
    salience: float  # frontmatter salience x the path patterns' factor

    def to_dict(self) -> dict[str, Any]:
        return {**asdict(self), "periodic_levels": list(self.periodic_levels)}


def access_stats(service: ServiceContext) -> list[AccessStats]:
    """Every active memory that appeared in results, is linked from a periodic note
    or is evergreen, with its figures; the largest combined boost first."""
    service.fresh()
    refresh_usage(service)
    now = service.clock()
    config = service.config
    linked = service.periodic_links.linked()
    appeared = set(service.appearances.ids())
    stats = []
    for row in service.index.rows(archived=False):
        evergreen = is_evergreen(row.path, row.kind, row.evergreen, config)
        if row.id not in appeared and row.id not in linked and not evergreen:
            continue
        window = service.appearances.count(row.id, now, config.appearance_window_days)
        total, last = service.appearances.summary(row.id)
        levels = tuple(level for level in LEVELS if level in linked.get(row.id, ()))
        stats.append(
            AccessStats(
                id=row.id,
                appearances_in_window=window,
                appearances_total=total,
                last_appearance=format_time(datetime.fromtimestamp(last, UTC)) if last else "",
                retrieval_boost=round(appearance_factor(window, config) - 1.0, 4),
                periodic_levels=levels,
                consolidation_bonus=round(periodic_factor(len(levels), config) - 1.0, 4),
                evergreen=evergreen,
                salience=path_salience(row.path, row.salience, config),
            )
        )
    stats.sort(key=lambda s: (-(s.retrieval_boost + s.consolidation_bonus), s.id))
    return stats
