"""Git sync between clones of one vault on this machine (a bare remote in a
temp folder), with real git and our merge driver run by git itself."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from hooks.daemon.auto_sync import driver_command
from memory.context import ServiceContext
from vault import git_sync
from vault.clock import parse_time
from vault.errors import VaultError
from vault.layout import Vault
from vault.store import MemoryStore

MID = "2026-01-01-pytest-fixtures-ab12"
T0 = parse_time("2026-01-01T09:00:00Z")


def _vault(path: Path) -> Vault:
    vault = Vault(path)
    ServiceContext.init_vault(vault)
    return vault


def _memory(vault: Vault, memory_id: str = MID, body: str = "Prefer pytest fixtures.\n") -> Path:
    meta = {"id": memory_id, "created": T0, "last_access": T0, "stability": 7.0,
            "tier": "episodic", "recalls": 0, "confirmations": 0, "links": []}  # fmt: skip
    return MemoryStore(vault).create(memory_id, meta, body)


def _sync(vault: Vault, name: str) -> git_sync.SyncResult:
    return git_sync.sync(vault, driver_command(), name, T0)


def _git(vault: Vault, *args: str) -> str:
    return subprocess.run(["git", *args], cwd=vault.root, capture_output=True, text=True,
                          check=True).stdout  # fmt: skip


@pytest.fixture
def remote(tmp_path: Path) -> str:
    path = tmp_path / "remote.git"
    subprocess.run(["git", "init", "--quiet", "--bare", str(path)], check=True)
    return str(path)


@pytest.fixture
def clones(tmp_path: Path, remote: str) -> tuple[Vault, Vault]:
    first, second = _vault(tmp_path / "laptop"), _vault(tmp_path / "desktop")
    _memory(first)
    git_sync.init(first, remote, driver_command(), "laptop")
    actions = git_sync.init(second, remote, driver_command(), "desktop")
    assert any("starting point" in line for line in actions)
    return first, second


def test_a_second_machine_starts_from_what_the_remote_holds(clones: tuple[Vault, Vault]) -> None:
    _, second = clones
    assert (second.memories_dir / f"{MID}.md").is_file()
    assert _git(second, "config", "merge.memory-vault.driver") == driver_command() + "\n"
    assert "*.md merge=memory-vault" in (second.root / ".gitattributes").read_text()


def test_concurrent_reinforcement_merges_by_rule_without_conflict(
    clones: tuple[Vault, Vault],
) -> None:
    first, second = clones
    late = parse_time("2026-01-05T00:00:00Z")
    mine = {"recalls": 2, "stability": 15.75, "links": ["[[a]]"]}
    theirs = {"recalls": 1, "confirmations": 1, "stability": 26.25, "last_access": late,
              "links": ["[[b]]"]}  # fmt: skip
    MemoryStore(first).update(MID, lambda _: mine)
    MemoryStore(second).update(MID, lambda _: theirs)
    assert _sync(first, "laptop").pushed
    result = _sync(second, "desktop")
    assert result.conflicts == []
    assert result.pushed
    assert result.pulled == [f"memories/{MID}.md"]
    _sync(first, "laptop")
    texts = [(vault.memories_dir / f"{MID}.md").read_text() for vault in clones]
    assert texts[0] == texts[1]
    record = MemoryStore(first).read(MID)
    assert (record.recalls, record.confirmations, record.stability) == (3, 1, 26.25)
    assert record.last_access == late
    assert record.links == ("[[a]]", "[[b]]")


def test_a_real_body_conflict_is_kept_with_markers_and_reported(
    clones: tuple[Vault, Vault],
) -> None:
    first, second = clones
    for vault, words in ((first, "always"), (second, "never setUp")):
        path = vault.memories_dir / f"{MID}.md"
        path.write_text(path.read_text().replace("fixtures.", f"fixtures, {words}."))
    _sync(first, "laptop")
    result = _sync(second, "desktop")
    assert result.conflicts == [f"memories/{MID}.md"]
    assert "conflicts kept with markers" in result.notes[0]
    assert git_sync.status(second).conflicts == [f"memories/{MID}.md"]
    assert _git(second, "status", "--porcelain") == ""  # nothing left half-way
    assert _sync(first, "laptop").conflicts == [f"memories/{MID}.md"]  # the other side sees it
    path = first.memories_dir / f"{MID}.md"
    text = path.read_text()
    path.write_text(text[: text.index("<<<<<<<")] + "Prefer pytest fixtures, always.\n")
    assert _sync(first, "laptop").conflicts == []
    assert _sync(second, "desktop").conflicts == []


def test_daily_logs_from_both_machines_are_joined(clones: tuple[Vault, Vault]) -> None:
    first, second = clones
    for vault, line in ((first, "- 10:00 laptop"), (second, "- 11:00 desktop")):
        (vault.daily_dir / "2026-01-01.md").write_text(f"# 2026-01-01\n\n{line}\n")
    _sync(first, "laptop")
    assert _sync(second, "desktop").conflicts == []
    text = (second.daily_dir / "2026-01-01.md").read_text()
    assert "- 10:00 laptop" in text
    assert "- 11:00 desktop" in text


def test_index_state_and_locks_stay_on_each_machine(clones: tuple[Vault, Vault]) -> None:
    first, _ = clones
    (first.index_dir / "meta.sqlite").write_text("derived")
    (first.state_dir / "cursors.json").write_text("{}")
    (first.root / "memories" / ".x.md.lock").write_text("")
    _sync(first, "laptop")
    tracked = _git(first, "ls-files").split()
    assert not [p for p in tracked if p.startswith((".index", ".state")) or p.endswith(".lock")]


def test_both_machines_adding_memories_rebase_without_merge_commits(
    clones: tuple[Vault, Vault],
) -> None:
    first, second = clones
    _memory(first, "2026-01-02-laptop-only-aa11")
    _memory(second, "2026-01-02-desktop-only-bb22")
    _sync(first, "laptop")
    _sync(second, "desktop")
    _sync(first, "laptop")
    for vault in clones:
        assert len(list(vault.memory_files())) == 3
        assert "Merge" not in _git(vault, "log", "--format=%s")
    assert git_sync.status(first).ahead == 0 == git_sync.status(first).behind


def test_without_a_remote_sync_keeps_local_history(tmp_path: Path) -> None:
    vault = _vault(tmp_path / "solo")
    _memory(vault)
    git_sync.init(vault, "", driver_command(), "solo")
    result = _sync(vault, "solo")
    assert result.remote == ""
    assert result.committed == 0
    assert git_sync.describe(result).endswith("no remote (local history only)")
    assert _git(vault, "log", "--format=%s").startswith("vault sync from solo")


def test_a_vault_inside_another_repository_is_refused(tmp_path: Path) -> None:
    subprocess.run(["git", "init", "--quiet", str(tmp_path / "dotfiles")], check=True)
    vault = _vault(tmp_path / "dotfiles" / "vault")
    with pytest.raises(VaultError, match="inside the git repository"):
        git_sync.init(vault, "", driver_command(), "x")
    with pytest.raises(VaultError, match="not a git repository"):
        _sync(vault, "x")


def test_an_unfinished_rebase_is_named_not_worked_around(clones: tuple[Vault, Vault]) -> None:
    first, _ = clones
    git_dir = first.root / ".git" / "rebase-merge"
    git_dir.mkdir()
    with pytest.raises(VaultError, match="git rebase is unfinished"):
        _sync(first, "laptop")


def test_archived_on_one_machine_reinforced_on_the_other(clones: tuple[Vault, Vault]) -> None:
    """git follows the move into archive/ and our driver merges the counters there."""
    first, second = clones
    MemoryStore(first).move(MID, to_archive=True, mutate=lambda r: {"recalls": r.recalls + 1})
    MemoryStore(second).update(MID, lambda r: {"recalls": r.recalls + 2, "stability": 10.5})
    _sync(first, "laptop")
    assert _sync(second, "desktop").conflicts == []
    record = MemoryStore(second).read(MID)
    assert record.archived
    assert (record.recalls, record.stability) == (3, 10.5)
    assert not (second.memories_dir / f"{MID}.md").exists()
