"""`vault consolidate` (a run, a dry run, --undo RUN, --list) and `vault validate`:
the sleep cycle and confidence, each through the daemon when one runs."""

from __future__ import annotations

from datetime import datetime
from typing import Any

import click

from hooks.cli.common import Context, emit, json_option, now_option, pass_context
from hooks.cli.errors import CliError


@click.command()
@click.option("--dry-run", is_flag=True, help="Show what a run would do; change nothing.")
@click.option("--undo", "undo", metavar="RUN", help="Put back every file a run changed.")
@click.option("--force", is_flag=True, help="With --undo: restore files changed since the run.")
@click.option("--list", "list_runs", is_flag=True, help="List past runs, newest first.")
@json_option
@now_option
@pass_context
def consolidate(context: Context, dry_run: bool, undo: str | None, force: bool, list_runs: bool,
                as_json: bool, now: datetime | None) -> None:  # fmt: skip
    """Merge duplicates, retire superseded facts, gist old episodes, find patterns.

    Every run is journaled in .state/consolidation/RUN.json and can be undone.
    Example: vault consolidate --dry-run
    """
    if sum((dry_run, bool(undo), list_runs)) > 1:
        raise CliError("use one of --dry-run, --undo RUN and --list")
    args = {"dry_run": dry_run, "undo": undo or "", "force": force, "list": list_runs}
    result = context.call("consolidate", args, now)
    if as_json:
        emit(result)
    elif list_runs:
        click.echo(_runs(result["runs"]))
    elif undo:
        restored = len(result["restored"]) + len(result["removed"])
        click.echo(f"Undid run {result['undone']}: {restored} files restored byte for byte.")
    else:
        click.echo(_run(result))


def _runs(runs: list[dict[str, Any]]) -> str:
    if not runs:
        return "No consolidation runs yet."
    lines = []
    for run in runs:
        state = f"undone {run['undone']}" if run["undone"] else "applied"
        lines.append(f"{run['run']}  {run['actions']:4} actions  {run['files']:4} files  {state}")
    return "\n".join(lines)


def _run(result: dict[str, Any]) -> str:
    counts = result["counts"]
    verb = "Would" if result["dry_run"] else "Did"
    lines = [f"{verb}: " + ", ".join(f"{kind} {n}" for kind, n in counts.items())]
    for action in result["actions"]:
        lines.append("  " + _action(action))
    lines += [f"  skipped {why}" for why in result.get("skipped", [])]
    if result["run"]:
        lines.append(f"Journal: {result['journal']}")
        lines.append(f"Undo with: vault consolidate --undo {result['run']}")
    return "\n".join(lines)


def _action(action: dict[str, Any]) -> str:
    kind = action["action"]
    if kind == "supersede":
        return f"supersede {action['older']} by {action['newer']} ({action['reason']})"
    if kind == "merge":
        into = f" -> {action['into']}" if "into" in action else ""
        return f"merge {', '.join(action['sources'])}{into} ({action['reason']})"
    if kind == "gist":
        return f"gist {action['memory']}: {action.get('text') or action.get('full_text')}"
    into = f" -> {action['into']}" if "into" in action else ""
    return f"pattern from {', '.join(action['sources'])}{into}"


@click.command()
@click.argument("memory_id", metavar="ID")
@click.option("--up/--down", "up", default=None,
              help="Required: the memory is right (--up) or wrong (--down).")  # fmt: skip
@json_option
@now_option
@pass_context
def validate(
    context: Context, memory_id: str, up: bool | None, as_json: bool, now: datetime | None
) -> None:
    """Say a memory is right (--up: confidence +0.1) or wrong (--down: -0.05), within 0.3-0.9.

    Confidence moves its ranking in recall. Example: vault validate ID --down
    """
    if up is None:
        raise click.UsageError("say whether the memory is right (--up) or wrong (--down)")
    record = context.call("validate", {"id": memory_id, "up": up}, now)
    if as_json:
        emit(record)
        return
    click.echo(f"{record['id']}: confidence {record['confidence']:.2f}")
