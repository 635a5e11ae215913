"""`vault bench retrieval` on a tiny dataset in the LoCoMo format."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.model

MEMORIES = [
    ("c1:D1:1", "Ana: I adopted a grey cat named Pixel last spring.", "2023-05-01T10:00:00"),
    ("c1:D1:2", "Ben: My sister runs a bakery in Porto.", "2023-05-01T10:01:00"),
    ("c1:D2:1", "Ana: We drove to the coast and surfed all weekend.", "2023-09-10T09:00:00"),
    ("c1:D2:2", "Ben: I started learning the cello in August.", "2023-09-10T09:02:00"),
]
QUERIES = [
    ("What is the name of Ana's cat?", ["c1:D1:1"], 4),
    ("Which instrument is Ben learning?", ["c1:D2:2"], 4),
]


def write(folder: Path) -> None:
    folder.mkdir()
    with (folder / "memories.jsonl").open("w") as handle:
        for memory_id, text, stamp in MEMORIES:
            session = "c1:S" + memory_id.split(":")[1][1:]
            handle.write(
                json.dumps(
                    {
                        "id": memory_id,
                        "text": text,
                        "session": session,
                        "timestamp": stamp,
                        "conv": "c1",
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


def test_bench_reports_metrics_with_and_without_decay(tmp_path: Path) -> None:
    data = tmp_path / "data"
    write(data)
    result = subprocess.run(
        [sys.executable, "-m", "hooks.cli", "bench", "retrieval", "--data", str(data), "--json"],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert result.returncode == 0, result.stderr
    report = json.loads(result.stdout)
    static = next(r for r in report["results"] if not r["decay"])
    assert static["questions"] == 2
    assert static["overall"]["R@10"] == 1.0
    assert static["overall"]["MRR"] == 1.0
    decayed = next(r for r in report["results"] if r["decay"])
    # The cat memory is four months older than `now`: with decay it is hidden.
    assert decayed["overall"]["R@10"] == 0.5


def test_bench_refuses_a_folder_without_the_files(tmp_path: Path) -> None:
    result = subprocess.run(
        [sys.executable, "-m", "hooks.cli", "bench", "retrieval", "--data", str(tmp_path)],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert result.returncode == 1
    assert "memories.jsonl: missing" in result.stderr
