"""What capture keeps from a person's turns: explicit cues win, opt-outs never
get through, a glued one-off command is cut off, and the shipped classifier
loads and scores with the real model."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from indexer.embedder import Embedder
from memory.encode.capture import capture_scorer, statements_from
from memory.encode.durable_classifier import (
    DEFAULT_PATH,
    ClassifierUnavailable,
    DurableClassifier,
    EmbeddingScorer,
    shipped_classifier,
)
from memory.encode.extract import RuleScorer, durable_part, extract
from memory.encode.turn_text import prepare
from memory.service import MemoryService


@pytest.fixture(scope="module")
def scorer(embedder: Embedder) -> EmbeddingScorer:
    classifier = DurableClassifier.load()
    return EmbeddingScorer(classifier, embedder)


def kept(text: str, scorer: EmbeddingScorer) -> list[str]:
    return [s.text for s in extract([("user", text)], scorer=scorer)]


def score(text: str, scorer: EmbeddingScorer) -> float:
    turn = prepare(text)
    assert turn is not None
    return scorer([turn])[0]


@pytest.mark.model
@pytest.mark.parametrize(
    ("bare", "cued"),
    [
        ("the demo box is slow today", "fyi the demo box is slow today"),
        ("the reviewer is Sam", "for the record, the reviewer is Sam"),
        ("builds go out from my laptop", "builds go out from my laptop, remember that"),
        ("the dashboard needs a refresh", "note that the dashboard needs a refresh"),
    ],
)
def test_an_explicit_cue_keeps_what_the_classifier_would_drop(
    bare: str, cued: str, scorer: EmbeddingScorer
) -> None:
    assert score(bare, scorer) < scorer.threshold
    assert kept(bare, scorer) == []
    assert kept(cued, scorer) == [bare]


@pytest.mark.model
@pytest.mark.parametrize(
    "text",
    [
        "<private>we always deploy on fridays, remember that</private>",
        "Please keep this between us: <private>the pricing team plans a 15% increase</private>",
        "don't remember this, but we never run migrations on weekends",
        "do not save this: fyi the prod database is called tiger",
        "off the record, we always skip the staging deploy",
        "don't save this anywhere, remember that the admin role is bg-admin",
    ],
)
def test_opt_outs_are_never_stored_even_with_a_cue(
    text: str, scorer: EmbeddingScorer, service: MemoryService
) -> None:
    assert kept(text, scorer) == []
    assert statements_from(service, [("user", text)]) == []


@pytest.mark.model
def test_a_one_off_command_glued_to_a_statement_is_not_stored(scorer: EmbeddingScorer) -> None:
    assert kept("run the linter - and fyi we never commit generated files", scorer) == [
        "we never commit generated files"
    ]
    glued = "bump the retry limit to 5 and rerun. we never retry card payments on a 5xx"
    assert kept(glued, scorer) == ["we never retry card payments on a 5xx"]
    assert kept("run the linter again", scorer) == []


def test_the_new_value_of_a_change_is_stored_with_it() -> None:
    """A change said in two clauses is stored whole: the clause with the new value
    and "from today on" is the change, not a remark about today (the year bench's
    "We moved orders off port 8006; it is on port 8003 from today on." lost 8003)."""
    change = prepare("We moved the ledger api off port 7310; it is on port 7320 from today on.")
    assert change is not None
    assert durable_part(change).endswith("it is on port 7320 from today on.")
    glued = prepare("We pin protobuf at 4.25 for the codegen. Let me check that today.")
    assert glued is not None
    assert durable_part(glued) == "We pin protobuf at 4.25 for the codegen."


@pytest.mark.model
def test_plain_statements_are_kept_and_chatter_is_not(scorer: EmbeddingScorer) -> None:
    durable = [
        "the Redis for sessions runs on port 6380 here",
        "uploads are capped at 25 MB per file",
        "every service exposes /healthz for the load balancer",
        "check with me every time before dropping a table",
        "let's always use pytest fixtures instead of setUp/tearDown for this codebase — tried "
        "unittest style on a past project and sharing fixtures across test files was a pain.",
    ]
    transient = [
        "heading out for a coffee, carry on with the migration",
        "nice, that worked",
        "should I use TestCase.setUp() here or something else?",
        'Traceback (most recent call last):\n  File "app.py", line 3\nValueError: bad',
    ]
    found = extract([("user", text) for text in durable + transient], scorer=scorer)
    assert [s.turn for s in found] == list(range(len(durable)))


@pytest.mark.model
def test_the_shipped_classifier_loads_and_its_embedding_weights_count(
    scorer: EmbeddingScorer, embedder: Embedder, service: MemoryService
) -> None:
    classifier = scorer.classifier
    assert classifier.model == embedder.name
    assert classifier.embedding_weights.shape == (embedder.dimension,)
    assert 0.5 <= classifier.threshold < 0.95
    assert isinstance(capture_scorer(service), EmbeddingScorer)
    turns = [t for t in map(prepare, ["uploads are capped at 25 MB per file"]) if t]
    without = DurableClassifier(
        classifier.feature_weights, np.zeros_like(classifier.embedding_weights),
        classifier.bias, classifier.threshold, classifier.model,
    )  # fmt: skip
    assert scorer(turns)[0] != pytest.approx(EmbeddingScorer(without, embedder)(turns)[0])
    assert scorer(turns)[0] != pytest.approx(RuleScorer()(turns)[0])


def test_a_stale_classifier_file_is_refused_and_capture_falls_back_on_the_rules(
    tmp_path: Path,
) -> None:
    stale = tmp_path / "stale.npz"
    with np.load(DEFAULT_PATH, allow_pickle=False) as data:
        arrays = {name: data[name] for name in data.files}
    arrays["feature_names"] = arrays["feature_names"][:-1]
    np.savez(stale, **arrays)
    with pytest.raises(ClassifierUnavailable, match="re-train"):
        DurableClassifier.load(stale)
    assert shipped_classifier(stale) is None
    assert shipped_classifier(tmp_path / "missing.npz") is None


def test_redaction_runs_before_the_turn_is_split() -> None:
    text = "we deploy with the key AKIAIOSFODNN7EXAMPLE. and we never deploy on fridays"
    turn = prepare(text)
    assert turn is not None
    assert all("AKIA" not in s.text for s in turn.segments)
    found = extract([("user", text)], scorer=RuleScorer())
    assert found
    assert all("AKIAIOSFODNN7EXAMPLE" not in s.text for s in found)


def test_questions_and_pasted_output_are_left_out_of_what_is_scored() -> None:
    turn = prepare(
        'do we pin numpy? we always pin numpy below 2\nthe 2.x ABI broke our wheels\n  File "x.py"'
    )
    assert turn is not None
    assert turn.body == "we always pin numpy below 2 the 2.x ABI broke our wheels"
    assert turn.asked
    assert prepare("Error: listen EADDRINUSE: address already in use :::5173") is None
    assert prepare("why is the build red?") is None


def test_a_pasted_progress_bar_is_not_taken_for_the_persons_words() -> None:
    """A line mostly of symbols (a progress bar, a table rule) is a tool's output,
    dropped before anything is judged; the sentences around it stay."""
    from memory.encode.turn_text import without_output

    turn = (
        "Keep the retry budget at three attempts.\n"
        "[=====>      ] 45% |##########-----| 3/7\n"
        "The queue drains nightly."
    )
    assert without_output(turn) == (
        "Keep the retry budget at three attempts.\nThe queue drains nightly."
    )


def test_now_that_gives_a_reason_not_a_moment() -> None:
    """ "Now that the fix landed, we pin numpy to 2.1" states a lasting pin and its
    reason; "now" alone ("deploy now") is still about this moment."""
    from memory.encode.capture_features import fired

    assert "time_deixis" not in fired("Now that the fix landed upstream, we pin numpy to 2.1.")
    assert "time_deixis" in fired("Deploy the hotfix now, before the traffic peak.")
