"""The `vault` command: a thin click layer over MemoryService.

Each command parses its arguments, calls one service method and prints. Errors
become one line on stderr and a distinct exit code (see hooks/cli/errors.py).
"""

from __future__ import annotations

import os
import sys
from collections.abc import Callable
from datetime import datetime
from pathlib import Path
from typing import Any

import click

from hooks.cli import render
from hooks.cli.common import Context, emit, json_option, now_option, pass_context
from hooks.cli.errors import HANDLED, CliError, DaemonDown, to_cli_error
from vault.config import load_settings


class VaultGroup(click.Group):
    """Turns library errors into one-line messages with their exit codes."""

    def invoke(self, ctx: click.Context) -> Any:
        try:
            return super().invoke(ctx)
        except HANDLED as exc:
            raise to_cli_error(exc) from exc


@click.group(cls=VaultGroup)
@click.option(
    "--vault",
    "vault_option",
    metavar="DIR",
    help="Vault folder (default: $VAULT_HOME, the user config, ~/.local/share/memory-vault/vault).",
)
@click.version_option(package_name="memory-vault")
@click.pass_context
def main(ctx: click.Context, vault_option: str | None) -> None:
    """memory-vault: long-term memory for Claude Code, kept as Markdown files.

    Example: vault init && vault jot "prefer pytest fixtures" && vault recall "fixtures"
    """
    ctx.obj = Context(vault_option)


@main.command()
@pass_context
def init(context: Context) -> None:
    """Create a vault (folders and a commented config.toml).

    Example: vault --vault ~/notes/vault init
    """
    from memory.service import MemoryService

    vault = context.vault
    created = MemoryService.init_vault(vault)
    click.echo(f"{'Created' if created else 'Vault already exists at'} {vault.root}")


@main.command()
@click.argument("text")
@click.option("--topic", default="", help="Topic to file it under.")
@click.option("--tag", "tags", multiple=True, help="A tag (repeatable).")
@click.option("--project", default="", help="Project identity, e.g. github.com/acme/api.")
@click.option("--session", default="", help="Session id, for temporal association.")
@click.option("--kind", default="fact", help="preference, decision, fact, procedure, ...")
@now_option
@pass_context
def jot(context: Context, text: str, topic: str, tags: tuple[str, ...], project: str,
        session: str, kind: str, now: datetime | None) -> None:  # fmt: skip
    """Remember a short fragment (episodic, 7-day stability); prints its id.

    Example: vault jot "prefer pytest fixtures over setUp" --tag testing
    """
    record = context.service(now).jot(
        text, topic=topic, tags=tags, project=project, session=session, kind=kind
    )
    click.echo(record.id)


@main.command()
@click.argument("path", type=click.Path(dir_okay=False, path_type=Path))
@click.option("--topic", default="", help="Topic to file it under.")
@click.option("--tag", "tags", multiple=True, help="A tag (repeatable).")
@click.option("--project", default="", help="Project identity.")
@now_option
@pass_context
def ingest(context: Context, path: Path, topic: str, tags: tuple[str, ...], project: str,
           now: datetime | None) -> None:  # fmt: skip
    """Make a curated memory from a Markdown or text file (re-ingest updates it).

    Example: vault ingest docs/decisions/0007-use-postgres.md --topic architecture
    """
    record = context.service(now).ingest(path, topic=topic, tags=tags, project=project)
    click.echo(record.id)


@main.command()
@click.argument("query")
@click.option("-n", "limit", default=5, show_default=True, help="How many results.")
@click.option("--project", default=None, help="Current project: its memories are boosted.")
@click.option("--topic-hint", default=None, help="Boost memories of this topic.")
@click.option("--exclude-topic", default=None, help="Leave out memories of this topic.")
@click.option("--associative", is_flag=True, help="Show confident and activated tiers apart.")
@click.option("--no-reinforce", is_flag=True, help="Look without strengthening what is found.")
@click.option("--explain", is_flag=True, help="Show how each score was made.")
@json_option
@now_option
@pass_context
def recall(context: Context, query: str, limit: int, project: str | None, topic_hint: str | None,
           exclude_topic: str | None, associative: bool, no_reinforce: bool, explain: bool,
           as_json: bool, now: datetime | None) -> None:  # fmt: skip
    """Find memories by meaning and keywords, ranked by similarity x strength.

    Example: vault recall "how do we share test fixtures?" --associative --explain
    """
    from memory.results import Associative, Hit

    args = {"query": query, "limit": limit, "project": project, "topic_hint": topic_hint,
            "exclude_topic": exclude_topic, "reinforce": not no_reinforce}  # fmt: skip
    data = context.call("recall_associative" if associative else "recall", args, now)
    if as_json:
        emit(data)
    elif associative:
        click.echo(render.associative(Associative.from_dict(data), explain))
    else:
        click.echo(render.hits([Hit.from_dict(h) for h in data], explain))


