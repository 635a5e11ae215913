"""Sync between two clones and a bare remote (real git, our merge driver) when
things go wrong: files that are not memories, what a killed git leaves, a purge
against an edit, a consolidation against reinforcements."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from hooks.daemon.auto_sync import driver_command
from memory.context import ServiceContext
from vault import git_sync, tombstones
from vault.clock import parse_time
from vault.errors import MemoryNotFoundError
from vault.git_repo import Git
from vault.layout import Vault
from vault.links import wikilink
from vault.store import MemoryStore
from vault.sync_exchange import STARTED

MID = "2026-01-01-pytest-fixtures-ab12"
SECRET_ID = "2026-01-01-staging-db-password-cd34"
T0 = parse_time("2026-01-01T09:00:00Z")


def _memory(vault: Vault, memory_id: str = MID, body: str = "Prefer pytest fixtures.\n") -> Path:
    meta = {"id": memory_id, "created": T0, "last_access": T0, "stability": 7.0,
            "tier": "episodic", "recalls": 0, "confirmations": 0, "links": []}  # fmt: skip
    return MemoryStore(vault).create(memory_id, meta, body)


def _sync(vault: Vault, name: str) -> git_sync.SyncResult:
    return git_sync.sync(vault, driver_command(), name, T0)


def _tracked(vault: Vault) -> list[str]:
    return Git(vault.root).out("ls-files").splitlines()


@pytest.fixture
def clones(tmp_path: Path) -> tuple[Vault, Vault]:
    remote = tmp_path / "remote.git"
    subprocess.run(["git", "init", "--quiet", "--bare", str(remote)], check=True)
    first, second = Vault(tmp_path / "laptop"), Vault(tmp_path / "desktop")
    for vault in (first, second):
        ServiceContext.init_vault(vault)
    _memory(first)
    _memory(first, SECRET_ID, "The staging database password is hunter2-staging.\n")
    git_sync.init(first, str(remote), driver_command(), "laptop")
    git_sync.init(second, str(remote), driver_command(), "desktop")
    return first, second


def test_only_memories_notes_and_sync_files_are_committed(clones: tuple[Vault, Vault]) -> None:
    first, second = clones
    original = first.memories_dir / f"{MID}.md"
    junk = [
        first.root / ".merge_file_a1B2c3",  # git's, left by a killed merge
        original.with_name(f"{MID} (conflicted copy).md"),  # Dropbox
        original.with_name(f"{MID} 2.md"),  # iCloud
        first.daily_dir / "2026-01-01 (1).md",  # Google Drive, beside the original
        first.root / "notes.txt",
        first.memories_dir / "diagram.png",
    ]
    daily = first.daily_dir / "2026-01-01.md"
    daily.write_text("# 2026-01-01\n\n- 10:00 laptop\n")
    for path in junk:
        path.write_text((daily if path.parent == daily.parent else original).read_text())
    _memory(first, "2026-01-02-a-new-memory-ee55")
    result = _sync(first, "laptop")
    tracked = _tracked(first)
    assert "memories/2026-01-02-a-new-memory-ee55.md" in tracked
    assert "daily/2026-01-01.md" in tracked
    assert not [path for path in junk if path.relative_to(first.root).as_posix() in tracked]
    assert any("not committed" in note for note in result.notes)
    _sync(second, "desktop")
    assert not (second.memories_dir / f"{MID} 2.md").exists()


def test_a_stale_git_lock_is_named_by_status_and_cleared_by_sync(
    clones: tuple[Vault, Vault],
) -> None:
    first, _ = clones
    lock = first.root / ".git" / "index.lock"
    lock.write_text("")  # what a killed `git add` leaves
    assert git_sync.status(first).stale_locks == [".git/index.lock"]
    MemoryStore(first).update(MID, lambda r: {"recalls": r.recalls + 1})
    result = _sync(first, "laptop")
    assert result.pushed
    assert any(".git/index.lock" in note for note in result.notes)
    assert not lock.exists()
    assert git_sync.status(first).stale_locks == []


def test_a_rebase_sync_started_and_was_killed_in_is_undone_and_redone(
    clones: tuple[Vault, Vault],
) -> None:
    first, second = clones
    MemoryStore(first).update(MID, lambda r: {"recalls": r.recalls + 1})
    _sync(first, "laptop")
    MemoryStore(second).update(MID, lambda r: {"recalls": r.recalls + 2})
    git = Git(second.root)
    git.run("add", "--all")
    git.run("commit", "--quiet", "-m", "local")
    git.run("fetch", "--quiet", "origin")
    # The state a sync killed mid-rebase leaves: a rebase stopped, a lock, its record.
    git.run("rebase", "--quiet", "--exec", "false", "origin/main", check=False)
    assert git.operation_in_progress() == "rebase"
    (second.root / ".git" / "index.lock").write_text("")
    (second.state_dir / "sync.json").write_text(f'{{"{STARTED}": "rebase"}}')
    result = _sync(second, "desktop")
    assert result.pushed
    assert git.operation_in_progress() == ""
    _sync(first, "laptop")
    assert MemoryStore(first).read(MID).recalls == 3  # nothing lost, nothing twice


def test_a_purge_wins_over_an_edit_made_meanwhile_on_the_other_machine(
    clones: tuple[Vault, Vault],
) -> None:
    first, second = clones
    store = MemoryStore(first)
    created = tombstones.created_of(store.read(SECRET_ID).path.read_text())
    tombstones.record(first.root, SECRET_ID, created, T0)  # what `vault purge` does first
    store.delete(SECRET_ID)
    MemoryStore(second).update(SECRET_ID, lambda r: {"recalls": r.recalls + 1})
    _sync(first, "laptop")
    result = _sync(second, "desktop")
    assert any("purged" in note and SECRET_ID in note for note in result.notes)
    assert result.conflicts == []
    _sync(first, "laptop")
    for vault in clones:
        with pytest.raises(MemoryNotFoundError):
            MemoryStore(vault).read(SECRET_ID)
        assert not [path for path in _tracked(vault) if SECRET_ID in path]
        assert "hunter2" not in (vault.root / tombstones.TOMBSTONES).read_text()


def test_the_editing_side_syncing_first_does_not_bring_a_purged_memory_back(
    clones: tuple[Vault, Vault],
) -> None:
    first, second = clones
    MemoryStore(second).update(SECRET_ID, lambda r: {"recalls": r.recalls + 1})
    _sync(second, "desktop")
    store = MemoryStore(first)
    created = tombstones.created_of(store.read(SECRET_ID).path.read_text())
    tombstones.record(first.root, SECRET_ID, created, T0)
    store.delete(SECRET_ID)
    result = _sync(first, "laptop")  # its deletion meets the pushed edit
    assert any("purged" in note for note in result.notes)
    _sync(second, "desktop")
    for vault in clones:
        assert not [path for path in _tracked(vault) if SECRET_ID in path]


def test_a_memory_written_again_after_a_purge_is_kept(clones: tuple[Vault, Vault]) -> None:
    first, second = clones
    store = MemoryStore(first)
    tombstones.record(first.root, SECRET_ID, tombstones.created_of(
        store.read(SECRET_ID).path.read_text()), T0)  # fmt: skip
    store.delete(SECRET_ID)
    _sync(first, "laptop")
    _sync(second, "desktop")
    meta = {"id": SECRET_ID, "created": parse_time("2026-02-01T09:00:00Z"), "recalls": 0}
    MemoryStore(second).create(SECRET_ID, meta, "Rotated: the password lives in the vault.\n")
    _sync(second, "desktop")
    _sync(first, "laptop")
    assert MemoryStore(first).read(SECRET_ID).body.startswith("Rotated")


def test_reinforcements_of_a_merged_memory_carry_to_the_merged_one(
    clones: tuple[Vault, Vault],
) -> None:
    first, second = clones
    merged_id = "2026-01-03-pytest-fixtures-merged-ff66"
    late = parse_time("2026-01-04T09:00:00Z")
    # The laptop consolidates (vault/consolidation writes exactly these fields) ...
    meta = {"id": merged_id, "created": T0, "last_access": T0, "stability": 7.0,
            "tier": "episodic", "recalls": 0, "confirmations": 0,
            "merged_from": [wikilink(MID)]}  # fmt: skip
    MemoryStore(first).create(merged_id, meta, "Prefer pytest fixtures, always.\n")
    MemoryStore(first).move(MID, to_archive=True,
                            mutate=lambda _: {"merged_into": [wikilink(merged_id)]})  # fmt: skip
    # ... while the desktop recalls the source twice and confirms it once.
    MemoryStore(second).update(MID, lambda r: {"recalls": 2, "confirmations": 1,
                                               "stability": 39.4, "last_access": late})  # fmt: skip
    _sync(first, "laptop")
    result = _sync(second, "desktop")
    assert any(f"to {merged_id}" in note for note in result.notes)
    _sync(first, "laptop")
    for vault in clones:
        merged = MemoryStore(vault).read(merged_id)
        assert (merged.recalls, merged.confirmations) == (2, 1)
        assert merged.stability == 39.4
        assert merged.last_access == late
        assert MemoryStore(vault).read(MID).archived


def test_private_memories_are_never_pushed(clones: tuple[Vault, Vault], tmp_path: Path) -> None:
    first, second = clones
    folder = first.memories_dir / "private"
    folder.mkdir()
    meta = {"id": "2026-01-02-my-own-note-aa11", "created": T0, "recalls": 0}
    (folder / "2026-01-02-my-own-note-aa11.md").write_text(
        "---\nid: 2026-01-02-my-own-note-aa11\n---\nSalary talk with Dana went well.\n"
    )
    MemoryStore(first).create("2026-01-02-marked-note-bb22", {**meta, "id":
        "2026-01-02-marked-note-bb22", "private": True}, "Dana is leaving in March.\n")  # fmt: skip
    MemoryStore(first).update(MID, lambda _: {"private": True})  # shared once, private now
    _sync(first, "laptop")
    _sync(second, "desktop")
    history = subprocess.run(["git", "log", "--all", "-p"], cwd=tmp_path / "remote.git",
                             capture_output=True, text=True, check=True).stdout  # fmt: skip
    assert "Dana" not in history
    assert "my-own-note" not in history
    assert "marked-note" not in history
    assert not (second.memories_dir / f"{MID}.md").exists()  # left the shared tree
    assert MemoryStore(first).read(MID).extra["private"] is True  # still here
    MemoryStore(first).update(MID, lambda r: {"recalls": r.recalls + 1})
    assert _sync(first, "laptop").notes == []  # private is not "left out"
