"""Git sync, when the vault is a repository: a stale `.git/index.lock` (left by a
killed git, no git process running), conflicts (unmerged paths, marker lines, an
unfinished merge or rebase) and the remote reachable. Detects only; `vault sync`
does the repairs."""

from __future__ import annotations

import os
import time
from pathlib import Path

from hooks.doctor.report import Check, failed, passed
from vault.git_repo import Git
from vault.layout import Vault

REMOTE_TIMEOUT = 30.0
LOCK_GRACE_SECONDS = 60.0  # where running processes cannot be listed: older is stale


def git_running_in(root: Path) -> bool:
    """Whether a git process works in `root` (Linux /proc; elsewhere unknown: False)."""
    proc = Path("/proc")
    for entry in proc.iterdir() if proc.is_dir() else []:
        try:
            if (entry / "comm").read_text().strip() != "git":
                continue
            cwd = Path(os.readlink(entry / "cwd"))
        except OSError:  # not a process, gone meanwhile, or not ours to look at
            continue
        if cwd == root or root in cwd.parents:
            return True
    return False


def stale_lock(git_dir: Path, root: Path) -> Path | None:
    lock = git_dir / "index.lock"
    try:
        age = time.time() - lock.stat().st_mtime
    except FileNotFoundError:
        return None
    if Path("/proc").is_dir():
        return None if git_running_in(root) else lock
    return lock if age > LOCK_GRACE_SECONDS else None


def sync_checks(vault: Vault) -> list[Check]:
    git = Git(vault.root)
    if not git.is_own_repo():
        return [passed("sync", "not set up (`vault sync init REMOTE` to sync machines)")]
    git_dir = Path(git.out("rev-parse", "--absolute-git-dir"))
    root = vault.root.resolve()
    lock = stale_lock(git_dir, root)
    checks = []
    if lock is not None:
        checks.append(
            failed(
                "git lock",
                f"{lock} left by a git that is no longer running",
                "`vault sync` clears it (or delete the file)",
            )
        )
    conflicted = sorted(set(git.unmerged_paths()) | set(git.files_with_markers()))
    unfinished = git.operation_in_progress()
    if conflicted or unfinished:
        what = f"{len(conflicted)} files with conflicts" + (
            f", a {unfinished} unfinished" if unfinished else ""
        )
        example = f" (e.g. {conflicted[0]})" if conflicted else ""
        checks.append(
            failed(
                "conflicts",
                what + example,
                "edit the marked lines, keep one version, then `vault sync`",
            )
        )
    checks.append(_remote_check(git))
    return checks


def _remote_check(git: Git) -> Check:
    remote = git.remote_url()
    if not remote:
        return passed("remote", "none (local history only)")
    result = git.run(
        "ls-remote", "--exit-code", "origin", "HEAD", check=False, timeout=REMOTE_TIMEOUT
    )
    if result.returncode in (0, 2):  # 2: reachable, no HEAD there yet
        return passed("remote", f"{remote} reachable")
    why = (result.stderr.strip().splitlines() or ["no answer"])[-1]
    return failed(
        "remote",
        f"{remote} not reachable: {why}",
        "check the network and your access, or `git -C VAULT remote set-url origin URL`",
    )
