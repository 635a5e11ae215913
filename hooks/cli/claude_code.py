"""`vault capture`, `sweep`, `install` and `uninstall`: Claude Code's side,
run by hand (the hooks run capture and sweep on their own; both go to the daemon
when one runs); `install --agent` wires in another coding agent instead
(hooks/cli/agents.py)."""

from __future__ import annotations

import os
from datetime import datetime
from pathlib import Path

import click

from hooks.cli.common import Context, emit, json_option, now_option, pass_context
from hooks.cli.errors import CliError
from hooks.cli.progress import progress_bar
from vault.config import load_settings
from vault.errors import VaultError
from vault.layout import Vault
from vault.paths import resolve_vault_home


@click.command()
@click.option("--transcript", "transcript", required=True,
              type=click.Path(exists=True, dir_okay=False, path_type=Path),
              help="A Claude Code transcript (.jsonl).")  # fmt: skip
@click.option("--session", default="", help="Session id (default: from the transcript).")
@click.option("--project", default="", help="Project identity (default: from the transcript).")
@json_option
@now_option
@pass_context
def capture(context: Context, transcript: Path, session: str, project: str, as_json: bool,
            now: datetime | None) -> None:  # fmt: skip
    """Capture durable statements from a transcript (from its cursor on; exactly once).

    Example: vault capture --transcript ~/.claude/projects/-home-me-api/5f0c.jsonl
    """
    args = {"transcript": str(transcript.resolve()), "session": session, "project": project,
            "wait": True}  # fmt: skip
    report = context.call("capture", args, now)
    if as_json:
        emit(report)
        return
    retired = report.get("superseded", [])
    changed = f", superseded {len(retired)} (`vault revive ID` undoes one)" if retired else ""
    waiting = report.get("for_review", [])
    if waiting:
        changed += f", {len(waiting)} change(s) left for `vault consolidate --review`"
    click.echo(f"Captured {len(report['created'])} new, reinforced {len(report['reinforced'])}"
               f"{changed}.")  # fmt: skip
    for memory_id in report["created"]:
        click.echo(f"  {memory_id}")


@click.command()
@json_option
@now_option
@pass_context
def sweep(context: Context, as_json: bool, now: datetime | None) -> None:
    """Capture transcripts never captured (crashed sessions); prune and consolidate when due.

    Example: vault sweep
    """
    from hooks.claude_code.capture import sweep as run_sweep
    from hooks.claude_code.config_dir import claude_dir

    args = {"claude_config_dir": str(claude_dir(os.environ)), "wait": True}
    answered, result = context.ask_daemon("sweep", args, now)
    if not answered:
        with progress_bar("Transcripts") as progress:
            report = run_sweep(context.service(now), os.environ, progress)
        result = {
            "captured": report.captured,
            "pruned": report.pruned,
            "consolidated": report.consolidated,
        }
    if as_json:
        emit(result)
        return
    pruned = "not due" if result["pruned"] is None else result["pruned"]
    consolidated = result.get("consolidated") or "not due"
    click.echo(
        f"Captured from {len(result['captured'])} transcripts; pruned: {pruned}; "
        f"consolidation: {consolidated}."
    )


AGENT_NAMES = ("claude", "codex", "cursor", "gemini", "opencode")
agent_option = click.option(
    "--agent", type=click.Choice(AGENT_NAMES), default="claude", show_default=True,
    help="The coding agent to wire the vault into.",
)  # fmt: skip
project_option = click.option(
    "--project", type=click.Path(exists=True, file_okay=False, path_type=Path),
    help="Cursor: also add the rules file to this project.",
)  # fmt: skip


@click.command()
@click.option("--dry-run", is_flag=True, help="Print what would change; change nothing.")
@agent_option
@project_option
def install(dry_run: bool, agent: str, project: Path | None) -> None:
    """Wire memory-vault into Claude Code (hooks, the MCP server, a CLAUDE.md block)
    or, with --agent, into Codex, Cursor, Gemini CLI or OpenCode (MCP server, rules).

    Example: vault install --agent codex --dry-run
    """
    _run_installer(dry_run, remove=False, agent=agent, project=project)


@click.command()
@click.option("--dry-run", is_flag=True, help="Print what would change; change nothing.")
@agent_option
@project_option
def uninstall(dry_run: bool, agent: str, project: Path | None) -> None:
    """Remove exactly what `vault install` added (the vault itself is kept).

    Example: vault uninstall --agent gemini
    """
    _run_installer(dry_run, remove=True, agent=agent, project=project)


def _run_installer(dry_run: bool, remove: bool, agent: str, project: Path | None) -> None:
    if agent != "claude":
        from hooks.cli.agents import run_agent_installer

        run_agent_installer(agent, dry_run, remove, project)
        return
    from hooks.claude_code.install import Installer

    context = click.get_current_context().find_object(Context)
    vault = context.vault if context else Vault(resolve_vault_home(None, os.environ))
    try:  # `push_on_success` adds PostToolUse for edits and writes
        settings = load_settings(vault.config_path, os.environ)
    except VaultError as exc:
        raise CliError(str(exc)) from None
    installer = Installer(os.environ, dry_run, settings.push_on_success)
    try:
        actions = installer.uninstall() if remove else installer.install()
    except ValueError as exc:  # settings.json that is not a JSON object: fix it first
        raise CliError(str(exc)) from None
    for line in actions:
        click.echo(("would: " if dry_run else "") + line)
