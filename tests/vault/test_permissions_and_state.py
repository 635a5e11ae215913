"""New files honour the umask (memories are private notes), an existing file
keeps its mode, and a state file that does not parse is set aside, never
silently replaced by an empty one."""

from __future__ import annotations

import json
import logging
import os
import stat
from collections.abc import Iterator
from pathlib import Path

import pytest

from vault.atomic import atomic_write
from vault.clock import parse_time
from vault.daily import append_daily
from vault.layout import Vault
from vault.state import JsonState
from vault.store import MemoryStore


def mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


@pytest.fixture
def umask_077() -> Iterator[None]:
    previous = os.umask(0o077)
    yield
    os.umask(previous)


def test_files_created_under_umask_077_are_0600(vault: Vault, umask_077: None) -> None:
    store = MemoryStore(vault)
    memory = store.create("2026-01-01-private-note-0001", {"id": "2026-01-01-private-note-0001"},
                          "a private note\n")  # fmt: skip
    append_daily(vault, parse_time("2026-01-01T09:00:00Z"), "- a line")
    JsonState(vault.state_dir / "cursors.json").update(lambda data: data.update(a=1))
    periodic = vault.note_dir("weekly") / "2026-W01.md"
    atomic_write(periodic, b"# week 1\n")
    for path in (memory, vault.daily_dir / "2026-01-01.md", vault.state_dir / "cursors.json",
                 periodic):  # fmt: skip
        assert mode(path) == 0o600, path


def test_files_created_under_umask_022_are_0644(tmp_path: Path) -> None:
    previous = os.umask(0o022)
    try:
        atomic_write(tmp_path / "note.md", b"x")
    finally:
        os.umask(previous)
    assert mode(tmp_path / "note.md") == 0o644


def test_an_existing_file_keeps_its_mode(vault: Vault) -> None:
    store = MemoryStore(vault)
    path = store.create("2026-01-01-shared-note-0002", {"id": "2026-01-01-shared-note-0002",
                        "recalls": 0}, "shared\n")  # fmt: skip
    path.chmod(0o640)
    store.update("2026-01-01-shared-note-0002", lambda record: {"recalls": 1})
    assert mode(path) == 0o640


@pytest.mark.parametrize("garbage", [b"{not json", b"\xff\xfe", b"[1, 2]", b""])
def test_a_state_file_that_does_not_parse_is_set_aside_and_logged(
    tmp_path: Path, garbage: bytes, caplog: pytest.LogCaptureFixture
) -> None:
    path = tmp_path / ".state" / "maintenance.json"
    path.parent.mkdir()
    path.write_bytes(garbage)
    state = JsonState(path)
    with caplog.at_level(logging.WARNING):
        assert state.read() == {}
    [aside] = [p for p in path.parent.iterdir() if p.name.startswith("maintenance.json.corrupt-")]
    assert aside.read_bytes() == garbage
    assert "did not parse" in caplog.text
    state.update(lambda data: data.update(last_prune="x"))
    assert json.loads(path.read_text()) == {"last_prune": "x"}
    assert aside.read_bytes() == garbage


def test_a_corrupt_state_file_is_rebuilt_by_its_recovery(tmp_path: Path) -> None:
    path = tmp_path / "cursors.json"
    path.write_text('{"a": {"offset": 1')
    state = JsonState(path, recover=lambda corrupt: {"a": {"offset": len(corrupt)}})
    assert state.read() == {"a": {"offset": 18}}
    assert json.loads(path.read_text()) == {"a": {"offset": 18}}
    assert len(list(tmp_path.glob("cursors.json.corrupt-*"))) == 1


def test_a_missing_state_file_is_simply_empty(tmp_path: Path) -> None:
    assert JsonState(tmp_path / "none.json").read() == {}
    assert list(tmp_path.iterdir()) == []
