"""One sync's work with git: commit what sync may commit (vault/sync_paths.py),
fetch, rebase onto the remote (or merge, keeping a real conflict with its
markers), keep purged memories deleted, carry reinforcements to successors,
push. A rebase or merge it starts is recorded in .state/sync.json until it is
done, so a killed sync's leftover is known as its own (vault/sync_recovery.py).
"""

from __future__ import annotations

import tempfile
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from vault import sync_carry
from vault.conflicts import has_conflict_markers
from vault.git_repo import INTEGRATE_TIMEOUT, NETWORK_TIMEOUT, Git, GitError
from vault.layout import ARCHIVE, MEMORIES, SUFFIX, Vault
from vault.merge_driver import merge_file
from vault.state import JsonState
from vault.sync_counts import sign
from vault.sync_paths import counterpart, split
from vault.sync_plan import BOTH, PULL, PUSH
from vault.tombstones import PurgeList

STARTED = "started"  # .state/sync.json: the git operation sync is in the middle of
PUSH_ATTEMPTS = 3
NAMES_SHOWN = 3


@dataclass
class SyncResult:
    committed: int = 0  # files in this machine's commit
    pulled: list[str] = field(default_factory=list)  # files changed by what came in
    pushed: bool = False
    conflicts: list[str] = field(default_factory=list)  # files left with markers
    remote: str = ""
    notes: list[str] = field(default_factory=list)

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


def mark_started(state: JsonState, operation: str) -> None:
    state.update(lambda data: data.update({STARTED: operation}))


def _names(paths: list[str]) -> str:
    shown = ", ".join(paths[:NAMES_SHOWN])
    return shown + (f" and {len(paths) - NAMES_SHOWN} more" if len(paths) > NAMES_SHOWN else "")


def commit_changes(git: Git, vault: Vault, machine: str, notes: list[str]) -> int:
    """Commit the changed memories, notes and sync's own files, counter rises
    signed by `machine`; say what was left out. A memory made private since it
    was shared leaves the repository (the file stays here)."""
    kept, private, left = split(git.root, git.dirty_paths(), vault.note_folders)
    sign(git, vault, kept, machine)
    git.stage(kept)
    tracked = set(git.run("ls-files", "-z").stdout.split("\0"))
    git.unstage_tracked([path for path in private if path in tracked])
    staged = git.staged_paths()
    stray = [path for path in staged if path in left]
    git.unstage(stray)  # staged by hand, still not sync's to commit
    staged = [path for path in staged if path not in stray]
    if left:
        notes.append(f"not committed, not a memory or note: {_names(left)}")
    if staged:
        message = f"vault sync from {machine}: {len(staged)} files"
        git.run("commit", "--quiet", "--no-verify", "-m", message)
    return len(staged)


def exchange(git: Git, vault: Vault, state: JsonState, machine: str, result: SyncResult,
             mode: str = BOTH) -> None:  # fmt: skip
    """Fetch, integrate the remote branch, push; again if someone pushed between.
    PULL stops before pushing; PUSH integrates nothing and refuses to push over
    commits it lacks."""
    branch = git.branch()
    before = git.head()
    for _ in range(PUSH_ATTEMPTS):
        git.remote("fetch", "--quiet", "origin")
        if mode == PUSH:
            _, behind = git.ahead_behind(branch)
            if behind:
                raise GitError(
                    f"not pushed: the remote has {behind} commits this machine lacks; "
                    "`vault sync --pull` (or `vault sync`) first"
                )
        elif git.remote_branch_exists(branch):
            ours, theirs = git.head(), git.out("rev-parse", f"origin/{branch}")
            found = sync_carry.carries(git, ours, theirs) if ours else []
            _integrate(git, state, branch, machine, result)
            _keep_purged(git, git.changed_between(ours, git.head()), machine, result)
            _carry(git, vault, found, machine, result)
        if mode == PULL:
            break
        ahead, _ = git.ahead_behind(branch)
        if not ahead or _push(git, branch):
            result.pushed = bool(ahead)
            break
    else:
        result.notes.append("the remote kept changing; pushed nothing (the next sync retries)")
    result.pulled = [p for p in git.changed_between(before, git.head()) if p]


def _integrate(git: Git, state: JsonState, branch: str, machine: str, result: SyncResult) -> None:
    upstream = f"origin/{branch}"
    mark_started(state, "rebase")
    if git.ok("rebase", "--quiet", upstream, timeout=INTEGRATE_TIMEOUT):
        mark_started(state, "")
        return
    unmerged = git.unmerged_paths()
    git.run("rebase", "--abort", check=False)
    if not unmerged:
        raise GitError(f"git rebase onto {upstream} failed in {git.root}; run `git status` there")
    mark_started(state, "merge")
    if not git.ok("merge", "--quiet", "--no-edit", upstream, timeout=INTEGRATE_TIMEOUT):
        _settle_merge(git, upstream, machine, result)
    mark_started(state, "")


