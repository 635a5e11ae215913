"""The numbers of ARCHITECTURE.md, on the pure functions."""

from __future__ import annotations

import pytest
from hypothesis import given, strategies as st

from memory.config import MemoryConfig
from memory.lifecycle.decay import days_until, reinforce, strength
from memory.recall.tiers import classify, why

CONFIG = MemoryConfig.default()


def test_fresh_jot_fades_from_recall_around_day_16_and_reaches_archive_floor_around_day_27() -> (
    None
):
    assert days_until(CONFIG.retrieval_floor, 7.0) == pytest.approx(16.1, abs=0.1)
    assert days_until(CONFIG.archive_floor, 7.0) == pytest.approx(27.4, abs=0.1)


def test_six_reinforcements_consolidate_into_semantic() -> None:
    stability, tier = 7.0, "episodic"
    for _ in range(5):
        grown = reinforce(stability, tier, 1.5, CONFIG)
        stability, tier = grown.stability, grown.tier
        assert tier == "episodic"
    grown = reinforce(stability, tier, 1.5, CONFIG)
    assert grown.consolidated
    assert (grown.tier, grown.stability) == ("semantic", 90.0)


def test_semantic_memory_fades_after_about_7_months_and_archives_after_about_11_7() -> None:
    assert days_until(CONFIG.retrieval_floor, 90.0) / 30.44 == pytest.approx(6.8, abs=0.1)
    assert days_until(CONFIG.archive_floor, 90.0) / 30.44 == pytest.approx(11.6, abs=0.15)


def test_stability_is_capped_at_ten_times_base() -> None:
    assert reinforce(850.0, "semantic", 1.5, CONFIG).stability == 900.0
    assert reinforce(3000.0, "curated", 2.5, CONFIG).stability == 3650.0


@given(st.floats(0.01, 5000), st.floats(0.1, 3000))
def test_strength_is_between_zero_and_one_and_decreasing(days: float, stability: float) -> None:
    assert 0.0 <= strength(days, stability) <= 1.0
    assert strength(days + 1, stability) <= strength(days, stability)


@given(st.floats(0.1, 899), st.sampled_from(["episodic", "semantic", "curated"]))
def test_reinforcement_never_lowers_stability_unless_consolidating(s: float, tier: str) -> None:
    grown = reinforce(s, tier, 1.5, CONFIG)
    assert grown.consolidated or grown.stability >= min(s, CONFIG.stability_cap(tier))


@pytest.mark.parametrize(
    ("similarity", "strength_", "expected"),
    [
        (0.5, 0.9, "confident"),
        (0.3, 0.5, "activated"),  # 0.15: between the bars (0.085 and 0.2)
        (0.16, 0.07, "activated"),  # faint, but the cue (0.14) rings a bell
        (0.10, 0.07, None),  # faint and unrelated
        (0.9, 0.015, None),  # under the archive floor
        (0.12, 0.9, None),  # fresh but too dissimilar (min similarity 0.17)
    ],
)
def test_tiers(similarity: float, strength_: float, expected: str | None) -> None:
    assert classify(similarity, strength_, 1.0, CONFIG, cosine=0.6) == expected


@pytest.mark.parametrize(
    ("cosine", "expected", "explained"),
    [
        (CONFIG.confident_cosine, "confident", ">= confident bar"),
        (CONFIG.confident_cosine - 0.01, "activated", "only might be related"),
        (0.0, "activated", "only might be related"),  # keywords alone (no model) hedge
    ],
)
def test_confident_needs_meaning_not_only_shared_words(
    cosine: float, expected: str, explained: str
) -> None:
    assert classify(0.5, 0.9, 1.0, CONFIG, cosine=cosine) == expected
    assert explained in why(0.5, 0.9, 1.0, CONFIG, cosine=cosine)
