"""Durability by fault injection: the sync calls on every write path are
intercepted, and each write must have flushed its new file before renaming it
into place and flushed the folder after, before it returns. A write that skips
either can lose a memory (or leave an empty file) after a power cut."""

from __future__ import annotations

import os
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path

import pytest

from vault import atomic
from vault.daily import append_daily
from vault.layout import Vault
from vault.periodic import append_to_note, containing
from vault.state import JsonState
from vault.store import MemoryStore

Event = tuple[str, str, str]  # ("fsync", path, "") or ("replace", source, target)


@pytest.fixture
def events(monkeypatch: pytest.MonkeyPatch) -> list[Event]:
    """Every fsync (by the path its descriptor names) and rename, in order."""
    seen: list[Event] = []
    real_fsync, real_replace = os.fsync, os.replace

    def fsync(fd: int) -> None:
        seen.append(("fsync", os.readlink(f"/proc/self/fd/{fd}"), ""))
        real_fsync(fd)

    def replace(source: str | Path, target: str | Path) -> None:
        seen.append(("replace", os.path.realpath(source), os.path.realpath(target)))
        real_replace(source, target)

    monkeypatch.setattr(os, "fsync", fsync)
    monkeypatch.setattr(os, "replace", replace)
    return seen


def assert_durable(events: list[Event], root: Path) -> int:
    """Each rename under `root` follows an fsync of its source and is followed by
    an fsync of the target's folder; returns how many renames were checked."""
    renames = [i for i, e in enumerate(events) if e[0] == "replace" and e[2].startswith(str(root))]
    for at in renames:
        _, source, target = events[at]
        synced_before = {path for kind, path, _ in events[:at] if kind == "fsync"}
        synced_after = {path for kind, path, _ in events[at + 1 :] if kind == "fsync"}
        assert source in synced_before, f"{target}: renamed before its data was synced"
        assert os.path.dirname(target) in synced_after, f"{target}: its folder was not synced"
    return len(renames)


NOW = datetime(2026, 3, 2, 9, 0, tzinfo=UTC)
META = {"id": "m1", "created": "2026-03-01T09:00:00Z", "tier": "episodic"}


def new_memory(vault: Vault) -> None:
    MemoryStore(vault).create("m1", META, "Backups run at 02:00 UTC.\n")


def reinforced_memory(vault: Vault) -> None:
    new_memory(vault)
    MemoryStore(vault).update("m1", lambda record: {"recalls": record.recalls + 1})


def rewritten_memory(vault: Vault) -> None:
    new_memory(vault)
    MemoryStore(vault).rewrite("m1", {}, "Backups run at 04:30 UTC.\n")


def state_file(vault: Vault) -> None:
    JsonState(vault.state_dir / "cursors.json").update(lambda data: data.update(a=1))


def daily_log(vault: Vault) -> None:
    append_daily(vault, NOW, "- 09:00 decided to move backups")


def weekly_note(vault: Vault) -> None:
    append_to_note(vault, containing("weekly", NOW), "- moved backups to 04:30", "# Week\n")


WRITES: dict[str, Callable[[Vault], None]] = {
    "a new memory": new_memory,
    "a reinforcement": reinforced_memory,
    "a re-ingest": rewritten_memory,
    "a state file": state_file,
    "a daily log": daily_log,
    "a weekly note": weekly_note,
}


@pytest.mark.parametrize("write", WRITES.values(), ids=list(WRITES))
def test_every_write_syncs_its_file_before_the_rename_and_its_folder_after(
    vault: Vault, events: list[Event], write: Callable[[Vault], None]
) -> None:
    vault.create_folders()
    events.clear()
    write(vault)
    assert assert_durable(events, vault.root.resolve()) >= 1


def test_an_archived_memory_is_in_its_new_folder_after_a_crash(
    vault: Vault, events: list[Event]
) -> None:
    vault.create_folders()
    new_memory(vault)
    events.clear()
    MemoryStore(vault).move("m1", to_archive=True)
    _, source, target = next(e for e in events if e[0] == "replace")
    assert target.startswith(str(vault.archive_dir.resolve()))
    later = [path for kind, path, _ in events[events.index(("replace", source, target)) :]]
    assert os.path.dirname(target) in later  # the archive's entry is on disk
    assert os.path.dirname(source) in later  # and memories/ no longer lists it


def test_atomic_write_leaves_no_temp_file_when_the_write_fails(tmp_path: Path) -> None:
    def failing(temp: str) -> None:
        Path(temp).write_text("half")
        raise OSError("disk full")

    with pytest.raises(OSError, match="disk full"):
        atomic.atomic_replace(tmp_path / "m.md", failing)
    assert list(tmp_path.iterdir()) == []
