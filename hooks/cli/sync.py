"""`vault sync` (commit, pull with rebase, push), `vault sync init [REMOTE]`,
`vault sync status`, and the hidden `vault merge-driver` git calls."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from datetime import datetime
from pathlib import Path

import click

from hooks.cli.common import Context, emit, json_option, now_option, pass_context
from hooks.cli.errors import CliError, VaultInvalid
from hooks.daemon.auto_sync import driver_command, machine
from vault import git_sync, sync_plan
from vault.clock import utc_now
from vault.git_repo import GitError
from vault.layout import Vault


def _existing_vault(context: Context) -> Vault:
    vault = context.vault
    if not vault.exists():
        raise VaultInvalid(f"no vault at {vault.root}; run `vault init` first")
    return vault


@contextmanager
def _git_errors() -> Iterator[None]:
    """git failing (the remote unreachable, another git busy) is not an invalid
    vault: one line and exit 1."""
    try:
        yield
    except GitError as exc:
        raise CliError(str(exc)) from None


@click.group(name="sync", invoke_without_command=True)
@click.option("--push", "push_only", is_flag=True, help="Commit and push; take nothing in.")
@click.option("--pull", "pull_only", is_flag=True, help="Commit and take in; push nothing.")
@click.option("--dry-run", is_flag=True, help="Say what would be committed, pulled, pushed.")
@click.option("--no-index", is_flag=True, help="Leave the index to catch up on its next use.")
@json_option
@now_option
@click.pass_context
def sync(ctx: click.Context, push_only: bool, pull_only: bool, dry_run: bool, no_index: bool,
         as_json: bool, now: datetime | None) -> None:  # fmt: skip
    """Sync the vault with its git remote: commit, pull with rebase, push.

    Memory fields merge by rule (counters summed, later access, links joined);
    a real conflict is kept with markers and listed. --push only sends (refused
    when the remote has commits this machine lacks), --pull only takes in;
    --dry-run changes nothing (no file, commit or ref) and says what would happen.

    Example: vault sync --dry-run && vault sync --pull
    """
    if ctx.invoked_subcommand is not None:
        return
    if push_only and pull_only:
        raise click.UsageError("--push and --pull exclude each other; plain `vault sync` does both")
    context = ctx.find_object(Context)
    assert context is not None
    vault = _existing_vault(context)
    mode = sync_plan.PUSH if push_only else sync_plan.PULL if pull_only else sync_plan.BOTH
    if dry_run:
        with _git_errors():
            found = sync_plan.plan(vault, mode)
        if as_json:
            emit(found.to_dict())
        else:
            click.echo("\n".join(sync_plan.describe(found)))
        return
    with _git_errors():
        result = git_sync.sync(vault, driver_command(), machine(), now or utc_now(), mode)
    index_line = ""
    if result.pulled and not no_index:
        index_line = str(context.call("sync", {}, now))
    if as_json:
        emit({**result.to_dict(), "index": index_line})
        return
    click.echo(git_sync.describe(result))
    if index_line:
        click.echo(f"index: {index_line}")
    _warn(result.notes, result.conflicts)


def _warn(notes: list[str], conflicts: list[str]) -> None:
    for note in notes:
        click.echo(f"note: {note}", err=True)
    for path in conflicts:
        click.echo(
            f"conflict: {path}: keep one version of the marked lines, delete the markers, "
            "then run `vault sync` (recall skips the file until then)",
            err=True,
        )


@sync.command(name="init")
@click.argument("remote", required=False, default="")
@pass_context
def init(context: Context, remote: str) -> None:
    """Make the vault a git repository (or adopt the one it is) and sync it.

    REMOTE is any git URL or path (a bare repository, GitHub, a server). On a
    second machine, the same command creates the vault if there is none and
    takes in what the remote already holds.

    Example: vault sync init git@github.com:me/memories.git
    """
    from memory.service import MemoryService

    vault = context.vault
    if MemoryService.init_vault(vault):
        click.echo(f"created a vault at {vault.root}")
    with _git_errors():
        for line in git_sync.init(vault, remote, driver_command(), machine()):
            click.echo(line)


@sync.command(name="status")
@click.option("--fetch", is_flag=True, help="Ask the remote first (network).")
@json_option
@pass_context
def status(context: Context, fetch: bool, as_json: bool) -> None:
    """Branch, remote, commits ahead and behind, uncommitted files, conflicts.

    Example: vault sync status --fetch
    """
    with _git_errors():
        state = git_sync.status(_existing_vault(context), fetch)
    if as_json:
        emit(state.to_dict())
        return
    if not state.repository:
        click.echo("Not synced: the vault is not a git repository (`vault sync init REMOTE`).")
        return
    click.echo(f"Branch {state.branch}, remote {state.remote or 'none'}")
    click.echo(f"Ahead {state.ahead}, behind {state.behind}, uncommitted files {state.uncommitted}")
    click.echo(f"Last sync: {state.last_sync or 'never'}")
    click.echo(f"Files with conflicts: {len(state.conflicts) or 'none'}")
    for lock in state.stale_locks:
        click.echo(f"Stale git lock: {lock}, left by an interrupted git (`vault sync` removes it)")
    if state.unfinished:
        click.echo(f"Unfinished git {state.unfinished} (`vault sync` undoes one it started)")
    _warn([], state.conflicts)


@click.command(name="merge-driver", hidden=True)
@click.argument("base", type=click.Path(path_type=Path))
@click.argument("current", type=click.Path(path_type=Path))
@click.argument("other", type=click.Path(path_type=Path))
@click.argument("name", default="memory")
@click.option("--marker-size", default=7, show_default=True)
def merge_driver(base: Path, current: Path, other: Path, name: str, marker_size: int) -> None:
    """Git merge driver for memory files; git runs it (`vault sync init` registers it).

    Example: vault merge-driver base.md current.md other.md memories/x.md
    """
    from vault.merge_driver import merge_file

    if not merge_file(base, current, other, name, marker_size):
        click.echo(f"memory-vault: a real conflict in {name} is left with markers", err=True)
        raise click.exceptions.Exit(1)  # git: "not merged cleanly"
