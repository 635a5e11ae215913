"""The judge's general mechanisms of round four (issue 24), in sentences of our
own: identifiers name which thing, a unit written onto its number is a value, a
change said in words needs less wording in common, labels are no speakers, an
attribute each names alone keeps two memories apart, a restatement says no
change, and what a choice was made against is not replaced when the older
made the same choice."""

from __future__ import annotations

import pytest

from memory.consolidation.relations import Item, judge
from memory.consolidation.text import analyse

BAR, MERGE_BAR = 0.4, 0.42


def _judge(older: str, newer: str, cosine: float, alike: float | None = None) -> tuple[str, str]:
    old = Item("a", "api", "fact", "", "2026-01-01T00:00:00Z", older, analyse(older))
    new = Item("b", "api", "fact", "", "2026-03-01T00:00:00Z", newer, analyse(newer))
    verdict = judge(old, new, cosine, cosine if alike is None else alike, BAR, MERGE_BAR)
    return verdict.relation, verdict.reason


@pytest.mark.parametrize(
    ("older", "newer"),
    [
        # an identifier after a shared head noun, with the sentence going on
        ("The stream clicks-raw keeps 7 days of events.",
         "The stream clicks-agg keeps 30 days of events."),
        ("Shard eu-3 holds 40 GB of indexes.", "Shard eu-4 holds 90 GB of indexes."),
        # ... or right before it
        ("The /api/v3 route answers within 200 ms.", "The /api/v4 route answers within 450 ms."),
        # after "for the": a qualifier, whatever determiner comes between
        ("Nightly builds for the desktop app are signed with key A.",
         "Nightly builds for the tablet app are signed with key B instead."),
    ],
)  # fmt: skip
def test_a_name_of_which_one_keeps_the_same_attribute_of_two_things_apart(older, newer) -> None:
    relation, why = _judge(older, newer, 0.9)
    assert relation == "distinct", why


@pytest.mark.parametrize(
    ("older", "newer", "cosine"),
    [
        # a unit written onto its number, and "an hour"
        ("The cache entries expire after 10 minutes.", "Bumped the cache expiry to 45s.", 0.6),
        ("Login sessions last 30 minutes.", "Login sessions last an hour now.", 0.7),
        # a change said in words: one plain word in common is enough, at the bar
        ("The search cluster runs Elasticsearch 7.10 on three nodes.",
         "Search was upgraded to Elasticsearch 8.13 last week.", 0.41),
        # a label is no speaker
        ("The export job keeps 14 days of files.",
         "Correction: the export job keeps 21 days of files.", 0.8),
        # something named as gone, below the bar
        ("The mobile apps send their crash reports to Bugsnag.",
         "Crash reporting moved off Bugsnag to save money.", 0.3),
        # "is being ..." and "formerly"
        ("The admin UI is built with Backbone.", "New admin screens use React; Backbone is being "
         "phased out.", 0.6),
        ("Deploys go out from the trunk branch.",
         "Deploys go out from release, formerly trunk.", 0.8),
        # a person who moved on
        ("Questions about invoices go to Farid.", "Invoice questions go to Ines now that Farid "
         "moved to the mobile team.", 0.7),
    ],
)  # fmt: skip
def test_a_change_in_other_words_supersedes(older, newer, cosine) -> None:
    relation, why = _judge(older, newer, cosine)
    assert relation == "change", why


def test_a_phrasal_off_is_not_something_replaced() -> None:
    relation, _ = _judge("Run the smoke tests before a release.",
                         "Kick off the smoke tests before you cut a release.", 0.8)  # fmt: skip
    assert relation != "change"
    relation, _ = _judge("Marta reviews every change to the billing schema.",
                         "Billing schema changes need a sign-off from Marta.", 0.8)  # fmt: skip
    assert relation != "change"


def test_a_choice_said_again_is_no_change() -> None:
    older = "We picked Vue over Angular because of the smaller bundle."
    relation, why = _judge(
        older, "The smaller bundle is why Vue was chosen instead of Angular.", 0.85
    )
    assert relation != "change", why


def test_two_attributes_of_one_thing_are_not_one_fact() -> None:
    older = "The mail client uses a long timeout for slow servers."
    relation, why = _judge(older, "The mail client retries slow servers before giving up.", 0.85)
    assert (relation, why) == ("distinct", "about its timeout and its retry")


def test_a_restatement_never_says_something_changed() -> None:
    relation, why = _judge("Python code is formatted with black, nothing more.",
                           "Format Python code with black and isort; CI now rejects unsorted "
                           "imports.", 0.8, 0.8)  # fmt: skip
    assert relation != "restatement", why
    relation, _ = _judge("Python code is formatted with black.",
                         "We format Python code with black.", 0.9, 0.9)  # fmt: skip
    assert relation == "restatement"


@pytest.mark.parametrize(
    ("older", "newer", "cosine"),
    [
        # two things that open apart and share only what they use
        ("The web app runs on Node 18.", "Our background worker is on Node 20 now.", 0.52),
        ("The analytics warehouse runs Postgres 13.",
         "The billing database was upgraded to Postgres 16.", 0.52),
        # a name each says alone, with another code in the same place
        ("The EU cluster sits in eu-west-1.", "Our US cluster was moved to us-east-2.", 0.53),
        # the numbers that differ measure two attributes
        ("The nightly backup runs at 02:00 UTC.",
         "The nightly backup now keeps 30 days of snapshots.", 0.68),
        # a qualifier after "for", with a determiner on one side only
        ("Redis for sessions runs with 1 replica.",
         "Redis for the job queue runs with 3 replicas.", 0.77),
    ],
)  # fmt: skip
def test_the_same_attribute_of_another_thing_supersedes_nothing(older, newer, cosine) -> None:
    relation, why = _judge(older, newer, cosine)
    assert relation == "distinct", why


def test_a_former_value_the_older_never_held_replaces_nothing() -> None:
    relation, why = _judge("The billing service listens on port 8060.",
                           "We moved orders off port 8004", 0.41)  # fmt: skip
    assert relation == "distinct", why
    relation, why = _judge("The orders service listens on port 8004.",
                           "We moved orders off port 8004", 0.76)  # fmt: skip
    assert relation == "change", why
