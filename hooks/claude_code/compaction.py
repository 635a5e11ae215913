"""The compaction watcher: scan Claude Code's transcripts for compactions (past
ones, or live by polling), record each once in .state/compaction.json with its
time, project, session and size change, and make sure capture has read the part
that was compacted away (PreCompact captures too; this catches the runs where
that hook did not). Detection itself is compaction_detect.py's.
"""

from __future__ import annotations

import contextlib
import logging
import os
import threading
from collections import Counter
from collections.abc import Callable, Mapping
from contextlib import AbstractContextManager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from hooks.claude_code.capture import capture_transcript, cursor_offset
from hooks.claude_code.compaction_detect import Compaction, read_compactions, size_drop
from hooks.claude_code.config_dir import claude_dir
from hooks.claude_code.project import project_identity
from memory.service import MemoryService
from vault.clock import format_time
from vault.state import JsonState

log = logging.getLogger(__name__)
MAX_EVENTS = 2000  # the log keeps the newest


def _state(service: MemoryService) -> JsonState:
    return JsonState(service.vault.state_dir / "compaction.json")


def transcripts(environ: Mapping[str, str]) -> list[Path]:
    """Main-session transcripts under the Claude config folder (not subagents')."""
    root = claude_dir(environ) / "projects"
    return sorted(root.glob("*/*.jsonl")) if root.is_dir() else []


@dataclass
class ScanReport:
    files: int = 0
    events: list[dict[str, Any]] = field(default_factory=list)


def scan(
    service: MemoryService,
    environ: Mapping[str, str],
    catch_up: bool = True,
    index_lock: AbstractContextManager[object] | None = None,
) -> ScanReport:
    """Look at every transcript's new lines and size; record new compactions and,
    with `catch_up`, capture what a compaction dropped when capture is behind
    (holding `index_lock`, the daemon's work lock, only while capturing)."""
    paths = transcripts(environ)
    return ScanReport(len(paths), _scan_paths(service, paths, catch_up, index_lock, environ))


def scan_file(
    service: MemoryService,
    path: Path,
    catch_up: bool = True,
    environ: Mapping[str, str] = os.environ,
) -> list[dict[str, Any]]:
    return _scan_paths(service, [path], catch_up, None, environ)


def _scan_paths(
    service: MemoryService,
    paths: list[Path],
    catch_up: bool,
    index_lock: AbstractContextManager[object] | None,
    environ: Mapping[str, str],
) -> list[dict[str, Any]]:
    """One read of the state, the new bytes of each file, one write when anything changed."""
    known_files = _state(service).read().get("files", {})
    positions: dict[str, dict[str, Any]] = {}
    found: list[tuple[Path, Compaction]] = []
    for path in paths:
        key = str(path.resolve())
        known = known_files.get(key, {})
        looked = _look(service, path, known)
        if looked is None:
            continue
        events, position = looked
        if any(known.get(field) != value for field, value in position.items()):
            positions[key] = position
        seen = set(known.get("seen", []))
        found += [(path, event) for event in events if event.key not in seen]
    with index_lock or contextlib.nullcontext():
        entries = [_caught_up(service, path, event, catch_up, environ) for path, event in found]
    if positions or entries:
        _save(service, positions, entries)
    return entries


def _look(
    service: MemoryService, path: Path, known: dict[str, Any]
) -> tuple[list[Compaction], dict[str, Any]] | None:
    """The compactions in `path` since the recorded position, and the new position."""
    try:
        size = path.stat().st_size
    except OSError:
        return None
    offset, last_size = int(known.get("offset", 0)), int(known.get("size", 0))
    found: list[Compaction] = []
    dropped = size_drop(path, last_size, size, format_time(service.clock()))
    if dropped is not None:
        found.append(dropped)
    if size < offset:
        offset = 0  # rewritten: read it again (recorded events are not repeated)
    if size == offset:
        return found, {"offset": offset, "size": size}
    boundaries = frozenset(known.get("boundaries", []))
    events, offset, boundaries = read_compactions(path, offset, boundaries)
    return found + events, {"offset": offset, "size": size, "boundaries": sorted(boundaries)}


