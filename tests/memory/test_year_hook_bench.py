"""The year's prompt hook figures (benchmarks/year_hook_bench.py): an injected
memory counts as right only when it holds the value true on the day asked, an
earlier value counts as stale, and a question with nothing injected is counted
as such; the reply sizes are those the year's driver received."""

from __future__ import annotations

from typing import Any

from benchmarks import year_run
from benchmarks.year_hook_bench import figures, output_sizes
from benchmarks.year_plan import Item, Question
from benchmarks.year_run import Answer

LANGUAGE = Item(0, "stack", "decision", "the service language", "language", "p",
                versions=[(0, "Go"), (30, "Rust")])  # fmt: skip


def _answer(day: int, texts: list[str], item: int = 0, chatter: int = -1) -> Answer:
    question = Question(day, "which language?", "p", item=item, chatter=chatter)
    injected = {f"m{n}": text for n, text in enumerate(texts)}
    return Answer(question, injected, {}, 1.0, "laptop")


def test_only_the_value_true_that_day_is_right_and_an_earlier_one_is_stale() -> None:
    answers = [
        _answer(40, ["The language is Rust now.", "The language is Go.", "Lunch at noon."]),
        _answer(10, ["The language is Go."]),
        _answer(50, []),
        _answer(50, ["Lunch at noon."], item=-1, chatter=0),
    ]
    result = figures([LANGUAGE], answers, [300, 120, 0, 90])
    assert result["questions"] == 3  # the chatter probe is not a question about a fact
    assert result["injected"] == 4
    assert result["precision"] == 0.5  # Rust on day 40 and Go on day 10
    assert result["stale"] == 0.25  # Go on day 40
    assert result["about_the_subject"] == 0.75
    assert result["recalled"] == 0.667
    assert result["nothing_injected"] == 0.333
    assert result["chatter_probes_with_anything"] == 1.0
    assert (result["chars_p50"], result["chars_p95"]) == (90, 120)


def test_the_reply_sizes_are_recorded_and_the_driver_is_restored() -> None:
    original = year_run.dispatch_reply

    class Reply:
        result: dict[str, Any] = {"output": "x" * 42}

    def fake(service: Any, op: str, args: dict[str, Any]) -> Reply:
        return Reply()

    year_run.dispatch_reply = fake  # type: ignore[assignment]
    try:
        with output_sizes() as sizes:
            year_run.dispatch_reply(None, "prompt_event", {})  # type: ignore[arg-type]
            year_run.dispatch_reply(None, "capture", {})  # type: ignore[arg-type]
        assert sizes == [42]  # only prompts are counted
        assert year_run.dispatch_reply is fake
    finally:
        year_run.dispatch_reply = original