@main.command()
@click.argument("memory_id", metavar="ID")
@now_option
@pass_context
def confirm(context: Context, memory_id: str, now: datetime | None) -> None:
    """Confirm a hedged ("might be related") memory: stability x2.5.

    Example: vault confirm 2026-11-02-pytest-fixtures-over-setup-7f3a
    """
    record = context.service(now).confirm_activation(memory_id)
    click.echo(f"Confirmed {record.id}: stability {record.stability:.1f} days, tier {record.tier}")


@main.command()
@click.argument("memory_id", metavar="ID")
@now_option
@pass_context
def reinforce(context: Context, memory_id: str, now: datetime | None) -> None:
    """Strengthen a memory as a recall hit would: stability x1.5.

    Example: vault reinforce 2026-11-02-pytest-fixtures-over-setup-7f3a
    """
    record = context.service(now).reinforce(memory_id)
    click.echo(f"Reinforced {record.id}: stability {record.stability:.1f} days, tier {record.tier}")


@main.command()
@click.option("--dry-run", is_flag=True, help="Show what would be archived; move nothing.")
@json_option
@now_option
@pass_context
def prune(context: Context, dry_run: bool, as_json: bool, now: datetime | None) -> None:
    """Archive memories whose strength fell under the archive floor (never deletes).

    Example: vault prune --dry-run
    """
    items = context.service(now).prune(dry_run=dry_run)
    if as_json:
        emit({"dry_run": dry_run, "archived": [i.to_dict() for i in items]})
        return
    verb = "Would archive" if dry_run else "Archived"
    click.echo(f"{verb} {len(items)} memories.")
    for item in items:
        click.echo(f"  {item.id}  (strength {item.strength:.3f})")


@main.command()
@click.argument("query")
@click.option("-n", "limit", default=5, show_default=True, help="How many results.")
@click.option("--explain", is_flag=True, help="Show how each score was made.")
@json_option
@now_option
@pass_context
def cold(context: Context, query: str, limit: int, explain: bool, as_json: bool,
         now: datetime | None) -> None:  # fmt: skip
    """Search only the archive (needs a specific query: similarity >= 0.6).

    Example: vault cold "pytest fixtures instead of setUp/tearDown"
    """
    from memory.results import Hit

    data = context.call("recall_cold", {"query": query, "limit": limit}, now)
    if as_json:
        emit(data)
    else:
        found = [Hit.from_dict(h) for h in data]
        click.echo(render.hits(found, explain, "Nothing in the archive matched closely enough."))


@main.command()
@click.argument("memory_id", metavar="ID")
@now_option
@pass_context
def revive(context: Context, memory_id: str, now: datetime | None) -> None:
    """Move an archived memory back to memories/.

    Example: vault revive 2026-11-02-pytest-fixtures-over-setup-7f3a
    """
    record = context.service(now).revive_from_cold(memory_id)
    click.echo(f"Revived {record.id} -> {record.path}")


@main.command()
@click.argument("memory_id", metavar="ID")
@pass_context
def forget(context: Context, memory_id: str) -> None:
    """Archive a memory now (reversible with `vault revive`).

    Example: vault forget 2026-11-02-pytest-fixtures-over-setup-7f3a
    """
    record = context.service().forget(memory_id)
    click.echo(f"Archived {record.id} -> {record.path}")


@main.command()
@click.argument("memory_id", metavar="ID")
@click.option("--yes", is_flag=True, help="Do not ask for confirmation.")
@pass_context
def purge(context: Context, memory_id: str, yes: bool) -> None:
    """Delete a memory for good (the only true deletion; asks first).

    Example: vault purge 2026-11-02-pytest-fixtures-over-setup-7f3a --yes
    """
    service = context.service()
    path = service.vault.locate(memory_id)
    if not yes and not click.confirm(f"Delete {path} for good?", default=False):
        raise CliError("purge cancelled; nothing was deleted")
    service.purge(memory_id)
    click.echo(f"Deleted {path}")


