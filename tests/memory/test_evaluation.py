from __future__ import annotations

import math

import pytest

from memory.evaluation.metrics import ndcg_at, recall_at, reciprocal_rank, scores


def test_metrics_on_a_known_ranking() -> None:
    ranked = ["a", "x", "b", "y", "z", "c"]
    relevant = {"a", "b", "c"}
    assert recall_at(ranked, relevant, 5) == pytest.approx(2 / 3)
    assert recall_at(ranked, relevant, 10) == 1.0
    assert reciprocal_rank(ranked, relevant) == 1.0
    assert reciprocal_rank(["x", "b"], relevant) == 0.5
    ideal = 1 + 1 / math.log2(3) + 1 / math.log2(4)
    assert ndcg_at(ranked, relevant, 10) == pytest.approx((1 + 1 / 2 + 1 / math.log2(7)) / ideal)
    assert scores([], relevant) == {"R@5": 0.0, "R@10": 0.0, "MRR": 0.0, "nDCG@10": 0.0}
