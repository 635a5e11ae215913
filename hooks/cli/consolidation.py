"""`vault consolidate` (a run, a dry run, --undo RUN, --list) and `vault validate`:
the sleep cycle and confidence, each through the daemon when one runs."""

from __future__ import annotations

import sys
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import datetime
from typing import Any

import click

from hooks.cli.common import Context, emit, json_option, now_option, pass_context
from hooks.cli.errors import CliError
from hooks.cli.progress import stage_bars


@click.command()
@click.option("--dry-run", is_flag=True, help="Show what a run would do; change nothing.")
@click.option("--undo", "undo", metavar="RUN", help="Put back every file a run changed.")
@click.option("--force", is_flag=True, help="With --undo: restore files changed since the run.")
@click.option("--list", "list_runs", is_flag=True, help="List past runs, newest first.")
@click.option(
    "--review", is_flag=True, help="What automatic runs left for review; apply or drop each."
)
@click.option("--apply", "apply_", metavar="N,..|all", help="With --review: apply these.")
@click.option("--drop", metavar="N,..|all", help="With --review: drop these.")
@json_option
@now_option
@pass_context
def consolidate(context: Context, dry_run: bool, undo: str | None, force: bool, list_runs: bool,
                review: bool, apply_: str | None, drop: str | None, as_json: bool,
                now: datetime | None) -> None:  # fmt: skip
    """Merge duplicates, retire superseded facts, gist old episodes, find patterns.

    Every run is journaled in .state/consolidation/RUN.json and can be undone.
    Automatic runs retire only a few memories each; the rest waits for --review.
    Example: vault consolidate --dry-run
    """
    if sum((dry_run, bool(undo), list_runs, review)) > 1:
        raise CliError("use one of --dry-run, --undo RUN, --list and --review")
    if (apply_ or drop) and not review:
        raise CliError("--apply and --drop go with --review")
    if review:
        _review(context, apply_, drop, as_json, now)
        return
    args = {"dry_run": dry_run, "undo": undo or "", "force": force, "list": list_runs}
    result = _call(context, args, now)
    if as_json:
        emit(result)
    elif list_runs:
        click.echo(_runs(result["runs"]))
    elif undo:
        restored = len(result["restored"]) + len(result["removed"])
        click.echo(f"Undid run {result['undone']}: {restored} files restored byte for byte.")
    else:
        click.echo(_run(result))


def _call(context: Context, args: dict[str, Any], now: datetime | None) -> Any:
    """A run by the daemon when one runs, else here with a progress bar on a terminal."""
    if args["dry_run"] or args["undo"] or args["list"]:
        return context.call("consolidate", args, now)
    with _ticking("Consolidating (the daemon runs it)"):
        answered, result = context.ask_daemon("consolidate", args, now)
    if answered:
        return result
    from hooks.ops.housekeeping import generaliser_for, gist_writer_for
    from memory.consolidation.run import consolidate as run

    service = context.service(now)
    with stage_bars() as stages:
        return run(service, False, generaliser_for(service), stages,
                   gist_writer_for(service)).to_dict()  # fmt: skip


@contextmanager
def _ticking(label: str) -> Iterator[None]:
    """Seconds elapsed on stderr, once a second after the first, while waiting
    for the daemon (only when stderr is a terminal)."""
    if not sys.stderr.isatty():
        yield
        return
    done = threading.Event()

    def tick() -> None:
        started = time.monotonic()
        while not done.wait(1.0):
            click.echo(f"\r{label}: {time.monotonic() - started:.0f} s", nl=False, err=True)

    thread = threading.Thread(target=tick, daemon=True)
    thread.start()
    try:
        yield
    finally:
        done.set()
        thread.join()
        click.echo("\r\033[K", nl=False, err=True)


def _picks(value: str) -> list[int] | None:
    if value.strip().lower() == "all":
        return None
    try:
        return [int(part) for part in value.split(",") if part.strip()]
    except ValueError:
        raise CliError(f"{value!r} is not a list of entry numbers (1,3) or 'all'") from None


def _review(context: Context, apply_: str | None, drop: str | None, as_json: bool,
            now: datetime | None) -> None:  # fmt: skip
    if apply_ and drop:
        raise CliError("use one of --apply and --drop at a time")
    if apply_ or drop:
        what, picks = ("apply", apply_) if apply_ else ("drop", drop)
        args = {"review": what, "picks": _picks(picks or "")}
        result = context.call("consolidate", args, now)
        if as_json:
            emit(result)
        elif what == "apply":
            click.echo(_run(result["applied"]))
        else:
            click.echo(f"Dropped {result['dropped']} from the review list.")
        return
    pending = context.call("consolidate", {"review": "list"}, now)["pending"]
    if as_json:
        emit(pending)
        return
    if not pending:
        click.echo("Nothing waits for review.")
        return
    for number, entry in enumerate(pending, 1):
        click.echo(f"{number:3}. {_action(entry['action'])}  (run {entry['run']})")
    if sys.stdin.isatty() and sys.stdout.isatty():
        _ask_each(context, pending, now)
    else:
        click.echo("Apply or drop with: vault consolidate --review --apply 1,2 (or --drop, or all)")


def _ask_each(context: Context, pending: list[dict[str, Any]], now: datetime | None) -> None:
    chosen: dict[str, list[int]] = {"apply": [], "drop": []}
    for number in range(1, len(pending) + 1):
        answer = click.prompt(f"{number}: apply, drop or skip", default="skip",
                              type=click.Choice(["apply", "drop", "skip"]))  # fmt: skip
        if answer != "skip":
            chosen[answer].append(number)
    if chosen["apply"]:  # apply first: dropping renumbers what is left
        result = context.call("consolidate", {"review": "apply", "picks": chosen["apply"]}, now)
        click.echo(_run(result["applied"]))
    if chosen["drop"]:
        left = [n - sum(1 for a in chosen["apply"] if a < n) for n in chosen["drop"]]
        result = context.call("consolidate", {"review": "drop", "picks": left}, now)
        click.echo(f"Dropped {result['dropped']} from the review list.")


def _runs(runs: list[dict[str, Any]]) -> str:
    if not runs:
        return "No consolidation runs yet."
    lines = []
    for run in runs:
        state = f"undone {run['undone']}" if run["undone"] else "applied"
        if not run["finished"] and not run["undone"]:
            state = "stopped midway (undo puts it back)"
        who = "automatic" if run.get("automatic") else "by hand"
        lines.append(f"{run['run']}  {run['actions']:4} actions  {run['files']:4} files  "
                     f"{who:9}  {state}")  # fmt: skip
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
