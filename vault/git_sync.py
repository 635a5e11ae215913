"""Sync a vault between machines through git: `init` makes the vault a
repository (or adopts one) and registers our merge driver; `sync` commits,
pulls with rebase and pushes; `status` says where things stand.

The index, .state/ and lock files are ignored: each machine derives its own.
A rebase that stops on a real conflict is aborted and redone as a merge whose
conflicted files are committed with their markers, so sync never leaves the
repository half-way; the marked files are reported until a person fixes them.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Any

from vault.atomic import atomic_write, file_lock
from vault.clock import format_time
from vault.config import default_config_text
from vault.errors import VaultError
from vault.git_repo import NETWORK_TIMEOUT, Git, GitError
from vault.layout import Vault
from vault.state import JsonState

DRIVER = "memory-vault"
START, END = "# memory-vault:start", "# memory-vault:end"
IGNORED = (".index/", ".state/", "*.lock", ".*.tmp")
ATTRIBUTES = (f"*.md merge={DRIVER}", "daily/*.md merge=union")  # daily logs only grow
PUSH_ATTEMPTS = 3


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


@dataclass
class SyncStatus:
    repository: bool
    branch: str = ""
    remote: str = ""
    ahead: int = 0
    behind: int = 0
    uncommitted: int = 0
    conflicts: list[str] = field(default_factory=list)
    last_sync: str = ""

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


def _state(vault: Vault) -> JsonState:
    return JsonState(vault.state_dir / "sync.json")


def _managed_block(existing: str, lines: tuple[str, ...], title: str) -> str:
    """`existing` with our marked block added or brought up to date."""
    block = "\n".join((f"{START} ({title})", *lines, END)) + "\n"
    start, end = existing.find(START), existing.find(END)
    if start >= 0 and end > start:
        return existing[:start] + block + existing[end + len(END) :].lstrip("\n")
    separator = "\n" if existing and not existing.endswith("\n") else ""
    return existing + separator + ("\n" if existing else "") + block


def configure(git: Git, driver_command: str) -> None:
    """Our merge driver in .git/config, .gitignore and .gitattributes blocks, and
    a commit identity when git has none (the daemon commits unattended)."""
    git.run("config", f"merge.{DRIVER}.name", "memory-vault: merge memory fields by rule")
    git.run("config", f"merge.{DRIVER}.driver", driver_command)
    for name, lines, title in (
        (".gitignore", IGNORED, "per machine, never synced"),
        (".gitattributes", ATTRIBUTES, "memory files merge field by field"),
    ):
        path = git.root / name
        old = path.read_text(encoding="utf-8") if path.exists() else ""
        new = _managed_block(old, lines, title)
        if new != old:
            atomic_write(path, new.encode("utf-8"))
    if not git.run("config", "user.email", check=False).stdout.strip():
        import socket

        git.run("config", "user.email", f"memory-vault@{socket.gethostname() or 'localhost'}")
    if not git.run("config", "user.name", check=False).stdout.strip():
        git.run("config", "user.name", "memory-vault")


def init(vault: Vault, remote: str, driver_command: str, machine: str) -> list[str]:
    """Make the vault a git repository (or adopt the one it is), point `origin`
    at `remote` when given, adopt what the remote already holds, then sync."""
    git = Git(vault.root)
    actions: list[str] = []
    top = git.toplevel()
    if top is None:
        git.run("init", "--quiet", "-b", "main")
        actions.append(f"created a git repository in {vault.root}")
    elif top.resolve() != vault.root.resolve():
        raise VaultError(
            f"{vault.root} is inside the git repository {top}; "
            "move the vault out of it, or make the vault folder its own repository"
        )
    configure(git, driver_command)
    actions.append("registered the memory-vault merge driver, .gitignore and .gitattributes")
    if remote:
        if not git.remote_url():
            git.run("remote", "add", "origin", remote)
        elif git.remote_url() != remote:
            git.run("remote", "set-url", "origin", remote)
        actions.append(f"origin is {remote}")
    if git.remote_url() and not git.has_commits():
        adopted = _adopt_remote(git, vault)
        if adopted:
            actions.append(f"took {adopted} as the starting point")
    result = sync(vault, driver_command, machine)
    actions.append(describe(result))
    return actions


def _adopt_remote(git: Git, vault: Vault) -> str:
    """A fresh local repository starts from the remote's history when it has
    one: local files stay, files only the remote has are written out, and a
    local config.toml that is still the default yields to the remote's."""
    git.run("fetch", "--quiet", "origin", timeout=NETWORK_TIMEOUT)
    branch = git.remote_default_branch()
    if not branch or not git.remote_branch_exists(branch):
        return ""
    git.run("symbolic-ref", "HEAD", f"refs/heads/{branch}")
    git.run("reset", "--quiet", "--mixed", f"origin/{branch}")
    git.run("checkout-index", "--all")  # writes the files missing here, overwrites none
    config = vault.config_path
    tracked = git.ok("cat-file", "-e", f"origin/{branch}:config.toml")
    if tracked and config.exists() and config.read_text(encoding="utf-8") == default_config_text():
        git.run("checkout", "--", "config.toml")
    return f"origin/{branch}"


