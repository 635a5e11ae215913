"""The judge's rules that the mutation run of relations.py found unpinned, in
sentences written for this test: a change exactly at the bar counts (the bar is
the least that means "the same subject"); one name in place of another, said as
a change; a newer detail said as a change needs no margin over the bar; a
newer that adds a detail restates, two moves with other values both stand; the
merge similarity is 0.7 x cosine + 0.3 x the rare-word overlap. Then the full
run's survivors: the margins of a named thing gone and of another name, a few
new words in place of the old choice, one person handed over for one, one name
renamed for one, a question or another environment, a second change said, a
memory with no content words."""

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
    # the rules of relations.py, the mutants' module: the learned layer (pair_model.py) on
    # top of them calls some of these pairs a change at cosine 0.9 (the closing note)
    verdict = judge(old, new, cosine, cosine, BAR, MERGE_BAR, rules_only=True)
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


# --- the full run's survivors (issue 31), each in sentences written for it ---


def test_a_named_thing_said_gone_counts_down_to_its_margin_below_the_bar() -> None:
    """'moved off Segment' names what was before: a change at 0.15 under the bar,
    not at any similarity; a tool said replaced without a name needs the bar."""
    older, newer = (
        "We send product analytics to Segment.",
        "We moved off Segment for product analytics.",
    )
    assert _judge(older, newer, BAR - 0.15) == ("change", "says segment was replaced")
    assert _judge(older, newer, 0.1)[0] == "distinct"
    unnamed = _judge("We log with structlog.", "We replaced structlog with loguru for logging.",
                     BAR - 0.1)  # fmt: skip
    assert unnamed[0] == "distinct"


@pytest.mark.parametrize(
    ("newer", "relation"),
    [
        ("Log with loguru instead of structlog.", "change"),  # one new word
        # six new words in place of the old one: still the same choice changed
        ("Log with loguru through rich colour handlers in json files instead of structlog.",
         "change"),
        # seven: another statement that mentions the old tool
        ("Log with loguru through rich colour handlers in json files daily instead of "
         "structlog.", "distinct"),
    ],
)  # fmt: skip
def test_a_choice_in_place_of_another_brings_a_few_new_words(newer: str, relation: str) -> None:
    assert _judge("We log with structlog.", newer, 0.6)[0] == relation


def test_a_choice_in_place_of_another_counts_at_exactly_the_bar() -> None:
    relation, why = _judge("We log with structlog.", "Use loguru instead of structlog.", BAR)
    assert (relation, why) == ("change", "takes loguru instead of structlog")


def test_deploys_not_from_the_release_branch_leave_the_hotfixes_standing() -> None:
    """A newer that takes nothing new in place of what it turns down is no
    'instead of' change: the older's hotfix branch still stands."""
    older = "Deploys run from main; hotfixes ship from the release branch."
    assert _judge(older, "Deploys run from main, not the release branch.", 0.6)[0] != "change"


def test_saying_no_again_to_what_the_older_said_no_to_replaces_nothing() -> None:
    """'Don't write TestCase classes with setUp' said no to setUp past the
    negation's reach: a newer against setUp agrees with it."""
    older = "Don't write TestCase classes with setUp, use fixtures."
    assert _judge(older, "Use conftest fixtures, not setUp.", 0.6)[0] != "change"


OWNED = "The on-call rota is owned by Priya."


def test_another_owner_in_other_words_needs_a_much_closer_subject() -> None:
    """A name in place of another (no slot lined up) is weak evidence: a change
    from 0.15 over the bar, and then at any cosine up to 1."""
    newer = "Marco owns the on-call rota."
    assert _judge(OWNED, newer, BAR + 0.15) == ("change", "names marco where it said priya")
    assert _judge(OWNED, newer, 0.95) == ("change", "names marco where it said priya")
    assert _judge(OWNED, newer, BAR + 0.1)[0] == "distinct"


def test_another_owner_of_another_thing_replaces_nothing() -> None:
    newer = "Marco owns the billing dashboards and alerts."
    assert _judge(OWNED, newer, 0.6)[0] != "change"


def test_another_owner_counts_when_seven_in_ten_words_are_shared() -> None:
    older = (
        "The weekend on-call rota for payment, search, billing and ledger alerts is owned by Priya."
    )
    newer = "Marco owns the weekend on-call rota for payment, search, chat and mail pages."
    assert _judge(older, newer, 0.6) == ("change", "names marco where it said priya")


def test_a_short_memory_with_another_owner_is_a_change() -> None:
    assert _judge("Owned by Priya.", "Marco owns it.", 0.9) == (
        "change", "names marco where it said priya")  # fmt: skip


