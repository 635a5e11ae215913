"""SIGKILL of `vault sync` processes: two clones and a bare remote; each round
both reinforce the same memories (so git runs our merge driver mid-rebase), the
laptop syncs, the desktop's `vault sync` is killed at a chosen moment (mid-
rebase, in the merge driver, or after a random delay; with its git or alone),
then the desktop syncs again. Afterwards both agree, every reinforcement is
counted once, and nothing but memories is tracked.

    .venv/bin/python -m benchmarks.sync_kills [--rounds 30] [--seed 1]

The suite runs three fixed moments (tests/hooks/cli/test_sync_recovery.py).
"""

from __future__ import annotations

import argparse
import os
import random
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

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
Condition = Callable[[Path, float], bool]  # (vault root, seconds since the start)
Kill = tuple[Condition, bool]  # the moment, and whether git dies with vault


@dataclass
class KillReport:
    rounds: int = 0
    killed: list[bool] = field(default_factory=list)
    failed_syncs: list[str] = field(default_factory=list)  # the next sync's errors
    recalls: list[list[int]] = field(default_factory=list)  # per machine, per memory
    untracked_junk: list[str] = field(default_factory=list)
    left_over: list[str] = field(default_factory=list)  # dirty files, locks, operations


def rebasing(root: Path, _: float) -> bool:
    return (root / ".git" / "rebase-merge").exists()


def merging_a_file(root: Path, _: float) -> bool:
    return any(root.glob(".merge_file_*"))


def after(delay: float) -> Condition:
    return lambda _, elapsed: elapsed >= delay


def vault_cli(root: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([VAULT, "--vault", str(root), *args], capture_output=True, text=True,
                          check=False, timeout=300)  # fmt: skip


def machines(work: Path) -> tuple[Vault, Vault]:
    remote = work / "remote.git"
    subprocess.run(["git", "init", "--quiet", "--bare", str(remote)], check=True)
    laptop, desktop = Vault(work / "laptop"), Vault(work / "desktop")
    for machine in (laptop, desktop):
        ServiceContext.init_vault(machine)
    for memory_id in IDS:
        meta = {"id": memory_id, "created": T0, "last_access": T0, "stability": 7.0,
                "tier": "episodic", "recalls": 0}  # fmt: skip
        MemoryStore(laptop).create(memory_id, meta, f"{memory_id}\n")
    for machine, name in ((laptop, "laptop"), (desktop, "desktop")):
        git_sync.init(machine, str(remote), driver_command(), name)
    return laptop, desktop


def recalled(vault: Vault, minute: int) -> None:
    """A recall as reinforcement writes it, each at its own moment (git takes two
    byte-identical changes as one: they never reach the merge driver)."""
    when = T0.replace(hour=minute // 60 + 9, minute=minute % 60)
    for memory_id in IDS:
        MemoryStore(vault).update(memory_id, lambda r: {"recalls": r.recalls + 1,
                                                        "last_access": when})  # fmt: skip


def kill_when(root: Path, condition: Condition, group: bool) -> bool:
    """Run `vault sync` and SIGKILL it once `condition` holds; True if it was killed."""
    process = subprocess.Popen([VAULT, "--vault", str(root), "sync", "--no-index"],
                               start_new_session=True, stdout=subprocess.DEVNULL,
                               stderr=subprocess.DEVNULL)  # fmt: skip
    start = time.monotonic()
    while process.poll() is None and time.monotonic() - start < 120:
        if condition(root, time.monotonic() - start):
            (os.killpg if group else os.kill)(process.pid, signal.SIGKILL)
            process.wait()
            return True
        time.sleep(0.005)
    process.wait()
    return False


def kill_rounds(work: Path, kills: list[Kill]) -> KillReport:
    laptop, desktop = machines(work)
    report = KillReport(rounds=len(kills))
    for number, (condition, group) in enumerate(kills):
        recalled(laptop, 2 * number)
        git_sync.sync(laptop, driver_command(), "laptop")
        recalled(desktop, 2 * number + 1)  # the same memories: our merge driver runs
        report.killed.append(kill_when(desktop.root, condition, group))
        again = vault_cli(desktop.root, "sync", "--no-index")
        if again.returncode != 0:
            report.failed_syncs.append(again.stderr.strip())
    for machine in (laptop, desktop, laptop):
        git_sync.sync(machine, driver_command(), "final")
    for machine in (laptop, desktop):
        git = Git(machine.root)
        report.recalls.append([MemoryStore(machine).read(m).recalls for m in IDS])
        tracked = git.out("ls-files").splitlines()
        report.untracked_junk += [p for p in tracked if not committable(machine.root, p)]
        report.left_over += git.dirty_paths() + [str(p) for p in lock_files(git.git_dir())]
        report.left_over += [git.operation_in_progress()] if git.operation_in_progress() else []
    return report


def random_kills(rounds: int, seed: int) -> list[Kill]:
    chooser = random.Random(seed)
    moments: list[Condition] = [rebasing, merging_a_file]
    return [
        (chooser.choice([*moments, after(chooser.uniform(0.0, 3.0))]), chooser.random() < 0.5)
        for _ in range(rounds)
    ]


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--rounds", type=int, default=30)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    start = time.perf_counter()
    with tempfile.TemporaryDirectory(prefix="sync-kills-") as folder:
        report = kill_rounds(Path(folder), random_kills(args.rounds, args.seed))
    expected = 2 * args.rounds
    print(f"rounds {report.rounds}, killed {sum(report.killed)}, "
          f"{time.perf_counter() - start:.1f} s")  # fmt: skip
    print(f"syncs after a kill that failed: {len(report.failed_syncs)}")
    for line in report.failed_syncs[:5]:
        print(f"  {line}")
    print(f"recalls per machine and memory: {report.recalls} (expected {expected} each)")
    print(f"tracked files that are not memories or notes: {report.untracked_junk}")
    print(f"left over (dirty files, git locks, unfinished operations): {report.left_over}")


if __name__ == "__main__":
    main()
