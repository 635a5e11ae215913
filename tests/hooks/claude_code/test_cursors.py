"""Transcript cursors survive a broken cursors.json: the journal and the entries
that still read bring every offset back, so nothing is captured twice."""

from __future__ import annotations

import json
from pathlib import Path

from hooks.claude_code.cursors import Cursors


def advanced(state: Path, count: int) -> Cursors:
    cursors = Cursors(state)
    for number in range(count):
        cursors.advance(f"/claude/projects/-a/t{number}.jsonl", 100 * (number + 1), f"s{number}",
                        "2026-01-01T09:00:00Z", number)  # fmt: skip
    return cursors


def test_a_broken_cursors_file_is_rebuilt_from_the_journal(tmp_path: Path) -> None:
    cursors = advanced(tmp_path, 3)
    expected = cursors.offsets()
    (tmp_path / "cursors.json").write_text("{ not json at all")
    assert Cursors(tmp_path).offsets() == expected
    assert json.loads((tmp_path / "cursors.json").read_text()).keys() == expected.keys()
    assert [p.name.split(".corrupt-")[0] for p in tmp_path.glob("*.corrupt-*")] == ["cursors.json"]


def test_a_torn_journal_line_is_skipped(tmp_path: Path) -> None:
    cursors = advanced(tmp_path, 2)
    with open(tmp_path / "captured.jsonl", "a") as journal:
        journal.write('{"transcript": "/claude/projects/-a/t9.jsonl", "off')
    (tmp_path / "cursors.json").write_text("")
    assert cursors.offsets() == {"/claude/projects/-a/t0.jsonl": 100,
                                 "/claude/projects/-a/t1.jsonl": 200}  # fmt: skip


def test_without_a_journal_the_entries_before_a_cut_still_count(tmp_path: Path) -> None:
    advanced(tmp_path, 3)
    (tmp_path / "captured.jsonl").unlink()
    text = (tmp_path / "cursors.json").read_text()
    (tmp_path / "cursors.json").write_text(text[: text.index("t2.jsonl")])
    assert Cursors(tmp_path).offsets() == {"/claude/projects/-a/t0.jsonl": 100,
                                           "/claude/projects/-a/t1.jsonl": 200}  # fmt: skip


def test_the_journal_is_compacted_when_large(tmp_path: Path, monkeypatch) -> None:
    monkeypatch.setattr("hooks.claude_code.cursors.JOURNAL_MAX_BYTES", 2000)
    cursors = advanced(tmp_path, 3)
    for offset in range(200, 260):
        cursors.advance("/claude/projects/-a/t0.jsonl", offset, "s0", "2026-01-01T09:00:00Z", 0)
    lines = (tmp_path / "captured.jsonl").read_text().splitlines()
    assert len(lines) < 30
    assert cursors.offsets()["/claude/projects/-a/t0.jsonl"] == 259
