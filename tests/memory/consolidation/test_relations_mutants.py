"""The judge's rules that the mutation run of relations.py found unpinned, in
sentences written for this test: a change exactly at the bar counts (the bar is
the least that means "the same subject"); one name in place of another, said as
a change; a newer detail said as a change needs no margin over the bar; a
newer that adds a detail restates, two moves with other values both stand; the
merge similarity is 0.7 x cosine + 0.3 x the rare-word overlap."""

from __future__ import annotations

import math
from dataclasses import replace

import pytest

from memory.consolidation.relations import (
    RESTATEMENT_COSINE,
    Item,
    WordWeights,
    judge,
    similarity,
)
from memory.consolidation.text import analyse

BAR, MERGE_BAR = 0.4, 0.42


def _judge(older: str, newer: str, cosine: float) -> tuple[str, str]:
    old = Item("a", "api", "fact", "", "2026-01-01T00:00:00Z", older, analyse(older))
    new = Item("b", "api", "fact", "", "2026-03-01T00:00:00Z", newer, analyse(newer))
    verdict = judge(old, new, cosine, cosine, BAR, MERGE_BAR)
    return verdict.relation, verdict.reason


def test_a_tool_said_replaced_at_exactly_the_bar_is_a_change() -> None:
    relation, why = _judge("We log with structlog.",
                           "We replaced structlog with loguru for logging.", BAR)  # fmt: skip
    assert (relation, why) == ("change", "says structlog was replaced")


@pytest.mark.parametrize("cosine", [BAR, 0.7])
def test_the_job_queue_switched_to_another_broker_is_a_change(cosine: float) -> None:
    relation, why = _judge("The job queue is RabbitMQ.", "The job queue switched to SQS.", cosine)
    assert relation == "change"
    assert why == "sqs where it said rabbitmq, saying it changed"


def test_a_pool_size_said_lowered_is_a_change_just_over_the_bar() -> None:
    older, newer = (
        "The connection pool per pod is 20.",
        "The connection pool per pod was lowered to 10.",
    )
    relation, why = _judge(older, newer, BAR + 0.02)
    assert (relation, why) == ("change", "10 where it said 20")


def test_the_same_port_with_the_proxy_added_is_the_same_fact() -> None:
    relation, _ = _judge("The API listens on port 8080.",
                         "The API listens on port 8080 behind nginx 1.25.", 0.9)  # fmt: skip
    assert relation == "restatement"


def test_two_moves_with_other_values_both_stand() -> None:
    older = "The billing service moved to port 8080."
    relation, why = _judge(older, "The billing service moved to port 8080 on host api-2.", 0.9)
    assert (relation, why) == ("distinct", "says it changed, with other values")


def test_similarity_is_seven_tenths_meaning_and_three_tenths_shared_rare_words() -> None:
    billing, search = analyse("Billing api deploys."), analyse("Search api deploys.")
    weights = WordWeights([billing.tokens, search.tokens])
    same = similarity(0.5, billing, billing, weights)
    assert same == pytest.approx(0.7 * 0.5 + 0.3 * 1.0)
    # at the same meaning, sharing more words is more alike, never less
    assert similarity(0.5, billing, search, weights) < same


def test_a_word_every_memory_uses_counts_for_less_than_a_rare_one() -> None:
    """Smoothed inverse document frequency over the memories compared:
    ln((1 + N) / (1 + n)) + 1 for a word n of N memories use, so a word all
    use weighs 1 and the overlap of two memories sharing only it is small."""
    texts = ["Billing api deploys.", "Search api deploys.", "Mail api deploys.",
             "Audit api deploys."]  # fmt: skip
    facts = [analyse(text) for text in texts]
    weights = WordWeights(f.tokens for f in facts)
    common = facts[0].tokens & facts[1].tokens
    assert common
    assert all(weights.weight([word]) == pytest.approx(1.0) for word in common)
    rare = math.log(5 / 2) + 1
    [billing] = facts[0].tokens - common
    assert weights.weight([billing]) == pytest.approx(rare)
    assert weights.overlap(facts[0].tokens, facts[1].tokens) == pytest.approx(
        len(common) / (len(common) + rare)
    )


@pytest.mark.parametrize(
    ("older", "newer", "why"),
    [
        # another name in the same slot
        ("The job queue is RabbitMQ.", "The job queue is SQS.", "SQS where it said RabbitMQ"),
        # another number in the same words
        ("The connection pool per pod is 20.", "The connection pool per pod is 10.",
         "10 where it said 20"),
    ],
)  # fmt: skip
def test_a_value_not_said_changed_needs_the_margin_over_the_bar(
    older: str, newer: str, why: str
) -> None:
    assert _judge(older, newer, BAR + 0.05) == ("change", why)
    assert _judge(older, newer, BAR + 0.02)[0] == "distinct"


def _restates(cosine: float, alike: float) -> str:
    text = "Shared pytest fixtures go in conftest.py."
    old = Item("a", "api", "fact", "", "2026-01-01T00:00:00Z", text, analyse(text))
    new = Item("b", "api", "fact", "", "2026-03-01T00:00:00Z", text, analyse(text))
    return judge(old, new, cosine, alike, BAR, MERGE_BAR).relation


def test_the_same_fact_again_needs_both_the_cosine_and_the_similarity() -> None:
    # one fact said twice from cosine 0.75 up (calibrated: restatements >= 0.77, others <= 0.72)
    assert RESTATEMENT_COSINE == 0.75
    assert _restates(0.75, MERGE_BAR) == "restatement"  # at both bars
    assert _restates(0.9, MERGE_BAR - 0.01) == "distinct"  # close in meaning, few words shared
    assert _restates(0.74, 0.9) == "distinct"  # many words, other meaning


def test_a_memory_written_at_the_same_moment_replaces_nothing() -> None:
    older, newer = "The connection pool per pod is 20.", "The connection pool per pod is 10."
    old = Item("a", "api", "fact", "", "2026-01-01T00:00:00Z", older, analyse(older))
    new = Item("b", "api", "fact", "", "2026-01-01T00:00:00Z", newer, analyse(newer))
    assert judge(old, new, 0.9, 0.9, BAR, MERGE_BAR).relation != "change"
    assert judge(old, replace(new, created="2026-01-01T00:00:01Z"), 0.9, 0.9, BAR,
                 MERGE_BAR).relation == "change"  # fmt: skip
