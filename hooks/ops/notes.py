"""The daemon's operations on daily logs and periodic notes (the CLI and MCP use
the same ones): each takes the service and the request's arguments and returns
JSON-ready data. ops.py registers them; their errors are the expected kinds.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from hooks.client.protocol import InvalidRequest
from hooks.ops.requests import Json
from memory.notes.periodic import append, show_or_create, synthesize_note
from memory.notes.recent import daily_load, latest_notes, periodic_load
from memory.service import MemoryService
from vault import periodic
from vault.daily import daily_path, init_daily, read_daily
from vault.note_blocks import readable
from vault.periodic import LEVELS, Period

Args = Mapping[str, object]
DEFAULT_LOAD_CHARS = 3000


def _level(args: Args) -> str:
    level = args.get("level")
    if level not in LEVELS:
        raise InvalidRequest(f"level must be one of {', '.join(LEVELS)}")
    return str(level)


def _period(service: MemoryService, args: Args) -> Period:
    """The period named by `period` (e.g. 2027-W05), else the one holding now."""
    level, key = _level(args), args.get("period")
    if key is not None and not isinstance(key, str):
        raise InvalidRequest("period must be a string such as 2027-W05")
    return periodic.parse_period(level, key) if key else periodic.containing(level, service.clock())


def _text(args: Args) -> str:
    text = args.get("text")
    if not isinstance(text, str) or not text.strip():
        raise InvalidRequest("text must be a non-empty string")
    return text


def _note(period: Period, path: object, text: str, **extra: object) -> dict[str, Any]:
    return {"level": period.level, "period": period.key, "start": f"{period.start}",
            "end": f"{period.end}", "path": str(path), "text": text, **extra}  # fmt: skip


def op_daily_show(service: MemoryService, args: Args) -> Json:
    today = service.clock().date()
    text = read_daily(service.vault, today)
    return {"date": f"{today}", "path": str(daily_path(service.vault, today)),
            "exists": text is not None, "text": text or ""}  # fmt: skip


def op_daily_init(service: MemoryService, args: Args) -> Json:
    path, created = init_daily(service.vault, service.clock().date())
    return {"path": str(path), "created": created}


def op_daily_load(service: MemoryService, args: Args) -> Json:
    return {"days": daily_load(service.vault, service.clock())}


def op_periodic_show(service: MemoryService, args: Args) -> Json:
    period = _period(service, args)
    path, text, created = show_or_create(service.vault, period)
    return _note(period, path, text, created=created)


def op_periodic_list(service: MemoryService, args: Args) -> Json:
    notes = periodic.list_notes(service.vault, _level(args))
    return [
        {
            "period": p.key,
            "start": f"{p.start}",
            "end": f"{p.end}",
            "path": str(periodic.note_path(service.vault, p)),
        }  # fmt: skip
        for p in notes
    ]


def op_periodic_append(service: MemoryService, args: Args) -> Json:
    period = _period(service, args)
    path = append(service.vault, period, _text(args), service.clock())
    return {"level": period.level, "period": period.key, "path": str(path)}


def op_periodic_synthesize(service: MemoryService, args: Args) -> Json:
    from hooks.claude_code.llm_summary import summariser

    period = _period(service, args)
    summarise = summariser(service.vault, service.settings)
    return synthesize_note(service, period, summarise).to_dict()


def op_periodic_load(service: MemoryService, args: Args) -> Json:
    max_chars = args.get("max_chars", DEFAULT_LOAD_CHARS)
    if not isinstance(max_chars, int) or isinstance(max_chars, bool) or max_chars < 1:
        raise InvalidRequest("max_chars must be a positive whole number")
    now = service.clock()
    notes = [p.key for p, _ in latest_notes(service.vault, now, ("weekly", "monthly"))]
    return {"notes": notes, "text": periodic_load(service.vault, now, max_chars)}


def op_periodic_all(service: MemoryService, args: Args) -> Json:
    found = latest_notes(service.vault, service.clock(), LEVELS)
    return [_note(p, periodic.note_path(service.vault, p), readable(text)) for p, text in found]


def op_changelog_append(service: MemoryService, args: Args) -> Json:
    project = args.get("project") or ""
    if not isinstance(project, str):
        raise InvalidRequest("project must be a string")
    record = service.append_changelog(_text(args), project)
    entry = record.body.rstrip("\n").rsplit("\n", 1)[-1]
    return {"id": record.id, "path": str(record.path), "entry": entry}


NOTE_OPS: dict[str, Callable[[MemoryService, Args], Json]] = {
    "changelog_append": op_changelog_append,
    "daily_show": op_daily_show,
    "daily_init": op_daily_init,
    "daily_load": op_daily_load,
    "periodic_show": op_periodic_show,
    "periodic_list": op_periodic_list,
    "periodic_append": op_periodic_append,
    "periodic_synthesize": op_periodic_synthesize,
    "periodic_load": op_periodic_load,
    "periodic_all": op_periodic_all,
}
