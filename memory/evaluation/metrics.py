"""Retrieval metrics (pure): recall@k, reciprocal rank, nDCG@k with binary gains."""

from __future__ import annotations

import math
from collections.abc import Sequence


def recall_at(ranked: Sequence[str], relevant: set[str], k: int) -> float:
    return len(set(ranked[:k]) & relevant) / len(relevant) if relevant else 0.0


def reciprocal_rank(ranked: Sequence[str], relevant: set[str]) -> float:
    return next((1.0 / (i + 1) for i, item in enumerate(ranked) if item in relevant), 0.0)


def ndcg_at(ranked: Sequence[str], relevant: set[str], k: int) -> float:
    gain = sum(1.0 / math.log2(i + 2) for i, item in enumerate(ranked[:k]) if item in relevant)
    ideal = sum(1.0 / math.log2(i + 2) for i in range(min(k, len(relevant))))
    return gain / ideal if ideal else 0.0


def scores(ranked: Sequence[str], relevant: set[str]) -> dict[str, float]:
    return {
        "R@5": recall_at(ranked, relevant, 5),
        "R@10": recall_at(ranked, relevant, 10),
        "MRR": reciprocal_rank(ranked, relevant),
        "nDCG@10": ndcg_at(ranked, relevant, 10),
    }
