"""The SessionStart briefing: the strongest memories plus the recent daily log.

Standard library only: strengths come from the manifest (no model, no file
reads). Eligible are memories of the current project (boosted x1.3), memories
without a project, and preferences from anywhere.
"""

from __future__ import annotations

import sqlite3
from datetime import datetime
from pathlib import Path

from memory.config import MemoryConfig
from memory.decay import days_between, strength
from vault.clock import parse_time

_ROWS = """
SELECT m.id, m.tier, m.kind, m.project, m.created, m.last_access, m.stability, fts.body
FROM memories AS m JOIN fts ON fts.memory_id = m.id
WHERE m.archived = 0
"""
MAX_ITEMS = 8


def strongest(
    catalog: Path, now: datetime, config: MemoryConfig, project: str | None
) -> list[tuple[float, str, str, str, float]]:
    """(score, id, tier, text, age_days) of eligible memories, best first."""
    if not catalog.exists():
        return []
    db = sqlite3.connect(f"file:{catalog}?mode=ro", uri=True, timeout=1.0)
    try:
        rows = db.execute(_ROWS).fetchall()
    finally:
        db.close()
    ranked = []
    for memory_id, tier, kind, row_project, created, last_access, stability, body in rows:
        mine = bool(project) and row_project == project
        if row_project and not mine and kind != "preference":
            continue
        current = strength(
            days_between(parse_time(last_access), now), stability or config.base_stability(tier)
        )
        if current < config.retrieval_floor:
            continue
        score = current * (config.project_boost if mine else 1.0)
        age = days_between(parse_time(created), now)
        ranked.append((score, memory_id, tier, " ".join(str(body).split()), age))
    ranked.sort(reverse=True)
    return ranked[:MAX_ITEMS]
