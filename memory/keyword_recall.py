"""Recall without the model: FTS5 keywords plus strengths from the manifest.

Used by a hook when no daemon answers, so a prompt never waits for a model to
load. Standard library only (sqlite3), read-only, never reinforces. Keyword
relevance (BM25, normalised the same way as in hybrid search) stands in for
similarity, and the same tier rules apply.
"""

from __future__ import annotations

import sqlite3
from datetime import datetime
from pathlib import Path
from typing import Any

from indexer.fusion import normalise_bm25
from indexer.keywords import or_terms, query_terms
from memory.config import MemoryConfig
from memory.decay import days_between, strength
from memory.recall_tiers import classify, score
from vault.clock import parse_time

_SQL = """
SELECT m.id, m.tier, m.kind, m.project, m.created, m.last_access, m.stability,
       bm25(fts, 1.0, 0.5) AS relevance, fts.body
FROM fts JOIN memories AS m ON m.id = fts.memory_id
WHERE fts MATCH ? AND m.archived = 0
ORDER BY relevance LIMIT 50
"""


def keyword_recall(
    catalog: Path,
    query: str,
    now: datetime,
    config: MemoryConfig,
    saturation: float,
    project: str | None = None,
    limit: int = 5,
) -> dict[str, list[dict[str, Any]]]:
    tiers: dict[str, list[dict[str, Any]]] = {"confident": [], "activated": []}
    match = or_terms(query_terms(query))
    if not match or not catalog.exists():
        return tiers
    db = sqlite3.connect(f"file:{catalog}?mode=ro", uri=True, timeout=1.0)
    try:
        rows = db.execute(_SQL, (match,)).fetchall()
    finally:
        db.close()
    for memory_id, tier, kind, row_project, created, last_access, stability, bm25, body in rows:
        similarity = normalise_bm25(bm25, saturation)
        current = strength(
            days_between(parse_time(last_access), now), stability or config.base_stability(tier)
        )
        boost = config.project_boost if project and row_project == project else 1.0
        label = classify(similarity, current, boost, config)
        if label is None:
            continue
        tiers[label].append(
            {
                "id": memory_id,
                "text": str(body).strip(),
                "tier": tier,
                "kind": kind,
                "project": row_project,
                "age_days": round(days_between(parse_time(created), now), 1),
                "strength": round(current, 4),
                "similarity": round(similarity, 4),
                "score": round(score(similarity, current, boost), 4),
                "recall_tier": label,
                "reinforced": False,
                "source": "keyword-fallback",
            }
        )
    for hits in tiers.values():
        hits.sort(key=lambda h: h["score"], reverse=True)
        del hits[limit:]
    return tiers
