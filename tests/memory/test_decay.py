"""The numbers of ARCHITECTURE.md, on the pure functions."""

from __future__ import annotations

import math
from datetime import UTC, datetime, timedelta

import pytest
from hypothesis import given, strategies as st

from memory.config import MemoryConfig
from memory.decay import days_until, reinforce, strength, strength_at
from memory.recall.tiers import classify, recall_boost, why
from vault.schema import DEFAULT_CONFIDENCE

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
        assert (tier, grown.consolidated) == ("episodic", False)
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
    # a last access later than now (another machine's clock ahead) counts as now
    assert strength(-days, stability) == 1.0
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


def test_after_one_stability_of_silence_strength_is_one_over_e() -> None:
    """The formula of the README to the last digit: a day is 86,400 seconds."""
    written = datetime(2026, 3, 1, 9, tzinfo=UTC)
    week_later = written + timedelta(days=7)
    assert strength_at(written, 7.0, "episodic", week_later, CONFIG) == math.exp(-1)
    assert strength_at(written, 7.0, "episodic", written, CONFIG) == 1.0


def test_the_floors_are_the_weakest_strengths_still_shown() -> None:
    """A memory exactly at the archive floor still rings a bell; exactly at the
    retrieval floor it can still be stated as fact."""
    archive, retrieval = CONFIG.archive_floor, CONFIG.retrieval_floor
    assert classify(CONFIG.cue_bar, archive, 1.0, CONFIG, cosine=0.6) == "activated"
    assert classify(0.9, retrieval, 3.0, CONFIG, cosine=0.9) == "confident"


def test_a_matching_topic_lifts_the_score_by_the_topic_boost() -> None:
    def boost(topic_match: bool) -> float:
        return recall_boost(CONFIG, 1.0, False, topic_match, DEFAULT_CONFIDENCE)

    assert boost(False) == 1.0
    assert boost(True) == pytest.approx(CONFIG.topic_boost)


@pytest.mark.parametrize(
    ("similarity", "strength_", "keyword", "explained"),
    [
        (0.5, 0.9, 0.8, "shares words more than meaning, so only might be related"),
        (0.5, 0.9, 0.1, "close in meaning, but not enough to state as fact"),
        (0.3, 0.5, 0.0, ">= activated bar"),
        (0.16, 0.07, 0.0, "faint memory, but similarity >= cue bar 0.14 (rings a bell)"),
        (0.12, 0.9, 0.0, "below every bar"),  # clears the activated bar, not min similarity
    ],
)
def test_explain_says_which_bar_decided(
    similarity: float, strength_: float, keyword: float, explained: str
) -> None:
    line = why(similarity, strength_, 1.0, CONFIG, cosine=0.3, keyword=keyword)
    assert explained in line
