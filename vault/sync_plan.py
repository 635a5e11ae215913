"""`vault sync --dry-run`: what a sync would commit, take in and send, found
without changing anything a person or the remote would see: no file written,
no commit, no ref moved (the branch, origin/<branch> and FETCH_HEAD stay as
they are), nothing pushed. The remote's tip is read with `ls-remote`; when it
is a commit this machine lacks, its objects are fetched into git's object
store only (`--refmap=` and `--no-write-fetch-head`), so the changed files
can be named. Must not take the sync lock or run recovery: it only looks.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any

from vault.errors import VaultError
from vault.git_repo import Git
from vault.layout import Vault
from vault.sync_paths import split

BOTH, PUSH, PULL = "sync", "push", "pull"
MODES = (BOTH, PUSH, PULL)


@dataclass
class SyncPlan:
    mode: str
    remote: str = ""
    commit: list[str] = field(default_factory=list)  # files the sync's commit would hold
    private: list[str] = field(default_factory=list)  # kept on this machine
    left: list[str] = field(default_factory=list)  # not a memory or note: never committed
    incoming: list[str] = field(default_factory=list)  # files the remote's commits change
    incoming_commits: int = 0
    outgoing_commits: int = 0  # commits the remote lacks, the new one included
    unfinished: str = ""  # a rebase or merge left by a killed sync (the real sync undoes it)

    def to_dict(self) -> dict[str, Any]:
        return {**asdict(self), "dry_run": True}


def plan(vault: Vault, mode: str = BOTH) -> SyncPlan:
    """What `vault sync` (or `--push`, `--pull`) would do now."""
    if mode not in MODES:
        raise VaultError(f"unknown sync mode {mode!r}; use one of {', '.join(MODES)}")
    git = Git(vault.root)
    if not git.is_own_repo():
        raise VaultError(
            f"{vault.root} is not a git repository: run `vault sync init REMOTE` first"
        )
    kept, private, left = split(git.root, git.dirty_paths(), vault.note_folders)
    result = SyncPlan(mode=mode, remote=git.remote_url(), commit=kept, private=private,
                      left=left, unfinished=git.operation_in_progress())  # fmt: skip
    head = git.head()
    local_commits = git.commit_count()
    tip = _remote_tip(git, git.branch()) if result.remote else ""
    if not tip:
        result.outgoing_commits = local_commits + (1 if kept else 0)
        return result
    if head:
        result.incoming = git.out(
            "diff", "--name-only", "--no-renames", f"{head}...{tip}"
        ).splitlines()
        counts = git.out("rev-list", "--left-right", "--count", f"{head}...{tip}").split()
        result.outgoing_commits, result.incoming_commits = int(counts[0]), int(counts[1])
    else:
        result.incoming = git.out("ls-tree", "-r", "--name-only", tip).splitlines()
        result.incoming_commits = int(git.out("rev-list", "--count", tip))
    result.outgoing_commits += 1 if kept else 0
    return result


def _remote_tip(git: Git, branch: str) -> str:
    """The commit the remote's branch points at ("" when it has none), its
    objects present here; no ref of this repository is moved."""
    listed = git.remote("ls-remote", "origin", f"refs/heads/{branch}").stdout.split()
    if not listed:
        return ""
    tip = listed[0]
    if not git.ok("cat-file", "-e", f"{tip}^{{commit}}"):
        git.remote("fetch", "--quiet", "--no-write-fetch-head", "--refmap=", "origin",
                   f"refs/heads/{branch}")  # fmt: skip
    return tip


def describe(found: SyncPlan) -> list[str]:
    """Lines for a person: what would be committed, taken in and sent."""
    lines = [f"dry run: nothing was changed ({_action(found.mode)})"]
    lines.append(f"would commit {len(found.commit)} files" + _listed(found.commit))
    if found.private:
        lines.append(f"would keep {len(found.private)} private files on this machine")
    if found.left:
        lines.append(f"would leave out {len(found.left)} files that are not memories or notes"
                     + _listed(found.left))  # fmt: skip
    if not found.remote:
        lines.append("no remote: nothing would be pulled or pushed (local history only)")
        return lines
    if found.mode != PUSH:
        lines.append(f"would pull {found.incoming_commits} commits changing "
                     f"{len(found.incoming)} files" + _listed(found.incoming))  # fmt: skip
    if found.mode != PULL:
        if found.mode == PUSH and found.incoming_commits:
            lines.append(f"would refuse to push: the remote has {found.incoming_commits} "
                         "commits this machine lacks (`vault sync --pull` first)")  # fmt: skip
        else:
            lines.append(f"would push {found.outgoing_commits} commits to {found.remote}")
    if found.unfinished:
        lines.append(f"would first undo the unfinished git {found.unfinished} a sync left")
    return lines


def _action(mode: str) -> str:
    return {BOTH: "commit, pull, push", PUSH: "commit, push", PULL: "commit, pull"}[mode]


def _listed(paths: list[str], shown: int = 5) -> str:
    if not paths:
        return ""
    more = f" and {len(paths) - shown} more" if len(paths) > shown else ""
    return ": " + ", ".join(paths[:shown]) + more
