"""`vault import` and `vault export --jsonl` as a person runs them."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from hooks.cli.main import main
from indexer.embedder import Embedder

pytestmark = pytest.mark.model
LINES = (
    '{"text": "Prefer pytest fixtures over setUp.", "created": "2026-11-29T19:36:00Z"}\n'
    '{"text": "Release freeze from Dec 18.", "source": "chatgpt", "id": "c-1"}\n'
)


def run(root: Path, *args: str) -> Result:
    return CliRunner().invoke(main, ["--vault", str(root), *args])


def test_jsonl_in_and_out_and_in_again(tmp_path: Path, embedder: Embedder) -> None:
    source = tmp_path / "in.jsonl"
    source.write_text(LINES)
    first, second = tmp_path / "first", tmp_path / "second"
    for root in (first, second):
        assert run(root, "init").exit_code == 0
    dry = run(first, "import", "--jsonl", str(source), "--dry-run")
    assert dry.stdout == "Would import: created 2, updated 0, skipped 0 (0 duplicates)\n"
    assert list((first / "memories").iterdir()) == []
    done = run(first, "import", "--jsonl", str(source), "--json", "--now", "2026-12-02")
    assert done.exit_code == 0, done.output
    assert len(json.loads(done.stdout)["created"]) == 2
    assert "2 added" in json.loads(done.stdout)["index"]  # indexed, filed and linked at once
    again = run(first, "import", "--jsonl", str(source))
    assert again.stdout == "Imported: created 0, updated 0, skipped 2 (0 duplicates)\n"
    exported = tmp_path / "out.jsonl"
    assert run(first, "export", "--jsonl", "-o", str(exported)).exit_code == 0
    assert run(second, "import", "--jsonl", str(exported)).exit_code == 0
    assert run(second, "export", "--jsonl").stdout == exported.read_text()


def test_bad_lines_fail_the_run_and_strict_writes_nothing(tmp_path: Path) -> None:
    source = tmp_path / "in.jsonl"
    source.write_text(LINES + '{"text": "x", "created": 1796000000}\n')
    root = tmp_path / "vault"
    run(root, "init")
    strict = run(root, "import", "--jsonl", str(source), "--strict")
    assert strict.exit_code == 1
    assert "line 3: created: must be RFC 3339" in strict.stderr
    assert list((root / "memories").iterdir()) == []
    loose = run(root, "import", "--jsonl", str(source), "--dry-run")
    assert loose.exit_code == 1
    assert loose.stdout.startswith("Would import: created 2")
    assert "error: line 3" in loose.stderr


def test_a_source_must_be_named(tmp_path: Path) -> None:
    result = run(tmp_path / "vault", "import")
    assert result.exit_code == 2
    assert "name a source" in result.stderr
