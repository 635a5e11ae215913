"""Sync a vault between machines through git: `init` makes the vault a
repository (or adopts one) and registers our merge driver; `sync` commits,
pulls with rebase and pushes; `status` says where things stand.

The index, .state/ and lock files are ignored: each machine derives its own,
and only memories, notes and sync's own files are committed. A rebase that
stops on a real conflict is aborted and redone as a merge whose conflicted
files are committed with their markers, so sync never leaves the repository
half-way; the marked files are reported until a person fixes them. The steps
are in vault/sync_exchange.py; recovery from a killed sync in sync_recovery.py.
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
from vault.git_repo import Git
from vault.layout import Vault
from vault.state import JsonState
from vault.sync_exchange import (
    STARTED,
    SyncResult as SyncResult,  # the result callers name here
    commit_changes,
    exchange,
    mark_started,
)
from vault.sync_paths import PRIVATE_FOLDERS
from vault.sync_plan import BOTH
from vault.sync_recovery import recover, stale_locks
from vault.tombstones import TOMBSTONES

DRIVER = "memory-vault"
START, END = "# memory-vault:start", "# memory-vault:end"
IGNORED = (".index/", ".state/", "*.lock", ".*.tmp", ".merge_file_*", *PRIVATE_FOLDERS)
# daily logs and the purge list only grow
ATTRIBUTES = (f"*.md merge={DRIVER}", "daily/*.md merge=union", f"{TOMBSTONES} merge=union")


def _attributes(daily_folder: str) -> tuple[str, ...]:
    """ATTRIBUTES, the daily logs' union merge following them to their folder."""
    if daily_folder.strip("/") == "daily":
        return ATTRIBUTES
    return (*ATTRIBUTES, f"{daily_folder.strip('/')}/*.md merge=union")


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
    stale_locks: list[str] = field(default_factory=list)  # left by a killed git
    unfinished: str = ""  # a rebase or merge left half-way

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


def configure(git: Git, driver_command: str, daily_folder: str = "daily") -> None:
    """Our merge driver in .git/config, .gitignore and .gitattributes blocks, and
    a commit identity when git has none (the daemon commits unattended)."""
    git.run("config", f"merge.{DRIVER}.name", "memory-vault: merge memory fields by rule")
    git.run("config", f"merge.{DRIVER}.driver", driver_command)
    for name, lines, title in (
        (".gitignore", IGNORED, "per machine, never synced"),
        (".gitattributes", _attributes(daily_folder), "memory files merge field by field"),
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
    configure(git, driver_command, vault.daily_dir.relative_to(vault.root).as_posix())
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
    git.remote("fetch", "--quiet", "origin")
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
    vault: Vault,
    driver_command: str,
    machine: str,
    now: datetime | None = None,
    mode: str = BOTH,
) -> SyncResult:
    """Commit every change, pull with rebase, push; under the vault's sync lock.
    First picks up after a sync that was killed (vault/sync_recovery.py).
    `mode` PUSH sends without taking anything in (refused when the remote has
    commits this machine lacks); PULL takes in without sending."""
    git = _repository(vault)
    with file_lock(vault.index_dir / "locks" / "git-sync.lock"):
        configure(git, driver_command, vault.daily_dir.relative_to(vault.root).as_posix())
        state = _state(vault)
        started = state.read().get(STARTED)
        result = SyncResult(remote=git.remote_url())
        result.notes += recover(git, started if isinstance(started, str) else "",
                                lambda: mark_started(state, ""))  # fmt: skip
        result.committed = commit_changes(git, vault, machine, result.notes)
        if result.remote:
            exchange(git, vault, state, machine, result, mode)
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


def status(vault: Vault, fetch: bool = False) -> SyncStatus:
    git = Git(vault.root)
    if not git.is_own_repo():
        return SyncStatus(repository=False)
    branch = git.branch()
    remote = git.remote_url()
    if fetch and remote:
        git.remote("fetch", "--quiet", "origin")
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
        stale_locks=[path.relative_to(vault.root).as_posix() for path in stale_locks(git)],
        unfinished=git.operation_in_progress(),
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
