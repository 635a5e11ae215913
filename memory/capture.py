"""Turn extracted statements into memories: redacted, filed with session,
project, kind and source; a near-duplicate of an existing memory reinforces it
instead of creating a new file. `statements_from` picks them with the shipped
classifier over the service's warm model, or with the rules alone.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime

from indexer.index import Filters
from memory.extract import RuleScorer, Scorer, Statement, extract
from memory.redact import redact
from memory.service import MemoryService
from vault.clock import parse_time

NEAR_DUPLICATE_COSINE = 0.92


@dataclass
class CaptureReport:
    created: list[str] = field(default_factory=list)
    reinforced: list[str] = field(default_factory=list)
    texts: list[str] = field(default_factory=list)

    @property
    def total(self) -> int:
        return len(self.created) + len(self.reinforced)


def capture_scorer(service: MemoryService) -> Scorer:
    """The shipped classifier over the service's embedder where the model is in
    use anyway (the daemon, `vault capture`), else the rules: capture never loads
    a model for itself."""
    from memory.durable_classifier import EmbeddingScorer, shipped_classifier

    classifier = shipped_classifier()
    embedder = service.index.embedder
    if not service.embed_on_write or classifier is None or classifier.model != embedder.name:
        return RuleScorer()
    return EmbeddingScorer(classifier, embedder)


def statements_from(
    service: MemoryService,
    turns: list[tuple[str, str]],
    stamps: list[str] | None = None,
    scorer: Scorer | None = None,
) -> list[Statement]:
    """The durable statements of (role, text) `turns`, scored by `scorer` or by
    capture_scorer(service)."""
    return extract(turns, stamps, scorer or capture_scorer(service))


def capture(
    service: MemoryService,
    statements: list[Statement],
    session: str = "",
    project: str = "",
    source: str = "transcript",
) -> CaptureReport:
    report = CaptureReport()
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
            source=source if statement.role == "user" else f"{source}-assistant",
            salience=1.0 if statement.role == "user" else 0.7,
        )
        report.created.append(record.id)
        report.texts.append(text)
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
