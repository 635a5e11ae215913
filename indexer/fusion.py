"""Hybrid score: cosine similarity and BM25 fused into one number in [0, 1].

BM25 has no fixed scale, so it is squashed by saturation (s / (s + k)): a score
of k maps to 0.5, and the mapping does not depend on the other results, so the
recall tiers' bars mean the same thing for every query.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class FusionWeights:
    vector: float = 0.4
    keyword: float = 0.6
    bm25_saturation: float = 4.0


def normalise_bm25(score: float, saturation: float) -> float:
    """`score` is SQLite FTS5's bm25(), where more negative means more relevant."""
    strength = max(0.0, -score)
    return strength / (strength + saturation) if strength > 0 else 0.0


def fuse(cosine: float, keyword: float, weights: FusionWeights) -> float:
    return weights.vector * max(0.0, cosine) + weights.keyword * keyword
