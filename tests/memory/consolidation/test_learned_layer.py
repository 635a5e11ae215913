"""The judge's learned layer and its confidence (issue 24, round five), in
sentences of our own (none is in a pair set). Cosines are the real model's for
each pair, measured once and written here, so these run without the model."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from memory.consolidation.pair_model import DEFAULT_PATH, read_model, shipped_model
from memory.consolidation.pair_signals import SIGNAL_NAMES, signals
from memory.consolidation.relations import (
    Item,
    change,
    judge,
    replaces_nothing,
    said_changed,
    why_not_one_fact,
)
from memory.consolidation.text import analyse

BAR, MERGE_BAR = 0.4, 0.42


def _pair(older: str, newer: str) -> tuple[Item, Item]:
    return (Item("a", "p", "fact", "", "2026-01-01T00:00:00Z", older, analyse(older)),
            Item("b", "p", "fact", "", "2026-03-01T00:00:00Z", newer, analyse(newer)))  # fmt: skip


@pytest.mark.parametrize(
    ("older", "newer", "cosine", "alike"),
    [
        ("Our CI pipeline runs on Jenkins.", "CI moved to GitHub Actions last month.", 0.41, 0.34),
        ("The docs site is built with Sphinx.",
         "We switched the docs site to MkDocs this spring.", 0.45, 0.44),
        ("Feature flags are managed in LaunchDarkly.",
         "Feature flags moved over to Unleash, self-hosted.", 0.68, 0.60),
    ],
)  # fmt: skip
def test_the_layer_finds_a_change_no_rule_finds(
    older: str, newer: str, cosine: float, alike: float
) -> None:
    old, new = _pair(older, newer)
    assert judge(old, new, cosine, alike, BAR, MERGE_BAR, rules_only=True).relation == "distinct"
    verdict = judge(old, new, cosine, alike, BAR, MERGE_BAR)
    assert verdict.relation == "change"
    assert verdict.reason.startswith("learned score")
    assert not verdict.confident  # no rule found it: capture leaves it for review


@pytest.mark.parametrize(
    ("older", "newer", "cosine"),
    [
        ("The search backend is Elasticsearch.",
         "The search backend now also feeds OpenSearch.", 0.66),  # a second one
        ("The nightly backup runs at 02:00 UTC.",
         "The nightly backup now keeps 30 days of snapshots.", 0.68),  # another attribute
        ("Billing listens on port 8060.", "We moved orders off port 8004.", 0.55),
    ],
)  # fmt: skip
def test_a_rule_that_says_nothing_is_replaced_overrules_the_layer(
    older: str, newer: str, cosine: float
) -> None:
    old, new = _pair(older, newer)
    model = shipped_model()
    assert model is not None
    veto = why_not_one_fact(old, new) is not None
    score = model.probability(signals(old.facts, new.facts, cosine, cosine, False, veto))
    verdict = judge(old, new, cosine, cosine, BAR, MERGE_BAR)
    assert verdict.relation != "change", verdict.reason
    if newer.startswith("The search"):
        assert score >= model.threshold  # the layer alone would have called it a change


def test_a_change_is_confident_only_when_the_newer_says_it_changed() -> None:
    old, said = _pair("The reports worker listens on port 7001.",
                      "The reports worker moved from port 7001 to port 7400.")  # fmt: skip
    verdict = judge(old, said, 0.78, 0.75, BAR, MERGE_BAR)
    assert (verdict.relation, verdict.confident) == ("change", True)
    old, bare = _pair("The reports worker listens on port 7001.",
                      "The reports worker listens on port 7400.")  # fmt: skip
    verdict = judge(old, bare, 0.88, 0.92, BAR, MERGE_BAR)
    assert (verdict.relation, verdict.confident) == ("change", False)
    old, instead = _pair("let's go with structlog for logging",
                         "let's use loguru instead of structlog")  # fmt: skip
    verdict = judge(old, instead, 0.7, 0.6, BAR, MERGE_BAR)
    assert (verdict.relation, verdict.confident) == ("change", True)


@pytest.mark.parametrize(
    ("older", "newer"),
    [
        ("Access tokens live for one hour.", "Access tokens expire after 60 minutes."),
        ("The rate limit is 600 requests per minute.", "The rate limit is 10 requests a second."),
        ("The cache keeps entries for 2 days.", "The cache keeps entries for 48 hours."),
    ],
)
def test_one_amount_in_other_units_is_no_change(older: str, newer: str) -> None:
    old, new = _pair(older, newer)
    assert judge(old, new, 0.85, 0.8, BAR, MERGE_BAR).relation != "change"


def test_another_amount_in_other_units_is_a_change() -> None:
    old, new = _pair("Access tokens live for 15 minutes.", "Access tokens live for one hour now.")
    assert judge(old, new, 0.85, 0.8, BAR, MERGE_BAR).relation == "change"
    old, new = _pair("The rate limit is 600 requests per minute.",
                     "The rate limit is 20 requests a second now.")  # fmt: skip
    assert judge(old, new, 0.85, 0.8, BAR, MERGE_BAR).relation == "change"


def test_the_shipped_weights_are_read_and_stale_ones_refused(tmp_path: Path) -> None:
    model = read_model(DEFAULT_PATH)
    assert len(model.weights) == len(SIGNAL_NAMES)
    assert 0.5 <= model.threshold < 1.0
    stale = json.loads(DEFAULT_PATH.read_text())
    stale["signals"] = stale["signals"][:-1]
    path = tmp_path / "pair_model.json"
    path.write_text(json.dumps(stale))
    with pytest.raises(ValueError, match="other signals"):
        read_model(path)
    assert shipped_model(path) is None  # the rules decide alone
    assert shipped_model(tmp_path / "missing.json") is None


def test_a_held_out_run_shows_counts_and_never_a_pair() -> None:
    from benchmarks.consolidation_pairs_bench import held_out_lines

    said = [("change", "Builds run on Jenkins.", "Builds moved to Buildkite.", 0.6),
            ("restatement", "Port is 7001.", "Port is 7400.", 0.9)]  # fmt: skip
    rows = []
    for n, (label, older, newer, cosine) in enumerate(said):
        pair = {"id": f"h{n}", "split": "x", "label": label, "older": older, "newer": newer}
        rows.append((pair, judge(*_pair(older, newer), cosine, cosine, BAR, MERGE_BAR)))
    shown = "\n".join(held_out_lines(rows))
    assert "supersede precision" in shown
    assert "restatement -> change 1, restatement 0, distinct 0" in shown
    for pair, _ in rows:
        for text in (pair["older"], pair["newer"], pair["id"]):
            assert text not in shown


def test_the_plans_judge_uses_the_layer_from_the_cosine_bar_up_not_below_it() -> None:
    """Consolidation's plan calls `change` without `rules_only`: a change only the
    layer finds is planned at the cosine bar itself, and never under it, however
    sure the layer is (0.83 here, its threshold 0.78)."""
    old, new = _pair("Our CI pipeline runs on Jenkins.",
                     "CI moved to GitHub Actions last month.")  # fmt: skip
    at_bar = change(old, new, BAR, 0.34, BAR)
    assert at_bar is not None
    assert at_bar.reason.startswith("learned score")
    assert change(old, new, BAR - 0.01, 0.34, BAR) is None


@pytest.mark.parametrize(
    ("older", "newer"),
    [
        ("The reports worker listens on port 7001.",
         "The reports worker listens on port 7400, not 7001."),  # names the old value as gone
        ("The API is hosted on Heroku.", "The API is hosted on Fly.io, off Heroku."),  # its term
        ("Orders listen on port 8004.", "Orders listen on port 8060, off port 8004."),  # gone
    ],
)  # fmt: skip
def test_naming_what_was_before_is_saying_it_changed(older: str, newer: str) -> None:
    """Each way of saying what was before is enough on its own for capture's
    confident tier: no change word ("moved", "now") is needed beside it."""
    old, new = _pair(older, newer)
    assert not new.facts.change
    assert said_changed(old.facts, new.facts)
    assert replaces_nothing(old.facts, new.facts) is None  # the gone value is the older's


def test_a_change_word_the_older_lacks_keeps_a_restatement_apart() -> None:
    """By the rules alone, "now uses" beside "uses" is not the same statement said
    again (it says something changed); two that both say it moved are."""
    old, new = _pair("The team uses Postgres for the orders service.",
                     "The team now uses Postgres for the orders service.")  # fmt: skip
    verdict = judge(old, new, 0.95, 0.9, BAR, MERGE_BAR, rules_only=True)
    assert (verdict.relation, verdict.reason) == (
        "distinct",
        "says something changed that the older did not",
    )
    old, new = _pair("The orders service moved to Postgres.",
                     "The orders service has moved to Postgres.")  # fmt: skip
    assert judge(old, new, 0.95, 0.9, BAR, MERGE_BAR, rules_only=True).relation == "restatement"
