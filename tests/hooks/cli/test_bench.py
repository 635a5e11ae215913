"""`vault bench retrieval` on a tiny dataset in the LoCoMo format."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

pytestmark = pytest.mark.model

MEMORIES = [
    ("c1:D1:1", "Ana: I adopted a grey cat named Pixel last spring.", "2023-05-01T10:00:00"),
    ("c1:D1:2", "Ben: My sister runs a bakery in Porto.", "2023-05-01T10:01:00"),
    ("c1:D2:1", "Ana: We drove to the coast and surfed all weekend.", "2023-09-10T09:00:00"),
    ("c1:D2:2", "Ben: I started learning the cello in August.", "2023-09-10T09:02:00"),
]
OTHER_CONVERSATION = [  # a foreign vault for c1's questions: other people, other talk
    ("c2:D1:1", "Joe: The quarterly tax forms are due next Tuesday.", "2023-06-01T08:00:00"),
    ("c2:D1:2", "Kim: I repainted the kitchen a pale yellow.", "2023-06-01T08:01:00"),
]
QUERIES = [
    ("What is the name of Ana's cat?", ["c1:D1:1"], 4),
    ("Which instrument is Ben learning?", ["c1:D2:2"], 4),
]


def write(folder: Path, memories: list[tuple[str, str, str]] = MEMORIES) -> None:
    folder.mkdir()
    with (folder / "memories.jsonl").open("w") as handle:
        for memory_id, text, stamp in memories:
            session = memory_id.split(":")[0] + ":S" + memory_id.split(":")[1][1:]
            handle.write(
                json.dumps(
                    {
                        "id": memory_id,
                        "text": text,
                        "session": session,
                        "timestamp": stamp,
                        "conv": memory_id.split(":")[0],
                    }
                )
                + "\n"
            )
    with (folder / "queries.jsonl").open("w") as handle:
        for number, (query, relevant, category) in enumerate(QUERIES):
            handle.write(
                json.dumps(
                    {
                        "id": f"c1:q{number}",
                        "conv": "c1",
                        "query": query,
                        "relevant": relevant,
                        "category": category,
                    }
                )
                + "\n"
            )


def bench(data: Path, *options: str) -> dict[str, Any]:
    result = subprocess.run(
        [sys.executable, "-m", "hooks.cli", "bench", "retrieval", "--data", str(data), "--json",
         *options],
        capture_output=True,
        text=True,
        timeout=300,
    )  # fmt: skip
    assert result.returncode == 0, result.stderr
    report: dict[str, Any] = json.loads(result.stdout)
    return report


def test_bench_reports_metrics_with_and_without_decay(tmp_path: Path) -> None:
    data = tmp_path / "data"
    write(data)
    report = bench(data, "--path", "rank")
    assert "hook" not in report or not report["hook"]
    static = next(r for r in report["results"] if not r["decay"])
    assert static["questions"] == 2
    assert static["overall"]["R@10"] == 1.0
    assert static["overall"]["MRR"] == 1.0
    decayed = next(r for r in report["results"] if r["decay"])
    # The cat memory is four months older than `now`: with decay it is hidden.
    assert decayed["overall"]["R@10"] == 0.5


def test_the_hook_path_is_the_default_and_asks_every_vault(tmp_path: Path) -> None:
    """What the prompt hook injects, in the question's own vault and in the other
    conversation's; the curve re-tiers the same searches under other bars."""
    data = tmp_path / "data"
    write(data, MEMORIES + OTHER_CONVERSATION)
    report = bench(data)
    assert report["results"] == []  # no ranking unless asked for
    hook = report["hook"]["hybrid"]
    own, foreign = hook["own"], hook["foreign"]
    assert own["questions"] == 2
    assert own["injected_recall"] == 1.0  # Pixel and the cello are injected
    assert 1 <= own["memories"] <= 4  # at most two confident and two hedged
    assert 0 < own["chars"] <= 2000
    assert foreign["questions"] == 2  # c1's two questions in c2's vault (c2 has none)
    assert foreign["with_confident"] == 0.0  # tax forms and paint mean nothing to them
    curve = {(point["setting"], point["value"]): point for point in hook["curve"]}
    lenient, strict = curve[("confident_cosine", 0.0)], curve[("confident_cosine", 0.6)]
    assert lenient["with_confident"] >= strict["with_confident"]
    lenient, strict = curve[("hedged_cosine", 0.0)], curve[("hedged_cosine", 0.5)]
    assert lenient["foreign_with_any"] >= strict["foreign_with_any"]
    assert lenient["chars_p50"] >= strict["chars_p50"]


def test_bench_refuses_a_folder_without_the_files(tmp_path: Path) -> None:
    result = subprocess.run(
        [sys.executable, "-m", "hooks.cli", "bench", "retrieval", "--data", str(tmp_path)],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert result.returncode == 1
    assert "memories.jsonl: missing" in result.stderr


def test_questions_the_vault_cannot_answer_and_the_halves(tmp_path: Path) -> None:
    """A question without relevant memories is not ranked (it has no answer) but
    what the hook injects for it is counted as noise in its own vault; `--split`
    keeps one half's questions; the cost of the injections is reported."""
    data = tmp_path / "data"
    write(data, MEMORIES + OTHER_CONVERSATION)
    rows = [json.loads(line) for line in (data / "queries.jsonl").read_text().splitlines()]
    rows[0]["split"], rows[1]["split"] = "tune", "held-out"
    question = "Which database does the billing service use?"
    rows.append({"id": "c1:q2", "conv": "c1", "query": question, "relevant": [], "split": "tune"})
    (data / "queries.jsonl").write_text("".join(json.dumps(r) + "\n" for r in rows))
    report = bench(data, "--path", "all")
    static = next(r for r in report["results"] if not r["decay"])
    assert static["questions"] == 2  # the unanswerable question is not ranked
    hook = report["hook"]["hybrid"]
    assert hook["own"]["questions"] == 2
    assert hook["absent"]["questions"] == 1
    assert hook["absent"]["with_any"] + hook["absent"]["with_nothing"] == 1.0
    own = hook["own"]
    assert 0 < own["chars_p50"] <= own["chars_p95"] <= 2000
    assert own["tokens_p50"] == round(own["chars_p50"] / 4)
    assert own["with_nothing"] == 0.0
    tune = bench(data, "--path", "hook", "--split", "tune")["hook"]["hybrid"]
    assert (tune["own"]["questions"], tune["absent"]["questions"]) == (1, 1)


def test_two_sets_are_reported_side_by_side(tmp_path: Path) -> None:
    write(tmp_path / "first")
    write(tmp_path / "second")
    result = subprocess.run(
        [sys.executable, "-m", "hooks.cli", "bench", "retrieval", "--data",
         str(tmp_path / "first"), "--data", str(tmp_path / "second")],
        capture_output=True, text=True, timeout=300,
    )  # fmt: skip
    assert result.returncode == 0, result.stderr
    assert "== first\nhook path" in result.stdout
    assert "== second\nhook path" in result.stdout
