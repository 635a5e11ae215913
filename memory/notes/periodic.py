"""Periodic notes as the memory model writes them: show or create a period's
note, append to it, and synthesize it from the level below and the period's
memories. Files are vault/'s; synthesis is pure (memory/notes/synthesis.py); an
optional summariser (an LLM) is passed in. Reading them: memory/notes/recent.py.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import date, datetime
from pathlib import Path
from typing import Any

from memory.context import ServiceContext
from memory.encode.redact import redact
from memory.notes.synthesis import SECTIONS, MemoryLine, Source, chosen_memories, synthesize
from vault import periodic
from vault.clock import parse_time
from vault.daily import read_daily
from vault.layout import Vault
from vault.note_blocks import block, merge
from vault.periodic import Period

# (title, source text) -> a short prose summary (an LLM's); raises SummaryUnavailable.
Summariser = Callable[[str, str], str]


class SummaryUnavailable(Exception):
    """The summariser could not answer; the extractive note stands on its own."""


def template(period: Period) -> str:
    """A new note: its sections, each with an empty generated block, then Notes."""
    parts = [f"# {period.title}\n"]
    for name, title in SECTIONS:
        parts.append(f"## {title}\n{block(name, '')}\n")
    parts.append("## Notes\n")
    return "\n".join(parts)


def show_or_create(vault: Vault, period: Period) -> tuple[Path, str, bool]:
    path, created = periodic.create_note(vault, period, template(period))
    return path, path.read_text(encoding="utf-8", errors="replace"), created


def append(vault: Vault, period: Period, text: str, now: datetime) -> Path:
    """A dated line in the note's hand-written part (kept by every re-synthesis)."""
    entry = f"- {now:%Y-%m-%d %H:%M} {' '.join(redact(text).split())}"
    return periodic.append_to_note(vault, period, entry, template(period))


@dataclass
class SynthesisReport:
    path: str
    period: str
    sources: list[str] = field(default_factory=list)
    missing: list[str] = field(default_factory=list)  # children without a note
    linked: list[str] = field(default_factory=list)
    decision_lines: int = 0
    open_threads: int = 0
    updated: list[str] = field(default_factory=list)
    kept_edited: list[str] = field(default_factory=list)
    summary_by: str = "extractive"

    def to_dict(self) -> dict[str, Any]:
        return dict(self.__dict__)


def synthesize_note(
    service: ServiceContext, period: Period, summarise: Summariser | None = None
) -> SynthesisReport:
    """Fill the note's generated blocks from the level below and the period's
    memories, and rewrite its raw source; whatever a person wrote stays."""
    vault = service.vault
    service.fresh()  # memories written without the daemon are in the files, not yet the index
    sources, missing = _sources(vault, period)
    memories = _memories(service)
    chosen = set(chosen_memories(period, sources, memories))
    memories = [_with_text(service, m) if m.id in chosen else m for m in memories]
    result = synthesize(period, sources, memories)
    summary_by = "extractive"
    if summarise is not None and sources:
        try:
            prose = summarise(period.title, result.source)
        except SummaryUnavailable as exc:
            prose, summary_by = "", f"extractive ({exc})"
        if prose.strip():
            result = synthesize(period, sources, memories, prose)
            summary_by = "claude -p"
    existing = periodic.read_note(vault, period) or template(period)
    merged = merge(existing, result.contents, result.source)
    path = periodic.write_note(vault, period, merged.text)
    report = SynthesisReport(str(path), period.key, [s.key for s in sources], missing)
    report.linked, report.decision_lines = result.linked, result.decision_lines
    report.open_threads, report.summary_by = result.open_threads, summary_by
    report.updated, report.kept_edited = merged.updated, merged.kept_edited
    return report


def _sources(vault: Vault, period: Period) -> tuple[list[Source], list[str]]:
    sources, missing = [], []
    for child in period.children():
        text = read_daily(vault, child.start) if child.level == "daily" else None
        if child.level != "daily":
            text = periodic.read_note(vault, child)
        if text is None and child.level != "daily":  # a day without a log is no gap
            missing.append(child.key)
        if text is None:
            continue
        sources.append(Source(child.key, text))
    return sources, missing


def _memories(service: ServiceContext) -> list[MemoryLine]:
    return [
        MemoryLine(
            row.id,
            row.kind,
            row.project,
            _day(row.created),
            _day(row.last_access),
            row.confirmations,
            row.recalls,
        )  # fmt: skip
        for row in service.index.rows(archived=False)
    ]


def _with_text(service: ServiceContext, memory: MemoryLine) -> MemoryLine:
    return MemoryLine(**{**memory.__dict__, "text": service.index.body(memory.id)})


def _day(stamp: str) -> date:
    try:
        return parse_time(stamp).date()
    except ValueError:
        return date.min
