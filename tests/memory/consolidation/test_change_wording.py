"""The judge's rules for how a change is worded, each with the case it must
leave alone: a tool retired by name, a person who left, an ordinal day, how
often, one name in place of another said as a change, one number in the same
words, a slot followed by another attribute, a choice made against what the
newer still uses. Sentences written for this test."""

from __future__ import annotations

import pytest

from memory.consolidation.relations import Item, judge
from memory.consolidation.text import analyse, keyed_numbers

CHANGE_BAR, MERGE_BAR = 0.4, 0.42


def relation(older: str, newer: str, cosine: float = 0.8) -> str:
    old = Item("a", "github.com/acme/api", "fact", "", "2026-01-01T00:00:00Z", older,
               analyse(older))  # fmt: skip
    new = Item("b", "github.com/acme/api", "fact", "", "2026-02-01T00:00:00Z", newer,
               analyse(newer))  # fmt: skip
    return judge(old, new, cosine, cosine, CHANGE_BAR, MERGE_BAR).relation


@pytest.mark.parametrize(
    ("older", "newer", "cosine"),
    [
        # what was there before, retired by name
        ("Error tracking goes to Sentry.", "We decommissioned Sentry; errors go to Rollbar.", 0.6),
        ("Feature flags are served by Unleash.", "Unleash has been scrapped for flags.", 0.6),
        # the person who held the role left
        ("Ines looks after the search index.", "The search index is Omar's since Ines left.", 0.6),
        # a day of the month
        ("Payroll exports run on the 3rd of every month.",
         "Payroll exports run on the 10th of every month.", 0.95),
        # how often, said without a number
        ("The dependency audit runs weekly.", "The dependency audit runs daily now.", 0.8),
        # one name for another, said as a change
        ("The search backend is Elasticsearch.", "The search backend moved to OpenSearch.", 0.7),
        # one number in the same words
        ("The iOS app's deployment target is 15.", "The iOS app's deployment target is 16.", 0.95),
    ],
)  # fmt: skip
def test_a_change_in_these_words_supersedes(older: str, newer: str, cosine: float) -> None:
    assert relation(older, newer, cosine) == "change"


@pytest.mark.parametrize(
    ("older", "newer", "cosine"),
    [
        # a second one added, not one in place of the other
        ("The search backend is Elasticsearch.",
         "The search backend now also feeds OpenSearch.", 0.7),
        # numbers naming which one
        ("Ticket 4512 is blocked on legal.", "Ticket 4513 is blocked on legal.", 0.95),
        # the slot is followed by another attribute, not by when or why
        ("The release branch is main.", "The release branch is protected against force pushes.",
         0.8),
        # the newer rejects merging, and still rebases on main
        ("Rebase topic branches onto develop; no merge commits.",
         "Keep history linear: rebase topic branches on develop rather than merging develop in.",
         0.8),
        # a day of the month, said again
        ("Payroll exports run on the 3rd of every month.",
         "On the 3rd of each month the payroll export runs.", 0.95),
    ],
)  # fmt: skip
def test_these_are_no_change(older: str, newer: str, cosine: float) -> None:
    assert relation(older, newer, cosine) != "change"


def test_a_newer_saying_it_changed_with_other_values_restates_nothing() -> None:
    older = "The mobile app ships every two weeks."
    assert relation(older, "The mobile app ships every two weeks, as before.", 0.95) == (
        "restatement"
    )
    assert relation(older, "From now on the mobile app ships every 10 days.", 0.9) != (
        "restatement"
    )


def test_ordinals_and_frequencies_are_values() -> None:
    assert keyed_numbers("Invoices go out on the 5th.") == [("ordinal", "5th")]
    assert analyse("The audit runs weekly.").values == {"week": frozenset({"1"})}
    assert analyse("Backups run every night.").values == {"day": frozenset({"1"})}
