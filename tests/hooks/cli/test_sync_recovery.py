"""`vault sync` as a separate process, as a person runs it: killed with SIGKILL
at the moments that used to wedge the vault, pointed at a remote that is not
there, and run as `sync init REMOTE` on a machine with no vault yet."""

from __future__ import annotations

from pathlib import Path

import pytest

from benchmarks import sync_kills
from benchmarks.sync_kills import (
    IDS,
    Kill,
    kill_rounds,
    merging_a_file,
    rebasing,
    vault_cli,
)
from vault.git_repo import Git
from vault.layout import Vault

KILLS: list[Kill] = [(rebasing, True), (merging_a_file, True), (rebasing, False)]


@pytest.fixture
def machines(tmp_path: Path) -> tuple[Vault, Vault, Path]:
    laptop, desktop = sync_kills.machines(tmp_path)
    return laptop, desktop, tmp_path / "remote.git"


def test_a_killed_sync_never_wedges_the_vault_nor_loses_a_change(tmp_path: Path) -> None:
    """Killed mid-rebase with its git, in the merge driver, and alone (its git
    carries on): the next sync always works, and nothing is lost or doubled."""
    report = kill_rounds(tmp_path, KILLS)
    assert report.killed[0]  # at least the kill mid-rebase landed
    assert report.failed_syncs == []
    assert report.recalls == [[2 * len(KILLS)] * len(IDS)] * 2
    assert report.untracked_junk == []
    assert report.left_over == []


def test_an_unreachable_remote_is_one_line_and_exit_1(
    machines: tuple[Vault, Vault, Path], tmp_path: Path
) -> None:
    laptop, _, _ = machines
    gone = tmp_path / "unplugged-usb-stick" / "memories.git"
    Git(laptop.root).run("remote", "set-url", "origin", str(gone))
    for args in (("sync",), ("sync", "status", "--fetch"), ("sync", "init", str(gone))):
        result = vault_cli(laptop.root, *args)
        assert result.returncode == 1, (args, result.stderr)
        [line] = result.stderr.strip().splitlines()
        assert f"remote {gone} failed" in line
        assert "Traceback" not in result.stderr


def test_sync_init_alone_sets_up_a_machine_with_no_vault(
    machines: tuple[Vault, Vault, Path], tmp_path: Path
) -> None:
    _, _, remote = machines
    third = tmp_path / "new-laptop"
    result = vault_cli(third, "sync", "init", str(remote))
    assert result.returncode == 0, result.stderr
    assert f"created a vault at {third}" in result.stdout
    assert sorted(path.stem for path in (third / "memories").glob("*.md")) == sorted(IDS)
    assert vault_cli(third, "sync", "--no-index").returncode == 0


def test_sync_status_names_a_stale_lock(machines: tuple[Vault, Vault, Path]) -> None:
    laptop, _, _ = machines
    (laptop.root / ".git" / "index.lock").write_text("")
    shown = vault_cli(laptop.root, "sync", "status")
    assert "Stale git lock: .git/index.lock" in shown.stdout
    assert vault_cli(laptop.root, "sync", "--no-index").returncode == 0
    assert "Stale git lock" not in vault_cli(laptop.root, "sync", "status").stdout