def test_a_memory_that_is_only_a_name_is_judged_like_any_other() -> None:
    """'By Priya Sharma.' has no word outside the name: two people, both stand."""
    relation, _ = _judge("By Priya Sharma.", "Signed off by Marco Rossi.", 0.9)
    assert relation == "distinct"


def test_a_second_approver_added_replaces_no_one() -> None:
    older, newer = "Releases are approved by Priya.", "Releases are approved by Priya and Marco."
    assert _judge(older, newer, 0.9)[0] != "change"


MAINTAINED = "The billing service is maintained by Aiko."


def test_a_maintainer_handed_over_counts_at_exactly_the_bar() -> None:
    newer = "The billing service maintainer is Rafael as of October."
    assert _judge(MAINTAINED, newer, BAR) == ("change", "rafael where it said aiko")


@pytest.mark.parametrize(
    ("older", "newer"),
    [
        # two maintainers now: not one in place of the other
        (MAINTAINED, "The billing service maintainers are Rafael and Mei as of October."),
        ("The billing service is maintained by Aiko and Bo.",
         "The billing service maintainer is Rafael as of October."),
        # the same person, by her full name or a longer form of it
        (MAINTAINED, "The billing service maintainer is Aiko Tanaka as of October."),
        ("The billing service is maintained by Mel.",
         "The billing service maintainer is Melanie as of October."),
        # the newer leaves out which service: maybe another one
        (MAINTAINED, "The maintainer is Rafael as of October."),
    ],
)  # fmt: skip
def test_no_hand_over_without_one_person_in_place_of_another(older: str, newer: str) -> None:
    assert _judge(older, newer, 0.9)[0] != "change"


def test_two_queues_in_place_of_one_rename_nothing() -> None:
    older, newer = "The job queue is RabbitMQ.", "The job queue switched to SQS and Kafka."
    assert _judge(older, newer, 0.9)[0] != "change"


def test_a_rename_said_below_the_bar_is_no_change() -> None:
    older, newer = "The job queue is RabbitMQ.", "The job queue switched to SQS."
    assert _judge(older, newer, BAR - 0.01)[0] != "change"


def test_a_rename_of_a_queue_the_older_tied_to_billing_needs_billing_said_again() -> None:
    older = "The job queue for billing is RabbitMQ."
    assert _judge(older, "The job queue switched to SQS.", 0.9)[0] != "change"


@pytest.mark.parametrize(
    ("older", "newer"),
    [
        ("The API listens on port 8000.", "Does the API listen on port 8080?"),
        ("In production the API listens on port 8000.",
         "In staging the API listens on port 8080."),
    ],
)  # fmt: skip
def test_a_question_or_another_environment_replaces_nothing(older: str, newer: str) -> None:
    assert _judge(older, newer, 0.9)[0] == "distinct"


def test_a_detail_changed_twice_needs_the_margin_for_the_second_change() -> None:
    """Both say a change: the newer's is no news, so it needs the margin."""
    older = "The connection pool per pod was raised to 20."
    newer = "The connection pool per pod was lowered to 10."
    assert _judge(older, newer, BAR + 0.02)[0] == "distinct"
    assert _judge(older, newer, BAR + 0.05) == ("change", "10 where it said 20")


def test_a_detail_said_changed_counts_at_exactly_the_bar() -> None:
    older, newer = (
        "The connection pool per pod is 20.",
        "The connection pool per pod was lowered to 10.",
    )
    assert _judge(older, newer, BAR) == ("change", "10 where it said 20")


def test_the_same_port_said_without_its_proxy_is_the_same_fact() -> None:
    relation, _ = _judge("The API listens on port 8080 behind nginx 1.25.",
                         "The API listens on port 8080.", 0.9)  # fmt: skip
    assert relation == "restatement"


def test_a_memory_with_no_content_words_shares_none() -> None:
    """'It is what it is.': only its meaning counts, 0.7 x cosine."""
    empty, other = analyse("It is what it is."), analyse("The API listens on port 8080.")
    assert not empty.tokens
    weights = WordWeights([empty.tokens, other.tokens])
    assert similarity(0.5, empty, other, weights) == pytest.approx(0.35)


@pytest.mark.xfail(
    strict=True,
    reason="a newer that says the older's fact is not so any more is judged distinct "
    "('denies ...'): both stand, and recall offers both",
)
@pytest.mark.parametrize(
    ("older", "newer", "cosine"),
    [
        # the cosines the real model gives these pairs (0.91 and 0.96)
        ("The cache is enabled in staging.", "The cache is not enabled in staging.", 0.91),
        ("Releases ship on Mondays and Fridays.", "Releases ship on Mondays, not Fridays.",
         0.96),
    ],
)  # fmt: skip
def test_a_newer_that_says_the_older_is_not_so_replaces_it(
    older: str, newer: str, cosine: float
) -> None:
    assert _judge(older, newer, cosine)[0] == "change"
