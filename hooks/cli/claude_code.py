"""`vault capture`, `sweep`, `install` and `uninstall`: Claude Code's side,
run by hand (the hooks run capture and sweep on their own)."""

from __future__ import annotations

import os
from datetime import datetime
from pathlib import Path

import click

from hooks.cli.common import Context, now_option, pass_context, progress_bar
from hooks.cli.errors import CliError


@click.command()
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


@click.command()
@now_option
@pass_context
def sweep(context: Context, now: datetime | None) -> None:
    """Capture transcripts never captured (crashed sessions); prune and consolidate when due.

    Example: vault sweep
    """
    from hooks.claude_code.capture import sweep as run_sweep

    with progress_bar("Transcripts") as progress:
        report = run_sweep(context.service(now, embed_on_write=True), os.environ, progress)
    pruned = "not due" if report.pruned is None else report.pruned
    consolidated = report.consolidated or "not due"
    click.echo(
        f"Captured from {len(report.captured)} transcripts; pruned: {pruned}; "
        f"consolidation: {consolidated}."
    )


@click.command()
@click.option("--dry-run", is_flag=True, help="Print what would change; change nothing.")
def install(dry_run: bool) -> None:
    """Wire memory-vault into Claude Code: hooks, the MCP server, a CLAUDE.md block.

    Example: vault install --dry-run
    """
    _run_installer(dry_run, remove=False)


@click.command()
@click.option("--dry-run", is_flag=True, help="Print what would change; change nothing.")
def uninstall(dry_run: bool) -> None:
    """Remove exactly what `vault install` added (the vault itself is kept).

    Example: vault uninstall
    """
    _run_installer(dry_run, remove=True)


def _run_installer(dry_run: bool, remove: bool) -> None:
    from hooks.claude_code.install import Installer

    installer = Installer(os.environ, dry_run)
    try:
        actions = installer.uninstall() if remove else installer.install()
    except ValueError as exc:  # settings.json that is not a JSON object: fix it first
        raise CliError(str(exc)) from None
    for line in actions:
        click.echo(("would: " if dry_run else "") + line)
