"""Picking up after a `vault sync` that was killed: git's lock files left with
no git process running in the vault (cleared), a rebase or merge that sync
itself started and never finished (aborted, then the sync runs again), and
git's merge temp files (`.merge_file_*`) in the vault root (deleted).

A lock a live git still holds, or a rebase or merge a person started, is named
in one line and left alone. Runs under the vault's sync lock, before sync.
"""

from __future__ import annotations

import os
import subprocess
import time
from collections.abc import Callable
from pathlib import Path

from vault.git_repo import Git, GitError

# Lock files git leaves when it dies mid-write (refs/ locks are found by walking).
GIT_LOCKS = ("index.lock", "HEAD.lock", "ORIG_HEAD.lock", "config.lock", "packed-refs.lock")
MERGE_TEMP_PREFIX = ".merge_file_"  # git's copies of a file's versions for a merge driver
GIT_WAIT_SECONDS = 10.0  # how long a git left running by a killed sync gets to finish


class GitBusyError(GitError):
    """Another git is working in the vault (it holds a lock): wait, then sync."""


def lock_files(git_dir: Path) -> list[Path]:
    """git's lock files present in `git_dir`, the repository's own first."""
    found = [git_dir / name for name in GIT_LOCKS if (git_dir / name).exists()]
    refs = git_dir / "refs"
    if refs.is_dir():
        found += sorted(refs.rglob("*.lock"))
    return found


def git_processes(root: Path) -> list[int]:
    """Process ids of the git commands working in `root` (from /proc on Linux;
    elsewhere any git on the machine counts, to be safe)."""
    proc = Path("/proc")
    if not (proc / "self" / "cwd").exists():
        return _any_git_process()
    root = root.resolve()
    found = []
    for entry in proc.iterdir():
        if not entry.name.isdigit():
            continue
        try:
            if not (entry / "comm").read_text().strip().startswith("git"):
                continue
            cwd = Path(os.readlink(entry / "cwd"))
        except OSError:  # gone meanwhile, or not ours to read
            continue
        if cwd == root or root in cwd.parents:
            found.append(int(entry.name))
    return found


def _any_git_process() -> list[int]:
    listing = subprocess.run(["ps", "-A", "-o", "pid=,comm="], capture_output=True, text=True,
                             check=False).stdout  # fmt: skip
    return [
        int(pid)
        for pid, _, command in (line.strip().partition(" ") for line in listing.splitlines())
        if pid.isdigit() and Path(command.strip()).name.startswith("git")
    ]


def stale_locks(git: Git) -> list[Path]:
    """git's lock files when no git runs in the vault (left by a killed git), else []."""
    locks = lock_files(git.git_dir())
    return locks if locks and not git_processes(git.root) else []


def recover(
    git: Git, started: str, forget_started: Callable[[], None], wait: float = GIT_WAIT_SECONDS
) -> list[str]:
    """Clear what a killed sync left; `started` is the operation sync recorded
    as its own ("rebase", "merge" or ""). Returns notes for the person."""
    if not (_leftovers(git) or git.operation_in_progress() or started):
        return []
    _wait_for_git(git.root, wait, lock_files(git.git_dir()))  # a git the kill left running
    unfinished = git.operation_in_progress()  # looked at again: that git may have finished it
    if unfinished and unfinished != started:
        raise GitError(
            f"a git {unfinished} is unfinished in {git.root}: finish it "
            f"(git {unfinished} --continue) or drop it (git {unfinished} --abort)"
        )
    notes = []
    for path in _leftovers(git):
        path.unlink(missing_ok=True)
        notes.append(f"removed {path.relative_to(git.root)} left by an interrupted git")
    if unfinished:
        git.run(unfinished, "--abort")
        notes.append(f"undid the {unfinished} an interrupted sync left, and synced again")
    if started:
        forget_started()
    return notes


def _leftovers(git: Git) -> list[Path]:
    """git's lock files and merge temp files now present."""
    temps = [path for path in git.root.glob(f"{MERGE_TEMP_PREFIX}*") if path.is_file()]
    return [*lock_files(git.git_dir()), *temps]


def _wait_for_git(root: Path, wait: float, locks: list[Path]) -> None:
    """Give a git that a killed sync left running `wait` seconds to finish;
    GitBusyError naming it (and the lock it holds) if it does not."""
    deadline = time.monotonic() + wait
    while (running := git_processes(root)) and time.monotonic() < deadline:
        time.sleep(0.1)
    if running:
        held = f" and holds {locks[0].relative_to(root)}" if locks else ""
        raise GitBusyError(
            f"git is still running in {root} (process {running[0]}){held}; "
            "let it finish, then sync again"
        )