@main.command()
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
        emit({"id": record.id, "path": str(record.path), "archived": record.archived,
              "tier": record.tier, "kind": record.kind, "topic": record.topic,
              "tags": list(record.tags), "project": record.project,
              "stability": record.stability, "strength": round(current, 4),
              "created": record.created.isoformat(), "last_access": record.last_access.isoformat(),
              "recalls": record.recalls, "confirmations": record.confirmations,
              "links": list(record.links), "text": record.body})  # fmt: skip
        return
    click.echo(f"{record.id}  ({record.path})")
    click.echo(f"tier {record.tier}, strength {current:.3f}, stability {record.stability} days, "
               f"recalls {record.recalls}, confirmations {record.confirmations}")  # fmt: skip
    click.echo("")
    click.echo(record.body.rstrip())


@main.command(name="list")
@click.option("--tier", type=click.Choice(["episodic", "semantic", "curated"]), default=None)
@click.option("--archived", is_flag=True, help="List the archive instead.")
@json_option
@now_option
@pass_context
def list_(context: Context, tier: str | None, archived: bool, as_json: bool,
          now: datetime | None) -> None:  # fmt: skip
    """List memories, strongest first.

    Example: vault list --tier semantic --json
    """
    items = context.service(now).list_memories(tier=tier, archived=archived)
    emit([i.to_dict() for i in items]) if as_json else click.echo(render.listings(items))


@main.command()
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


@main.command()
@click.option("--full", is_flag=True, help="Delete the index and rebuild it from the files.")
@click.option("--check", is_flag=True, help="Print what would change; change nothing.")
@click.option("--stats", is_flag=True, help="Print counts, sizes and the model.")
@pass_context
def reindex(context: Context, full: bool, check: bool, stats: bool) -> None:
    """Bring the index in line with the files (delta sync by default).

    Example: vault reindex --full
    """
    service = context.service()
    index = service.index
    if check:
        click.echo(f"Would change: {index.check().summary()}")
        return
    progress = _progress_printer() if sys.stderr.isatty() else None
    report = index.rebuild(progress=progress) if full else index.sync(progress=progress)
    for notice in index.events.notices:
        click.echo(f"warning: {notice}", err=True)
    click.echo(f"{'Rebuilt' if full else 'Synced'}: {report.summary()}")
    for path, reason in report.problems:
        click.echo(f"warning: {path}: {reason}", err=True)
    if stats:
        for key, value in index.stats().items():
            click.echo(f"  {key}: {value}")


def _progress_printer() -> Callable[[int, int], None]:
    def show(done: int, total: int) -> None:
        click.echo(f"\rEmbedding {done}/{total}", nl=done >= total, err=True)

    return show


@main.command()
@click.option("--transcript", "transcript", required=True,
              type=click.Path(exists=True, dir_okay=False, path_type=Path),
              help="A Claude Code transcript (.jsonl).")  # fmt: skip
@click.option("--session", default="", help="Session id (default: from the transcript).")
@click.option("--project", default="", help="Project identity (default: from the transcript).")
@now_option
@pass_context
def capture(context: Context, transcript: Path, session: str, project: str,
            now: datetime | None) -> None:  # fmt: skip
    """Capture durable statements from a transcript (from its cursor on; exactly once).

    Example: vault capture --transcript ~/.claude/projects/-home-me-api/5f0c.jsonl
    """
    from hooks.claude_code.capture import capture_transcript

    service = context.service(now, embed_on_write=True)
    report = capture_transcript(service, transcript, session, project)
    click.echo(f"Captured {len(report.created)} new, reinforced {len(report.reinforced)}.")
    for memory_id in report.created:
        click.echo(f"  {memory_id}")


@main.command()
@now_option
@pass_context
def sweep(context: Context, now: datetime | None) -> None:
    """Capture transcripts never captured (crashed sessions) and prune when due.

    Example: vault sweep
    """
    from hooks.claude_code.capture import sweep as run_sweep

    result = run_sweep(context.service(now, embed_on_write=True), os.environ)
    pruned = "not due" if result["pruned"] is None else result["pruned"]
    click.echo(f"Captured from {len(result['captured'])} transcripts; pruned: {pruned}.")


