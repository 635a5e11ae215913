"""`vault daily`, `weekly`, `monthly`, `quarterly`, `yearly` and `periodic`: the
session logs and the periodic notes that summarise them, level by level. Each
calls the daemon's note operation (or runs it in-process), as MCP does."""

from __future__ import annotations

from datetime import datetime
from typing import Any

import click

from hooks.cli.common import Context, emit, json_option, now_option, pass_context

EXAMPLES = {"weekly": "2027-W05", "monthly": "2027-01", "quarterly": "2027-Q1", "yearly": "2027"}


@click.command()
@click.option("--init", "init", is_flag=True, help="Create today's log if it does not exist.")
@click.option("--append", "text", metavar="TEXT", help="Add a timed line to today's log.")
@click.option("--load", "load", is_flag=True, help="Show today's and yesterday's logs.")
@click.option("--today", "today", is_flag=True, help="Show today's log (the default).")
@json_option
@now_option
@pass_context
def daily(context: Context, init: bool, text: str | None, load: bool, today: bool,
          as_json: bool, now: datetime | None) -> None:  # fmt: skip
    """Today's session log, daily/YYYY-MM-DD.md (capture appends to it too).

    Example: vault daily --append "Fixed the flaky date test" && vault daily --load
    """
    if init:
        data = context.call("daily_init", {}, now)
        _say(as_json, data, f"{'Created' if data['created'] else 'Exists'}: {data['path']}")
    if text is not None:
        data = context.call("daily_append", {"text": text}, now)
        _say(as_json, data, f"Appended to {data['file']}")
    if load:
        data = context.call("daily_load", {}, now)
        shown = "\n\n".join(day["text"].strip() for day in data["days"])
        _say(as_json, data, shown or "No daily log for today or yesterday.")
    if today or not (init or text is not None or load):
        data = context.call("daily_show", {}, now)
        _say(as_json, data, data["text"].strip() or f"No log yet for {data['date']}.")


def _say(as_json: bool, data: Any, text: str) -> None:
    if as_json:
        emit(data)
    else:
        click.echo(text)


def _checked_period(level: str) -> Any:
    """A click callback: a period name of `level`, or a usage error that says why."""

    def check(_: click.Context, __: click.Parameter, value: str | None) -> str | None:
        from vault.errors import VaultError
        from vault.periodic import parse_period

        try:
            return parse_period(level, value).key if value else None
        except VaultError as exc:
            raise click.BadParameter(str(exc)) from None

    return check


def _periodic_command(level: str) -> click.Command:
    example = EXAMPLES[level]

    @click.command(name=level)
    @click.option("--period", callback=_checked_period(level), metavar="KEY",
                  help=f"Another period than the current, e.g. {example}.")  # fmt: skip
    @click.option("--append", "text", metavar="TEXT", help="Add a dated line to the note.")
    @click.option("--list", "list_", is_flag=True, help=f"List every {level} note.")
    @click.option("--synthesize", is_flag=True, help="Fill the note from the level below.")
    @json_option
    @now_option
    @pass_context
    def command(context: Context, period: str | None, text: str | None, list_: bool,
                synthesize: bool, as_json: bool, now: datetime | None) -> None:  # fmt: skip
        args = {"level": level, "period": period}
        if list_:
            data = context.call("periodic_list", args, now)
            _say(as_json, data, "\n".join(f"{n['period']}  {n['path']}" for n in data) or "None.")
            return
        if text is not None:
            data = context.call("periodic_append", {**args, "text": text}, now)
            _say(as_json, data, f"Appended to {data['path']}")
        elif synthesize:
            data = context.call("periodic_synthesize", args, now)
            _say(as_json, data, _synthesis_text(data))
        else:
            data = context.call("periodic_show", args, now)
            _say(as_json, data, data["text"].rstrip())

    below = {"weekly": "daily logs", "monthly": "weekly notes", "quarterly": "monthly notes",
             "yearly": "quarterly notes"}[level]  # fmt: skip
    command.help = (
        f"Show or create the current {level} note (periodic/{level}/{example}.md); "
        f"--synthesize fills it from its {below}.\n\n"
        f"Example: vault {level} --synthesize && vault {level} --period {example}"
    )
    return command


def _synthesis_text(data: dict[str, Any]) -> str:
    lines = [
        f"Synthesized {data['period']} -> {data['path']}",
        f"  from {len(data['sources'])} notes below ({', '.join(data['sources']) or 'none'})",
        f"  linked {len(data['linked'])} memories; {data['decision_lines']} decision lines, "
        f"{data['open_threads']} open threads; summary: {data['summary_by']}",
    ]
    if data["missing"]:
        lines.append(f"  no note yet for: {', '.join(data['missing'])}")
    if data["kept_edited"]:
        lines.append(f"  kept your edits in: {', '.join(data['kept_edited'])}")
    return "\n".join(lines)


weekly = _periodic_command("weekly")
monthly = _periodic_command("monthly")
quarterly = _periodic_command("quarterly")
yearly = _periodic_command("yearly")


@click.command()
@click.option("--load", "load", is_flag=True, help="This week's and month's notes (the default).")
@click.option("--all", "all_", is_flag=True, help="The current note of every level.")
@click.option("--max-chars", default=3000, show_default=True, help="Cap for --load.")
@json_option
@now_option
@pass_context
def periodic(context: Context, load: bool, all_: bool, max_chars: int, as_json: bool,
             now: datetime | None) -> None:  # fmt: skip
    """The recent periodic notes without their raw source (what a session briefing loads).

    Example: vault periodic --load --max-chars 2000
    """
    if all_:
        notes = context.call("periodic_all", {}, now)
        shown = "\n\n".join(f"{n['text']}" for n in notes)
        _say(as_json, notes, shown or "No periodic notes yet.")
        return
    data = context.call("periodic_load", {"max_chars": max_chars}, now)
    _say(as_json, data, data["text"] or "No weekly or monthly note yet.")


@click.command()
@click.argument("text")
@click.option("--project", default="", help="Project identity, e.g. github.com/acme/api.")
@json_option
@now_option
@pass_context
def changelog(context: Context, text: str, project: str, as_json: bool,
              now: datetime | None) -> None:  # fmt: skip
    """Add a dated line to the changelog (one per project, a curated memory).

    The text is redacted first; the changelog is indexed, recalled and synced
    like any memory (memories/changelog-<project>.md).

    Example: vault changelog "Shipped new auth flow" --project github.com/acme/api
    """
    data = context.call("changelog_append", {"text": text, "project": project}, now)
    _say(as_json, data, f"{data['entry']}  ({data['path']})")