def _save(
    service: MemoryService, positions: dict[str, dict[str, Any]], entries: list[dict[str, Any]]
) -> None:
    """Record the files' positions and the new events (each once, even if two
    watchers saw it: the check is repeated under the state's lock)."""

    def change(data: dict[str, Any]) -> None:
        files = data.setdefault("files", {})
        for key, position in positions.items():
            files.setdefault(key, {}).update(position)
        events = data.setdefault("events", [])
        for entry in entries:
            file = files.setdefault(str(Path(entry["transcript"]).resolve()), {})
            if entry["key"] not in file.setdefault("seen", []):
                file["seen"].append(entry["key"])
                events.append(entry)
        del events[:-MAX_EVENTS]

    _state(service).update(change)


def _event_dict(service: MemoryService, event: Compaction) -> dict[str, Any]:
    project = (project_identity(event.cwd) or event.cwd) if event.cwd else ""
    return {**event.to_dict(), "project": project, "seen": format_time(service.clock())}


def _caught_up(
    service: MemoryService,
    path: Path,
    event: Compaction,
    catch_up: bool,
    environ: Mapping[str, str],
) -> dict[str, Any]:
    """The event, after capturing the transcript if capture had not yet read up to
    the compaction (the part before it leaves Claude's context)."""
    entry = _event_dict(service, event)
    behind = cursor_offset(service, path) < max(event.offset, 0) or event.how == "size-drop"
    entry["capture_behind"] = behind
    if catch_up and behind:
        report = capture_transcript(service, path, environ=environ)
        entry["captured"] = len(report.created)
        entry["reinforced"] = len(report.reinforced)
    return entry


def events(service: MemoryService) -> list[dict[str, Any]]:
    """Every recorded compaction, oldest first."""
    return list(_state(service).read().get("events", []))


def stats(service: MemoryService) -> dict[str, Any]:
    recorded = events(service)
    drops = [e["drop_percent"] for e in recorded if e.get("drop_percent") is not None]
    return {
        "events": len(recorded),
        "sessions": len({e.get("session") for e in recorded}),
        "transcripts_watched": len(_state(service).read().get("files", {})),
        "by_trigger": dict(Counter(e.get("trigger") or "unknown" for e in recorded)),
        "by_how": dict(Counter(e.get("how") for e in recorded)),
        "by_project": dict(Counter(e.get("project") or "(none)" for e in recorded)),
        "mean_drop_percent": round(sum(drops) / len(drops), 1) if drops else None,
        "captured_after_compaction": sum(int(e.get("captured", 0)) for e in recorded),
        "last": recorded[-1]["time"] if recorded else None,
    }


def watch(
    service: MemoryService,
    environ: Mapping[str, str],
    interval: float,
    stop: threading.Event,
    on_event: Callable[[dict[str, Any]], None] | None = None,
    lock: threading.Lock | None = None,
) -> None:
    """Scan every `interval` seconds until `stop` is set; `lock` (the daemon's
    work lock) is held only while a catch-up capture writes to the index."""
    while True:
        try:
            found = scan(service, environ, index_lock=lock).events
        except OSError as exc:
            log.warning("compaction scan failed: %s", exc)
            found = []
        for event in found:
            log.info("compaction in %s (%s)", event["transcript"], event["how"])
            if on_event is not None:
                on_event(event)
        if stop.wait(interval):
            return


def start_watch_thread(
    service: MemoryService, environ: Mapping[str, str], interval: float,
    stop: threading.Event, lock: threading.Lock,
) -> threading.Thread:  # fmt: skip
    """The daemon's watcher (setting compaction_watch = true)."""
    thread = threading.Thread(
        target=watch, args=(service, dict(environ), interval, stop, None, lock),
        name="compaction-watch", daemon=True,
    )  # fmt: skip
    thread.start()
    return thread
