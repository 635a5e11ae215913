"""Transcript reading and statement extraction (no model)."""

from __future__ import annotations

import json
from pathlib import Path

from hooks.claude_code.project import normalise_remote, project_identity
from hooks.claude_code.transcript import read_turns
from memory.encode.extract import extract

SAMPLE = Path(__file__).resolve().parents[2] / "fixtures" / "transcript_sample.jsonl"


def test_reference_sample_keeps_the_prompt_and_the_answer_only() -> None:
    turns, offset = read_turns(SAMPLE)
    assert [(t.role, t.text) for t in turns] == [
        ("user", "CI fails on test_parse_iso_dates. Why?"),
        ("assistant", "Two fixture rows lack a UTC offset; adding +00:00 fixes the test."),
    ]
    assert offset == SAMPLE.stat().st_size
    assert turns[0].cwd == "/home/dev/acme-api"


def test_reading_resumes_at_the_cursor_and_leaves_a_half_written_line(tmp_path: Path) -> None:
    path = tmp_path / "t.jsonl"
    line = {"type": "user", "uuid": "u1", "message": {"content": "We decided to use Postgres."}}
    path.write_text(json.dumps(line) + "\n" + '{"type": "user", "uuid": "u2", "mess')
    turns, offset = read_turns(path)
    assert [t.uuid for t in turns] == ["u1"]
    with path.open("a") as handle:
        handle.write('age": {"content": "Always pin dependencies."}}\n')
    turns, end = read_turns(path, offset)
    assert [t.text for t in turns] == ["Always pin dependencies."]
    assert read_turns(path, end) == ([], end)


def test_streamed_assistant_blocks_are_grouped_by_message(tmp_path: Path) -> None:
    path = tmp_path / "t.jsonl"
    lines = [
        {
            "type": "assistant",
            "uuid": f"a{i}",
            "message": {"id": "m1", "content": [{"type": "text", "text": text}]},
        }  # fmt: skip
        for i, text in enumerate(["Summary: we decided", "to keep SQLite."])
    ]
    path.write_text("".join(json.dumps(line) + "\n" for line in lines))
    turns, _ = read_turns(path)
    assert [t.text for t in turns] == ["Summary: we decided\nto keep SQLite."]


def test_extraction_keeps_durable_statements_and_drops_chatter() -> None:
    found = extract(
        [
            ("user", "let's always use pytest fixtures instead of setUp/tearDown here."),
            ("user", "CI fails on test_parse_iso_dates. Why?"),
            ("assistant", "Two fixture rows lack a UTC offset; adding +00:00 fixes the test."),
            ("user", "No, the dates come from the API in local time, convert them first."),
            ("user", "We decided to deploy with blue/green releases on Fly.io."),
            ("user", "ok thanks"),
            ("assistant", "Summary: we decided to pin dateutil below 3.0 for now."),
            ("user", "Our staging database is refreshed every Sunday night."),
            ("user", "Should we always use tabs?"),
        ]
    )
    assert [(s.kind, s.role) for s in found] == [
        ("preference", "user"),
        ("correction", "user"),
        ("decision", "user"),
        ("decision", "assistant"),
        ("fact", "user"),
    ]


def test_project_identity_is_the_remote_for_subfolders_and_worktrees(tmp_path: Path) -> None:
    repo = tmp_path / "project-a"
    (repo / ".git").mkdir(parents=True)
    (repo / ".git" / "config").write_text(
        '[remote "origin"]\n\turl = git@github.com:Acme/Project-A.git\n'
    )
    (repo / "src" / "pkg").mkdir(parents=True)
    worktree = tmp_path / "wt"
    worktree.mkdir()
    gitdir = repo / ".git" / "worktrees" / "wt"
    gitdir.mkdir(parents=True)
    (gitdir / "commondir").write_text("../..\n")
    (worktree / ".git").write_text(f"gitdir: {gitdir}\n")
    expected = "github.com/acme/project-a"
    assert project_identity(repo) == expected
    assert project_identity(repo / "src" / "pkg") == expected
    assert project_identity(worktree) == expected
    assert project_identity(tmp_path) == ""
    assert normalise_remote("https://user@gitlab.com:8443/team/app.git") == "gitlab.com/team/app"