def _settle_merge(git: Git, upstream: str, machine: str, result: SyncResult) -> None:
    """Commit a merge that stopped: purged memories stay deleted, the rest are
    kept as they are (with markers where git left them)."""
    conflicted = git.unmerged_paths()
    if not conflicted:
        git.run("merge", "--abort", check=False)
        raise GitError(f"git merge of {upstream} failed in {git.root}; run `git status` there")
    purged = _purged(git, conflicted)
    if purged:
        git.run("rm", "--quiet", "--force", "--", *purged)
        result.notes.append(f"kept purged memories deleted over edits: {_names(purged)}")
    rejoined = _rejoin_moved(git, [path for path in conflicted if path not in purged])
    if rejoined:
        git.run("rm", "--quiet", "--force", "--", *rejoined)
        result.notes.append(f"merged edits into the moved memories: {_names(rejoined)}")
    rest = [path for path in conflicted if path not in purged and path not in rejoined]
    git.stage([*rest, *(counterpart(path) for path in rejoined)])
    left = ", ".join(rest) or "none"
    git.run(
        "commit",
        "--quiet",
        "--no-verify",
        "-m",
        f"vault sync from {machine}: conflicts left in {left}",
    )
    marked = set(git.files_with_markers())
    revived = [p for p in rest if (git.root / p).is_file() and p not in marked]
    if revived:
        result.notes.append(f"deleted on one side, changed on the other; kept: {_names(revived)}")
    if len(revived) < len(rest):
        result.notes.append(f"conflicts kept with markers in {len(rest) - len(revived)} files")


def _rejoin_moved(git: Git, paths: list[str]) -> list[str]:
    """Edits of a memory the other side moved (between memories/ and archive/)
    that git did not follow as a rename: merged into the moved file with the
    memory merge driver. Returns the paths of the edited copies to delete."""
    base_rev = git.run("merge-base", "HEAD", "MERGE_HEAD", check=False).stdout.strip()
    candidates = [
        path for path in paths
        if path.startswith((f"{MEMORIES}/", f"{ARCHIVE}/")) and path.endswith(SUFFIX)
        and (git.root / path).is_file() and (git.root / counterpart(path)).is_file()
    ]  # fmt: skip
    bases = git.committed_texts(candidates, rev=base_rev) if base_rev else {}
    rejoined = []
    for path in candidates:
        if path not in bases or has_conflict_markers((git.root / path).read_text("utf-8")):
            continue
        with tempfile.TemporaryDirectory(prefix="vault-rejoin-") as folder:
            base = Path(folder) / "base"
            base.write_text(bases[path], encoding="utf-8")
            merge_file(base, git.root / counterpart(path), git.root / path, path)
        rejoined.append(path)
    return rejoined


def _purged(git: Git, paths: list[str]) -> list[str]:
    """The memory files among `paths` that the purge list refuses."""
    refused = PurgeList(git.root)
    if not refused:
        return []
    found = []
    for path in paths:
        full = git.root / path
        if not path.startswith((f"{MEMORIES}/", f"{ARCHIVE}/")) or not path.endswith(SUFFIX):
            continue
        if full.is_file() and refused.refuses(full.stem, full.read_text("utf-8", "replace")):
            found.append(path)
    return found


def _keep_purged(git: Git, changed: list[str], machine: str, result: SyncResult) -> None:
    """Delete again a purged memory that came back with what was pulled."""
    purged = _purged(git, changed)
    if purged:
        git.run("rm", "--quiet", "--force", "--", *purged)
        message = f"vault sync from {machine}: kept {len(purged)} purged memories deleted"
        git.run("commit", "--quiet", "--no-verify", "-m", message)
        result.notes.append(f"kept purged memories deleted over edits: {_names(purged)}")


def _carry(git: Git, vault: Vault, found: list[sync_carry.Carry], machine: str,
           result: SyncResult) -> None:  # fmt: skip
    if not found:
        return
    result.notes += sync_carry.apply(vault, found)
    commit_changes(git, vault, machine, result.notes)


def _push(git: Git, branch: str) -> bool:
    """True when pushed; False when the remote moved on (fetch and try again)."""
    pushed = git.run("push", "--quiet", "origin", f"HEAD:refs/heads/{branch}", check=False,
                     timeout=NETWORK_TIMEOUT)  # fmt: skip
    if pushed.returncode == 0:
        git.run("branch", "--quiet", f"--set-upstream-to=origin/{branch}", check=False)
        return True
    words = pushed.stderr.lower()
    if "rejected" in words or "fetch first" in words or "non-fast-forward" in words:
        return False
    raise git.remote_failure("push", pushed.stderr)
