"""Recall without the model, for the prompt hook when no daemon answers: FTS5
keywords plus strengths from the manifest, standard library only, read-only,
never reinforcing. BM25 (normalised as in hybrid search) stands in for
similarity, and the same tier rules apply; with no cosine to show that a
memory means what the prompt asks, nothing is confident: matches are hedged.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime
from typing import Any

from indexer.catalog_reader import catalog_path, keyword_matches
from indexer.fusion import normalise_bm25
from indexer.keywords import match_expression
from memory.config import MemoryConfig
from memory.decay import days_between
from memory.lifecycle_factors import lifecycle_strength, usage_factor
from memory.recall.tiers import classify, recall_boost, score
from vault.appearances import AppearanceLog
from vault.clock import parse_time
from vault.layout import Vault
from vault.periodic_links import PeriodicLinks

Tiers = dict[str, list[dict[str, Any]]]


def keyword_recall(
    vault: Vault,
    query: str,
    now: datetime,
    config: MemoryConfig,
    saturation: float,
    project: str | None = None,
    limit: int = 5,
    context_weight: float = 0.0,
) -> Tiers:
    """The confident and activated tiers, as the daemon's recall would hand them out."""
    tiers: Tiers = {"confident": [], "activated": []}
    match = match_expression(query)
    if not match:
        return tiers
    usage = _usage_factors(vault, config)
    for row in keyword_matches(catalog_path(vault.root), match, context_weight=context_weight):
        similarity = normalise_bm25(row.relevance, saturation)
        current = lifecycle_strength(row, now, config, parse_time(row.last_access))
        project_match = bool(project) and row.project == project
        boost = recall_boost(config, usage(row.id, now), project_match, False, row.confidence)
        label = classify(similarity, current, boost, config, cosine=0.0)  # keywords alone hedge
        if label is None:
            continue
        tiers[label].append(
            {
                "id": row.id,
                "text": str(row.body).strip(),
                "tier": row.tier,
                "kind": row.kind,
                "project": row.project,
                "age_days": round(days_between(parse_time(row.created), now), 1),
                "strength": round(current, 4),
                "confidence": row.confidence,
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


def _usage_factors(vault: Vault, config: MemoryConfig) -> Callable[[str, datetime], float]:
    """Appearances in results and periodic-note links, read from the same files the
    daemon keeps (read only), so a memory's boost is the daemon's."""
    appearances = AppearanceLog(vault.state_dir)
    periodic = PeriodicLinks(vault)
    appearances.refresh()
    periodic.refresh()

    def factor(memory_id: str, now: datetime) -> float:
        seen = appearances.count(memory_id, now, config.appearance_window_days)
        return usage_factor(seen, len(periodic.levels(memory_id)), config)

    return factor
