"""Captured memories keep the order they were said in (`seq`), across incremental
captures of one transcript, even when every turn has the same timestamp."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from hooks.claude_code.capture import capture_transcript
from memory.service import MemoryService

pytestmark = pytest.mark.model
SAID = "2026-01-01T09:00:00Z"


def append_turns(path: Path, texts: list[str], start: int) -> None:
    with path.open("a") as handle:
        for number, text in enumerate(texts, start):
            line = {"type": "user", "uuid": f"u{number}", "sessionId": "s1", "cwd": "/nowhere",
                    "timestamp": SAID, "message": {"role": "user", "content": text}}  # fmt: skip
            handle.write(json.dumps(line) + "\n")


def test_seq_follows_the_transcript_across_captures(
    service: MemoryService, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("CLAUDE_CONFIG_DIR", str(tmp_path / "claude"))
    folder = tmp_path / "claude" / "projects" / "-nowhere"
    folder.mkdir(parents=True)
    path = folder / "s1.jsonl"  # where Claude Code keeps transcripts: the only place read
    append_turns(path, ["We decided to use Postgres for the billing service.",
                        "From now on, always run the migrations with Alembic."], 0)  # fmt: skip
    first = capture_transcript(service, path)
    append_turns(path, ["I prefer tabs over spaces in every Makefile, always."], 2)
    second = capture_transcript(service, path)
    captured = first.created + second.created
    assert [service.show(m)[0].seq for m in captured] == [1, 2, 3]
    assert len({service.show(m)[0].created for m in captured}) == 1  # one second for all
    assert sorted(captured) != captured  # ids alone would order them otherwise
    assert service.index.catalog.session_ids("s1") == captured
    assert second.next_seq == 4
