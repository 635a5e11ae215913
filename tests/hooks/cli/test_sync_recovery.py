"""`vault sync` as a separate process, as a person runs it: killed with SIGKILL
at the moments that used to wedge the vault, pointed at a remote that is not
there, and run as `sync init REMOTE` on a machine with no vault yet."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

import pytest

from hooks.daemon.auto_sync import driver_command
from memory.context import ServiceContext
from vault import git_sync
from vault.clock import parse_time
from vault.git_repo import Git
from vault.layout import Vault
from vault.store import MemoryStore
from vault.sync_paths import committable
from vault.sync_recovery import lock_files

VAULT = str(Path(sys.executable).parent / "vault")
T0 = parse_time("2026-01-01T09:00:00Z")
IDS = ("2026-01-01-pytest-fixtures-ab12", "2026-01-01-deploys-on-tuesday-cd34")
Condition = Callable[[Path], bool]


def vault(root: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([VAULT, "--vault", str(root), *args], capture_output=True, text=True,
                          check=False, timeout=120)  # fmt: skip


@pytest.fixture
def machines(tmp_path: Path) -> tuple[Vault, Vault, Path]:
    remote = tmp_path / "remote.git"
    subprocess.run(["git", "init", "--quiet", "--bare", str(remote)], check=True)
    laptop, desktop = Vault(tmp_path / "laptop"), Vault(tmp_path / "desktop")
    for machine in (laptop, desktop):
        ServiceContext.init_vault(machine)
    for memory_id in IDS:
        meta = {"id": memory_id, "created": T0, "last_access": T0, "stability": 7.0,
                "tier": "episodic", "recalls": 0}  # fmt: skip
        MemoryStore(laptop).create(memory_id, meta, f"{memory_id}\n")
    git_sync.init(laptop, str(remote), driver_command(), "laptop")
    git_sync.init(desktop, str(remote), driver_command(), "desktop")
    return laptop, desktop, remote


def _recalled(vault: Vault, minute: int) -> None:
    """A recall as reinforcement writes it (each at its own moment: git takes two
    byte-identical changes as one, so they never reach the merge driver)."""
    when = T0.replace(minute=minute)
    for memory_id in IDS:
        MemoryStore(vault).update(memory_id, lambda r: {"recalls": r.recalls + 1,
                                                        "last_access": when})  # fmt: skip


def _rebasing(root: Path) -> bool:
    return (root / ".git" / "rebase-merge").exists()


def _merging_a_file(root: Path) -> bool:
    return any(root.glob(".merge_file_*"))


# (the moment, whether git dies with it: a killed process group, or vault alone)
KILLS: list[tuple[Condition, bool]] = [
    (_rebasing, True),
    (_merging_a_file, True),
    (_rebasing, False),
]


def _kill_when(root: Path, condition: Condition, group: bool) -> bool:
    """Run `vault sync` and SIGKILL it once `condition` holds; True if it was killed."""
    process = subprocess.Popen([VAULT, "--vault", str(root), "sync", "--no-index"],
                               start_new_session=True, stdout=subprocess.DEVNULL,
                               stderr=subprocess.DEVNULL)  # fmt: skip
    deadline = time.monotonic() + 60
    while process.poll() is None and time.monotonic() < deadline:
        if condition(root):
            (os.killpg if group else os.kill)(process.pid, signal.SIGKILL)
            process.wait()
            return True
        time.sleep(0.005)
    process.wait()
    return False


def test_a_killed_sync_never_wedges_the_vault_nor_loses_a_change(
    machines: tuple[Vault, Vault, Path],
) -> None:
    laptop, desktop, _ = machines
    killed = []
    for round_, (condition, group) in enumerate(KILLS):
        _recalled(laptop, 2 * round_)
        git_sync.sync(laptop, driver_command(), "laptop")
        _recalled(desktop, 2 * round_ + 1)  # the same memories: our merge driver runs
        killed.append(_kill_when(desktop.root, condition, group))
        again = vault(desktop.root, "sync", "--no-index")
        assert again.returncode == 0, again.stderr
    assert killed[0]  # at least the kill mid-rebase landed
    for machine in (laptop, desktop, laptop):
        assert git_sync.sync(machine, driver_command(), "x").conflicts == []
    for machine in (laptop, desktop):
        git = Git(machine.root)
        assert [MemoryStore(machine).read(m).recalls for m in IDS] == [2 * len(KILLS)] * 2
        assert all(committable(machine.root, path) for path in git.out("ls-files").splitlines())
        assert git.dirty_paths() == []
        assert lock_files(git.git_dir()) == []
        assert git.operation_in_progress() == ""


def test_an_unreachable_remote_is_one_line_and_exit_1(
    machines: tuple[Vault, Vault, Path], tmp_path: Path
) -> None:
    laptop, _, _ = machines
    gone = tmp_path / "unplugged-usb-stick" / "memories.git"
    Git(laptop.root).run("remote", "set-url", "origin", str(gone))
    for args in (("sync",), ("sync", "status", "--fetch"), ("sync", "init", str(gone))):
        result = vault(laptop.root, *args)
        assert result.returncode == 1, (args, result.stderr)
        [line] = result.stderr.strip().splitlines()
        assert f"remote {gone} failed" in line
        assert "Traceback" not in result.stderr


def test_sync_init_alone_sets_up_a_machine_with_no_vault(
    machines: tuple[Vault, Vault, Path], tmp_path: Path
) -> None:
    _, _, remote = machines
    third = tmp_path / "new-laptop"
    result = vault(third, "sync", "init", str(remote))
    assert result.returncode == 0, result.stderr
    assert f"created a vault at {third}" in result.stdout
    assert sorted(path.stem for path in (third / "memories").glob("*.md")) == sorted(IDS)
    assert vault(third, "sync", "--no-index").returncode == 0


def test_sync_status_names_a_stale_lock(machines: tuple[Vault, Vault, Path]) -> None:
    laptop, _, _ = machines
    (laptop.root / ".git" / "index.lock").write_text("")
    shown = vault(laptop.root, "sync", "status")
    assert "Stale git lock: .git/index.lock" in shown.stdout
    assert vault(laptop.root, "sync", "--no-index").returncode == 0
    assert "Stale git lock" not in vault(laptop.root, "sync", "status").stdout