@main.command()
@click.option(
    "--idle",
    type=float,
    default=None,
    metavar="SECONDS",
    help="Exit after this long without requests (default: daemon_idle_seconds).",
)
@pass_context
def serve(context: Context, idle: float | None) -> None:
    """Run the warm daemon for this vault in the foreground (hooks start it on demand).

    Example: vault serve --idle 600
    """
    from hooks.daemon.server import run

    vault = context.vault
    if not vault.exists():
        raise CliError(f"no vault at {vault.root}; run `vault init` first")
    run(vault, load_settings(vault.config_path, os.environ), idle)


@main.command()
@click.argument("action", type=click.Choice(["status", "stop", "restart", "start"]))
@json_option
@pass_context
def daemon(context: Context, action: str, as_json: bool) -> None:
    """Show, start, stop or restart the warm daemon.

    Example: vault daemon status
    """
    from hooks.daemon import control

    result = control.act(context.vault, action)
    emit(result) if as_json else click.echo(control.describe(result))
    if action == "status" and not result.get("running"):
        raise DaemonDown("no daemon is running for this vault")


@main.group()
def bench() -> None:
    """Measure memory-vault on your own or public data.

    Example: vault bench retrieval --data ../shared/bench/locomo-dev
    """


@bench.command()
@click.option(
    "--data",
    "data",
    required=True,
    type=click.Path(exists=True, file_okay=False, path_type=Path),
    help="Folder with memories.jsonl and queries.jsonl (LoCoMo format).",
)
@click.option("--mode", type=click.Choice(["hybrid", "vector", "keyword", "all"]), default="hybrid",
              show_default=True, help="Similarity used for ranking.")  # fmt: skip
@json_option
def retrieval(data: Path, mode: str, as_json: bool) -> None:
    """R@5, R@10, MRR and nDCG@10 of recall, with and without decay.

    Example: vault bench retrieval --data ../shared/bench/locomo-dev --mode all
    """
    from memory.retrieval_eval import MODES, run, table

    modes = list(MODES) if mode == "all" else [mode]
    try:
        report = run(data, modes, os.environ, progress=lambda line: click.echo(line, err=True))
    except ValueError as exc:
        raise CliError(str(exc)) from None
    emit(report) if as_json else click.echo(table(report))


@main.command()
@pass_context
def mcp(context: Context) -> None:
    """Run the MCP server on stdio (Claude Code starts it; `vault install` registers it).

    Example: claude mcp add --scope user --transport stdio vault -- /path/to/venv/bin/vault mcp
    """
    from hooks.mcp.server import serve as serve_mcp

    serve_mcp(context.vault.root)


@main.command()
@click.option("--dry-run", is_flag=True, help="Print what would change; change nothing.")
def install(dry_run: bool) -> None:
    """Wire memory-vault into Claude Code: hooks, the MCP server, a CLAUDE.md block.

    Example: vault install --dry-run
    """
    from hooks.claude_code.install import Installer

    try:
        actions = Installer(os.environ, dry_run).install()
    except ValueError as exc:
        raise CliError(str(exc)) from None
    for line in actions:
        click.echo(("would: " if dry_run else "") + line)


@main.command()
@click.option("--dry-run", is_flag=True, help="Print what would change; change nothing.")
def uninstall(dry_run: bool) -> None:
    """Remove exactly what `vault install` added (the vault itself is kept).

    Example: vault uninstall
    """
    from hooks.claude_code.install import Installer

    try:
        actions = Installer(os.environ, dry_run).uninstall()
    except ValueError as exc:
        raise CliError(str(exc)) from None
    for line in actions:
        click.echo(("would: " if dry_run else "") + line)


@main.command()
@click.option("--dir", "folder", type=click.Path(file_okay=False, path_type=Path), default=None,
              help="Where to build the demo vault (default: a new temporary folder).")  # fmt: skip
def demo(folder: Path | None) -> None:
    """Build a small demo vault on the real model and walk through the recall tiers.

    Example: vault demo --dir /tmp/vault-demo
    """
    from hooks.cli.demo import run_demo

    run_demo(folder, click.echo)


def _register_more() -> None:
    from hooks.cli.association import graph, links, topics

    for command in (links, graph, topics):
        main.add_command(command)


_register_more()
