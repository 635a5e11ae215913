"""Turn extracted statements into memories: redacted, filed with session,
project, kind, source and their order in the session (`seq`, counted from
`first_seq`); a near-duplicate of an existing memory reinforces it instead of
creating a new file.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime

from indexer.index import Filters
from memory.extract import Statement
from memory.redact import redact
from memory.service import MemoryService
from vault.clock import parse_time

NEAR_DUPLICATE_COSINE = 0.92


@dataclass
class CaptureReport:
    created: list[str] = field(default_factory=list)
    reinforced: list[str] = field(default_factory=list)
    texts: list[str] = field(default_factory=list)
    next_seq: int = 1  # where the next capture of the same session continues

    @property
    def total(self) -> int:
        return len(self.created) + len(self.reinforced)


def capture(
    service: MemoryService,
    statements: list[Statement],
    session: str = "",
    project: str = "",
    source: str = "transcript",
    first_seq: int = 1,
) -> CaptureReport:
    report = CaptureReport(next_seq=max(1, first_seq))
    for statement in statements:
        text = redact(statement.text).strip()
        if len(text) < 10:
            continue
        duplicate = _near_duplicate(service, text)
        if duplicate is not None:
            service.reinforce(duplicate)
            report.reinforced.append(duplicate)
            continue
        record = service.jot(
            text,
            created=_when(statement.at),
            kind=statement.kind,
            project=project,
            session=session,
            seq=report.next_seq,
            source=source if statement.role == "user" else f"{source}-assistant",
            salience=1.0 if statement.role == "user" else 0.7,
        )
        report.created.append(record.id)
        report.texts.append(text)
        report.next_seq += 1
    return report


def _when(stamp: str) -> datetime | None:
    """The time a statement was said; its order in the session depends on it."""
    try:
        return parse_time(stamp) if stamp else None
    except ValueError:
        return None


def _near_duplicate(service: MemoryService, text: str) -> str | None:
    for candidate in service.index.search(text, k=3, filters=Filters(archived=False))[:3]:
        if candidate.cosine >= NEAR_DUPLICATE_COSINE:
            return candidate.row.id
    return None
