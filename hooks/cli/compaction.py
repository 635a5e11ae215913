"""`vault compaction`: when Claude Code compacted its conversations (found in the
transcripts themselves), and whether capture had read what was compacted away."""

from __future__ import annotations

import json
import os
import threading
from datetime import datetime
from typing import Any

import click

from hooks.cli.common import Context, emit, json_option, now_option, pass_context


@click.command()
@click.option("--scan", "mode", flag_value="scan", help="Scan past transcripts (the default).")
@click.option("--watch", "mode", flag_value="watch", help="Follow the transcripts live.")
@click.option("--stats", "mode", flag_value="stats", help="Counts by trigger, project, size drop.")
@click.option("--log", "mode", flag_value="log", help="The recorded compactions, newest last.")
@click.option("--interval", default=5.0, show_default=True, help="Seconds between looks (--watch).")
@click.option("--for", "duration", type=float, default=None, metavar="SECONDS",
              help="Stop watching after SECONDS (default: until Ctrl-C).")  # fmt: skip
@click.option("--no-capture", is_flag=True, help="Record only; do not capture what was dropped.")
@click.option("-n", "limit", default=20, show_default=True, help="Events shown by --log.")
@json_option
@now_option
@pass_context
def compaction(context: Context, mode: str | None, interval: float, duration: float | None,
               no_capture: bool, limit: int, as_json: bool,
               now: datetime | None) -> None:  # fmt: skip
    """Find Claude Code's compactions in its transcripts (under $CLAUDE_CONFIG_DIR or
    ~/.claude) and capture whatever capture had not read before one.

    Example: vault compaction --scan && vault compaction --stats
    """
    from hooks.claude_code import compaction as watcher

    service = context.service(now)
    if mode == "stats":
        _show(as_json, watcher.stats(service), _dump)
    elif mode == "log":
        _show(as_json, watcher.events(service)[-limit:], _lines)
    elif mode == "watch":
        stop = threading.Event()
        if duration is not None:
            threading.Timer(duration, stop.set).start()
        click.echo(f"Watching transcripts every {interval:g} s (Ctrl-C stops).", err=True)
        try:
            watcher.watch(service, os.environ, interval, stop, _printer(as_json))
        except KeyboardInterrupt:
            stop.set()
    else:
        report = watcher.scan(service, os.environ, catch_up=not no_capture)
        if as_json:
            emit({"files": report.files, "events": report.events})
        else:
            click.echo(f"Scanned {report.files} transcripts: {len(report.events)} new compactions.")
            click.echo("\n".join(map(_line, report.events)), nl=bool(report.events))


def _show(as_json: bool, data: Any, text: Any) -> None:
    if as_json:
        emit(data)
    else:
        click.echo(text(data))


def _printer(as_json: bool) -> Any:
    def show(event: dict[str, Any]) -> None:
        click.echo(json.dumps(event, ensure_ascii=False) if as_json else _line(event))

    return show


def _lines(events: list[dict[str, Any]]) -> str:
    return "\n".join(map(_line, events)) or "No compactions recorded."


def _line(event: dict[str, Any]) -> str:
    if event.get("pre_tokens") is not None:
        change = f"{event['pre_tokens']} -> {event.get('post_tokens')} tokens"
    else:
        change = f"{event.get('size_before')} -> {event.get('size_after')} bytes"
    drop = f" (-{event['drop_percent']}%)" if event.get("drop_percent") is not None else ""
    caught = f", captured {event['captured']} dropped" if "captured" in event else ""
    return (f"{event.get('time')}  {event.get('trigger') or event.get('how')}  "
            f"{event.get('project') or '-'}  session {str(event.get('session'))[:8]}  "
            f"{change}{drop}{caught}")  # fmt: skip


def _dump(data: dict[str, Any]) -> str:
    return "\n".join(f"{key}: {value}" for key, value in data.items())
