"""Capture from Claude Code transcripts: incremental, exactly once, crash-safe.
This is step 1 of the capture pipeline (memory/encode/capture.py) and nothing
more: only transcripts under <claude dir>/projects (or `transcripts_allowed`)
are read; under the transcript's lock a run reads the turns after its cursor
(cursors.py), hands them to the pipeline with the session, the project and the
`claude -p` extractor when it is switched on, and advances the cursor. The sweep
does this for every recent transcript left behind (crashed sessions), then
daily maintenance and consolidation when due."""

from __future__ import annotations

import hashlib
import os
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path

from hooks.claude_code.config_dir import claude_dir, transcript_folders
from hooks.claude_code.cursors import Cursors
from hooks.claude_code.llm_extract import extractor
from hooks.claude_code.project import project_for
from hooks.claude_code.transcript import STEP_BYTES, STEP_TURNS, read_turns
from memory.encode.capture import CaptureReport, Said, capture_conversation
from memory.encode.redact import redact
from memory.maintenance import prune_if_due
from memory.service import MemoryService
from vault.atomic import file_lock
from vault.clock import format_time
from vault.source_files import RefusedSourceError, check_source

TRANSCRIPT_MAX_AGE_DAYS = 30  # Claude Code deletes transcripts after cleanupPeriodDays (30)


def cursor_offset(service: MemoryService, transcript: Path) -> int:
    """How far capture has read `transcript` (bytes); 0 when never captured."""
    return Cursors(service.vault.state_dir).offset(str(transcript.expanduser().resolve()))


def capture_transcript(
    service: MemoryService,
    transcript: Path,
    session: str = "",
    project: str = "",
    environ: Mapping[str, str] = os.environ,
) -> CaptureReport:
    """Capture everything said after the transcript's cursor, step by step."""
    total = CaptureReport()
    while True:
        report, more = capture_step(service, transcript, session, project, environ)
        total.created += report.created
        total.reinforced += report.reinforced
        total.superseded += report.superseded
        total.for_review += report.for_review
        total.texts += report.texts
        total.next_seq = report.next_seq
        if not more:
            return total


def capture_steps(
    service: MemoryService, transcript: Path, environ: Mapping[str, str], **given: str
) -> tuple[Callable[[], object], ...]:
    """Bounded steps to capture `transcript` as it is now (the daemon serves other
    requests in between): one per STEP_BYTES / STEP_TURNS of it (a step ends at
    whichever bound comes first); a step with nothing left only looks. What a
    chatty transcript has beyond them, the next capture or sweep takes."""
    try:
        left = transcript.stat().st_size - cursor_offset(service, transcript)
    except OSError:
        return ()
    count = 1 + max(0, left) // (STEP_BYTES // STEP_TURNS)
    step = partial(_step_if_behind, service, transcript, environ, given)
    return (step,) * count


def _step_if_behind(
    service: MemoryService, transcript: Path, environ: Mapping[str, str], given: dict[str, str]
) -> None:
    try:
        behind = transcript.stat().st_size > cursor_offset(service, transcript)
    except OSError:
        return
    if behind:
        capture_step(service, transcript, environ=environ, **given)


def capture_step(
    service: MemoryService,
    transcript: Path,
    session: str = "",
    project: str = "",
    environ: Mapping[str, str] = os.environ,
) -> tuple[CaptureReport, bool]:
    """Capture what was said in the next bounded step (transcript.STEP_BYTES)
    after the transcript's cursor, and whether more is left; a transcript outside
    the allowed folders is refused (RefusedSourceError) before it is read."""
    folders = transcript_folders(environ, service.settings.transcripts_allowed)
    resolved = check_source(transcript, folders, "transcripts_allowed")
    key = str(resolved)
    digest = hashlib.sha1(key.encode()).hexdigest()[:16]
    cursors = Cursors(service.vault.state_dir)
    with file_lock(service.vault.state_dir / "locks" / f"transcript-{digest}.lock"):
        offset, last_seq = cursors.position(key)
        turns, new_offset = read_turns(resolved, offset)
        session = session or next((t.session for t in turns if t.session), resolved.stem)
        cwd = next((t.cwd for t in turns if t.cwd), "")
        project = project or project_for(service.settings.project_override, cwd)
        said = [Said(t.role, t.text, t.timestamp) for t in turns]
        # os.environ, not `environ`: the child runs as the capturing process would
        llm = extractor(service.settings, service.vault.state_dir, os.environ)
        report = capture_conversation(service, said, session, project, last_seq + 1, llm)
        if new_offset != offset:
            done = format_time(service.clock())
            cursors.advance(key, new_offset, redact(session), done, report.next_seq - 1)
    return report, new_offset != offset and new_offset < resolved.stat().st_size


def pending_transcripts(service: MemoryService, environ: Mapping[str, str]) -> list[Path]:
    """Recent transcripts with content after their cursor (or never captured);
    links that lead out of the allowed folders are left out."""
    root = claude_dir(environ) / "projects"
    if not root.is_dir():
        return []
    folders = transcript_folders(environ, service.settings.transcripts_allowed)
    offsets = Cursors(service.vault.state_dir).offsets()
    oldest = service.clock().timestamp() - TRANSCRIPT_MAX_AGE_DAYS * 86400
    pending = []
    for path in sorted(root.glob("*/*.jsonl")):
        try:
            resolved = check_source(path, folders, "transcripts_allowed")
            stat = resolved.stat()
        except (RefusedSourceError, OSError):
            continue
        if stat.st_mtime >= oldest and stat.st_size > offsets.get(str(resolved), 0):
            pending.append(path)
    return pending


@dataclass
class SweepReport:
    captured: dict[str, int] = field(default_factory=dict)  # transcript -> memories
    pruned: int | None = None  # None: daily maintenance was not due
    consolidated: str | None = None  # the automatic consolidation run, when one was due


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
        captured = capture_transcript(service, path, environ=environ)
        if captured.total:
            report.captured[str(path)] = captured.total
        if progress is not None:
            progress(done, len(pending))
    report.pruned = prune_if_due(service)
    from hooks.claude_code.llm_generalise import generaliser
    from hooks.claude_code.llm_gist import gist_writer
    from memory.consolidation.run import consolidate_if_due

    state_dir = service.vault.state_dir
    run = consolidate_if_due(
        service,
        generaliser(service.settings, state_dir, environ),
        gist_writer(service.settings, state_dir, environ),
    )
    report.consolidated = run.run if run else None
    return report
