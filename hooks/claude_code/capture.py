"""Capture from Claude Code transcripts: incremental, exactly once, crash-safe.
Each transcript has a byte cursor in .state/cursors.json; a run holds the
transcript's lock, extracts durable statements after the cursor, files them and
advances it. The sweep does this for every recent transcript left behind
(crashed sessions), then daily maintenance when due (memory/maintenance.py).
"""

from __future__ import annotations

import hashlib
import logging
import os
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Any

from hooks.claude_code.config_dir import claude_dir
from hooks.claude_code.project import project_identity
from hooks.claude_code.transcript import read_turns
from memory.capture import CaptureReport, capture
from memory.extract import Statement, extract
from memory.maintenance import prune_if_due
from memory.service import MemoryService
from vault.atomic import file_lock
from vault.clock import format_time
from vault.daily import append_daily
from vault.state import JsonState

log = logging.getLogger(__name__)
TRANSCRIPT_MAX_AGE_DAYS = 30  # Claude Code deletes transcripts after cleanupPeriodDays (30)


def _cursors(service: MemoryService) -> JsonState:
    return JsonState(service.vault.state_dir / "cursors.json")


def capture_transcript(
    service: MemoryService, transcript: Path, session: str = "", project: str = ""
) -> CaptureReport:
    key = str(transcript.expanduser().resolve())
    digest = hashlib.sha1(key.encode()).hexdigest()[:16]
    with file_lock(service.vault.state_dir / "locks" / f"transcript-{digest}.lock"):
        entry = _cursors(service).read().get(key, {})
        entry = entry if isinstance(entry, dict) else {}
        offset = int(entry.get("offset", 0))
        turns, new_offset = read_turns(Path(key), offset)
        session = session or next((t.session for t in turns if t.session), Path(key).stem)
        cwd = next((t.cwd for t in turns if t.cwd), "")
        project = project or service.settings["project_override"] or project_identity(cwd)
        pairs = [(t.role, t.text) for t in turns]
        statements = _statements(service, pairs, [t.timestamp for t in turns])
        first_seq = int(entry.get("seq", 0)) + 1  # transcript order, across runs
        report = capture(service, statements, session, project, first_seq=first_seq)
        now = service.clock()
        if report.total:
            append_daily(service.vault, now, _daily_entry(now, session, project, report))

        def advance(data: dict[str, Any]) -> None:
            data[key] = {
                "offset": new_offset,
                "session": session,
                "updated": format_time(now),
                "seq": report.next_seq - 1,
            }

        _cursors(service).update(advance)
    return report


def _statements(
    service: MemoryService, pairs: list[tuple[str, str]], stamps: list[str]
) -> list[Statement]:
    """Rule-based extraction, or `claude -p` when switched on (rules if it fails)."""
    if not pairs or not service.settings["llm_extraction"]:
        return extract(pairs, stamps)
    from hooks.claude_code.llm_extract import ExtractionFailed, default_workdir, extract_with_claude

    try:
        return extract_with_claude(
            pairs,
            default_workdir(service.vault.state_dir),
            os.environ,
            service.settings["llm_model"],
            service.settings["llm_budget_usd"],
        )
    except ExtractionFailed as exc:
        log.warning("%s; using the rule-based extraction", exc)
        return extract(pairs, stamps)


def _daily_entry(now: datetime, session: str, project: str, report: CaptureReport) -> str:
    where = f" in {project}" if project else ""
    lines = [f"## {now:%H:%M} session {session[:8]}{where}"]
    lines.append(f"- captured {len(report.created)} new, reinforced {len(report.reinforced)}")
    lines += [f"- {' '.join(text.split())[:160]}" for text in report.texts[:5]]
    return "\n".join(lines)


def pending_transcripts(service: MemoryService, environ: Mapping[str, str]) -> list[Path]:
    """Recent transcripts with content after their cursor (or never captured)."""
    root = claude_dir(environ) / "projects"
    if not root.is_dir():
        return []
    cursors = _cursors(service).read()
    oldest = service.clock().timestamp() - TRANSCRIPT_MAX_AGE_DAYS * 86400
    pending = []
    for path in sorted(root.glob("*/*.jsonl")):
        try:
            stat = path.stat()
        except OSError:
            continue
        entry = cursors.get(str(path.resolve()), {})
        offset = int(entry.get("offset", 0)) if isinstance(entry, dict) else 0
        if stat.st_mtime >= oldest and stat.st_size > offset:
            pending.append(path)
    return pending


@dataclass
class SweepReport:
    captured: dict[str, int] = field(default_factory=dict)  # transcript -> memories
    pruned: int | None = None  # None: daily maintenance was not due


def sweep(
    service: MemoryService,
    environ: Mapping[str, str],
    progress: Callable[[int, int], None] | None = None,
) -> SweepReport:
    """Capture every pending transcript, then run daily maintenance if it is due;
    `progress(done, total)` hears after each transcript."""
    report = SweepReport()
    pending = pending_transcripts(service, environ)
    for done, path in enumerate(pending, 1):
        captured = capture_transcript(service, path)
        if captured.total:
            report.captured[str(path)] = captured.total
        if progress is not None:
            progress(done, len(pending))
    report.pruned = prune_if_due(service)
    return report
