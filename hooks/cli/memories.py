"""`vault init`, `jot`, `ingest`, `show`, `list`, `status`, `prune`, `forget`
and `purge`: memories in and out of the vault, and what it holds. Writes go
to the daemon when one runs (`Context.call`), else run in this process."""

from __future__ import annotations

import uuid
from datetime import datetime
from pathlib import Path

import click

from hooks.cli import render
from hooks.cli.common import Context, emit, json_option, now_option, pass_context
from hooks.cli.errors import CliError
from hooks.cli.progress import stage_bars
from memory.results import memory_dict
from vault.clock import format_time, utc_now
from vault.schema import TIERS


@click.command()
@pass_context
def init(context: Context) -> None:
    """Create a vault (folders and a commented config.toml).

    Example: vault --vault ~/notes/vault init
    """
    from vault.creation import create_vault

    vault = context.vault
    created = create_vault(vault)
    click.echo(f"{'Created' if created else 'Vault already exists at'} {vault.root}")


@click.command()
@click.argument("text")
@click.option("--topic", default="", help="Topic to file it under.")
@click.option("--tag", "tags", multiple=True, help="A tag (repeatable).")
@click.option("--project", default="", help="Project identity, e.g. github.com/acme/api.")
@click.option("--session", default="", help="Session id, for temporal association.")
@click.option("--kind", default="fact", help="preference, decision, fact, procedure, ...")
@json_option
@now_option
@pass_context
def jot(context: Context, text: str, topic: str, tags: tuple[str, ...], project: str,
        session: str, kind: str, as_json: bool, now: datetime | None) -> None:  # fmt: skip
    """Remember a short fragment (episodic, 7-day stability); prints its id.

    Example: vault jot "prefer pytest fixtures over setUp" --tag testing
    """
    # A request id and its time, fixed here: if the daemon dies holding the jot, it
    # is asked again and returns the memory already written instead of a second one.
    args = {"text": text, "topic": topic, "tags": list(tags), "project": project,
            "session": session, "kind": kind, "request": uuid.uuid4().hex,
            "created": format_time(now or utc_now())}  # fmt: skip
    record = context.call("jot", args, now, idempotent=True)
    emit(record) if as_json else click.echo(record["id"])


@click.command()
@click.argument("path", type=click.Path(dir_okay=False, path_type=Path))
@click.option("--topic", default="", help="Topic to file it under.")
@click.option("--tag", "tags", multiple=True, help="A tag (repeatable).")
@click.option("--project", default="", help="Project identity.")
@json_option
@now_option
@pass_context
def ingest(context: Context, path: Path, topic: str, tags: tuple[str, ...], project: str,
           as_json: bool, now: datetime | None) -> None:  # fmt: skip
    """Make a curated memory from a Markdown or text file (re-ingest updates it).

    Example: vault ingest docs/decisions/0007-use-postgres.md --topic architecture
    """
    args = {"path": str(path.expanduser().absolute()), "topic": topic, "tags": list(tags),
            "project": project}  # fmt: skip
    record = context.call("ingest", args, now)
    emit(record) if as_json else click.echo(record["id"])


@click.command()
@click.argument("memory_id", metavar="ID")
@json_option
@now_option
@pass_context
def show(context: Context, memory_id: str, as_json: bool, now: datetime | None) -> None:
    """Print one memory with its current strength.

    Example: vault show 2026-11-02-pytest-fixtures-over-setup-7f3a --json
    """
    record, current = context.service(now).show(memory_id)
    if as_json:
        emit(memory_dict(record, current))
        return
    click.echo(f"{record.id}  ({record.path})")
    click.echo(f"tier {record.tier}, strength {current:.3f}, stability {record.stability} days, "
               f"recalls {record.recalls}, confirmations {record.confirmations}")  # fmt: skip
    click.echo("")
    click.echo(record.body.rstrip())


@click.command(name="list")
@click.option("--tier", type=click.Choice(TIERS), default=None)
@click.option("--archived", is_flag=True, help="List the archive instead.")
@click.option(
    "--tag", "tags", multiple=True, help="Only memories with this tag (repeat: any of them)."
)
@json_option
@now_option
@pass_context
def list_(context: Context, tier: str | None, archived: bool, tags: tuple[str, ...],
          as_json: bool, now: datetime | None) -> None:  # fmt: skip
    """List memories, strongest first.

    Example: vault list --tier semantic --tag postgres --tag migrations --json
    """
    items = context.service(now).list_memories(tier=tier, archived=archived, tags=tags)
    emit([i.to_dict() for i in items]) if as_json else click.echo(render.listings(items))


@click.command()
@json_option
@now_option
@pass_context
def status(context: Context, as_json: bool, now: datetime | None) -> None:
    """Counts by tier, a strength histogram, archive size, files with problems.

    Example: vault status --now 2027-06-01
    """
    result = context.service(now).status()
    emit(result.to_dict()) if as_json else click.echo(render.status(result))
    for path, reason in result.problems:
        click.echo(f"warning: {path}: {reason}", err=True)


@click.command()
@click.option("--dry-run", is_flag=True, help="Show what would be archived; move nothing.")
@json_option
@now_option
@pass_context
def prune(context: Context, dry_run: bool, as_json: bool, now: datetime | None) -> None:
    """Archive memories whose strength fell under the archive floor (never deletes).

    Example: vault prune --dry-run
    """
    answered, result = context.ask_daemon("prune", {"dry_run": dry_run}, now)
    if not answered:  # here, with a progress bar on a terminal (a big vault takes a while)
        service = context.service(now)
        with stage_bars() as stages:
            archived = service.prune(dry_run=dry_run, stages=stages)
        result = {"dry_run": dry_run, "archived": [item.to_dict() for item in archived]}
    if as_json:
        emit(result)
        return
    items = result["archived"]
    verb = "Would archive" if dry_run else "Archived"
    click.echo(f"{verb} {len(items)} memories.")
    for item in items:
        click.echo(f"  {item['id']}  (strength {item['strength']:.3f})")


@click.command()
@click.argument("memory_id", metavar="ID")
@json_option
@pass_context
def forget(context: Context, memory_id: str, as_json: bool) -> None:
    """Archive a memory now (reversible with `vault revive`).

    Example: vault forget 2026-11-02-pytest-fixtures-over-setup-7f3a
    """
    record = context.call("forget", {"id": memory_id}, None)
    if as_json:
        emit(record)
        return
    click.echo(f"Archived {record['id']} -> {record['path']}")


@click.command()
@click.argument("memory_id", metavar="ID")
@click.option("--yes", is_flag=True, help="Do not ask for confirmation.")
@pass_context
def purge(context: Context, memory_id: str, yes: bool) -> None:
    """Delete a memory for good (the only true deletion; asks first).

    Example: vault purge 2026-11-02-pytest-fixtures-over-setup-7f3a --yes
    """
    path = context.service().vault.locate(memory_id)
    if not yes and not click.confirm(f"Delete {path} for good?", default=False):
        raise CliError("purge cancelled; nothing was deleted")
    click.echo(f"Deleted {context.call('purge', {'id': memory_id}, None)['path']}")