def sync(
    vault: Vault, driver_command: str, machine: str, now: datetime | None = None
) -> SyncResult:
    """Commit every change, pull with rebase, push; under the vault's sync lock."""
    git = _repository(vault)
    with file_lock(vault.index_dir / "locks" / "git-sync.lock"):
        configure(git, driver_command)
        unfinished = git.operation_in_progress()
        if unfinished:
            raise VaultError(
                f"a git {unfinished} is unfinished in {vault.root}: finish it "
                f"(git {unfinished} --continue) or drop it (git {unfinished} --abort)"
            )
        result = SyncResult(remote=git.remote_url())
        result.committed = _commit_all(git, f"vault sync from {machine}")
        if result.remote:
            _exchange(git, result, machine)
        result.conflicts = git.files_with_markers()
    if now is not None:
        _state(vault).update(
            lambda data: data.update(last_sync=format_time(now), last_result=result.to_dict())
        )
    return result


def _repository(vault: Vault) -> Git:
    git = Git(vault.root)
    if not git.is_own_repo():
        raise VaultError(
            f"{vault.root} is not a git repository: run `vault sync init REMOTE` first"
        )
    return git


def _commit_all(git: Git, message: str) -> int:
    git.run("add", "--all")
    staged = git.out("diff", "--cached", "--name-only").splitlines()
    if staged:
        git.run("commit", "--quiet", "--no-verify", "-m", f"{message}: {len(staged)} files")
    return len(staged)


def _exchange(git: Git, result: SyncResult, machine: str) -> None:
    """Fetch, rebase onto the remote branch, push; again if someone pushed between."""
    branch = git.branch()
    before = git.head()
    for _ in range(PUSH_ATTEMPTS):
        git.run("fetch", "--quiet", "origin", timeout=NETWORK_TIMEOUT)
        if git.remote_branch_exists(branch):
            _integrate(git, branch, machine, result)
        ahead, _ = git.ahead_behind(branch)
        if not ahead or _push(git, branch):
            result.pushed = bool(ahead)
            break
    else:
        result.notes.append("the remote kept changing; pushed nothing (the next sync retries)")
    result.pulled = [p for p in git.changed_between(before, git.head()) if p]


def _integrate(git: Git, branch: str, machine: str, result: SyncResult) -> None:
    upstream = f"origin/{branch}"
    if git.ok("rebase", "--quiet", upstream):
        return
    unmerged = git.unmerged_paths()
    git.run("rebase", "--abort", check=False)
    if not unmerged:
        raise GitError(f"git rebase onto {upstream} failed in {git.root}; run `git status` there")
    if git.ok("merge", "--quiet", "--no-edit", upstream):
        return
    conflicted = git.unmerged_paths()
    if not conflicted:
        git.run("merge", "--abort", check=False)
        raise GitError(f"git merge of {upstream} failed in {git.root}; run `git status` there")
    git.run("add", "--all")
    git.run("commit", "--quiet", "--no-verify", "-m",
            f"vault sync from {machine}: conflicts left in {', '.join(conflicted)}")  # fmt: skip
    result.notes.append(f"conflicts kept with markers in {len(conflicted)} files")


def _push(git: Git, branch: str) -> bool:
    pushed = git.run("push", "--quiet", "origin", f"HEAD:refs/heads/{branch}", check=False,
                     timeout=NETWORK_TIMEOUT)  # fmt: skip
    if pushed.returncode == 0:
        git.run("branch", "--quiet", f"--set-upstream-to=origin/{branch}", check=False)
        return True
    words = pushed.stderr.lower()
    if "rejected" in words or "fetch first" in words or "non-fast-forward" in words:
        return False
    raise GitError(f"git push failed in {git.root}: {pushed.stderr.strip()[:400]}")


def status(vault: Vault, fetch: bool = False) -> SyncStatus:
    git = Git(vault.root)
    if not git.is_own_repo():
        return SyncStatus(repository=False)
    branch = git.branch()
    remote = git.remote_url()
    if fetch and remote:
        git.run("fetch", "--quiet", "origin", timeout=NETWORK_TIMEOUT)
    ahead, behind = git.ahead_behind(branch) if remote else (0, 0)
    last = _state(vault).read().get("last_sync")
    return SyncStatus(
        repository=True,
        branch=branch,
        remote=remote,
        ahead=ahead,
        behind=behind,
        uncommitted=len(git.dirty_paths()),
        conflicts=git.files_with_markers(),
        last_sync=last if isinstance(last, str) else "",
    )


def describe(result: SyncResult) -> str:
    """One line for a person."""
    parts = [f"committed {result.committed} files"]
    if result.remote:
        parts.append(f"received {len(result.pulled)} changed files")
        parts.append("pushed" if result.pushed else "nothing to push")
    else:
        parts.append("no remote (local history only)")
    if result.conflicts:
        parts.append(f"{len(result.conflicts)} files with conflicts to resolve")
    return "; ".join(parts)


def is_repository(root: Path) -> bool:
    return Git(root).is_own_repo()
