"""Turn extracted statements into memories: redacted, filed with session,
project, kind, source and their order in the session (`seq`, counted from
`first_seq`), with salience from four dimensions (novelty, relevance, emotion,
prediction error; memory/lifecycle/salience.py). The judge of
memory/consolidation/statement.py decides against the nearest memories: a
restatement reinforces instead; a change is written and retires what it
changes (archive/, `superseded_by`). `statements_from` picks them with
the shipped classifier over the service's warm model, or with the rules alone.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime

from indexer.filters import Filters
from memory.consolidation.interference import updates_of_text
from memory.consolidation.statement import judge_statement, retire
from memory.context import ServiceContext
from memory.encode.encoding import jot
from memory.encode.extract import RuleScorer, Scorer, Statement, extract
from memory.encode.redact import redact
from memory.lifecycle.reinforcement import reinforce
from memory.lifecycle.salience import combine, dimensions, learned_weights
from vault.clock import format_time, parse_time
from vault.indexed_folders import is_document_path

NEIGHBOURS = 10  # active memories a statement is compared with (duplicates, salience)
ASSISTANT_SALIENCE = 0.7  # what the assistant said weighs less than what the person said


@dataclass
class CaptureReport:
    created: list[str] = field(default_factory=list)
    reinforced: list[str] = field(default_factory=list)
    superseded: list[str] = field(default_factory=list)  # older memories a change retired
    texts: list[str] = field(default_factory=list)
    next_seq: int = 1  # where the next capture of the same session continues

    @property
    def total(self) -> int:
        return len(self.created) + len(self.reinforced)


def capture_scorer(service: ServiceContext) -> Scorer:
    """The shipped classifier over the service's embedder where the model is in
    use anyway (the daemon, `vault capture`), else the rules: capture never loads
    a model for itself."""
    from memory.encode.durable_classifier import EmbeddingScorer, shipped_classifier

    classifier = shipped_classifier()
    embedder = service.index.embedder
    if not service.embed_on_write or classifier is None or classifier.model != embedder.name:
        return RuleScorer()
    return EmbeddingScorer(classifier, embedder)


def statements_from(
    service: ServiceContext,
    turns: list[tuple[str, str]],
    stamps: list[str] | None = None,
    scorer: Scorer | None = None,
) -> list[Statement]:
    """The durable statements of (role, text) `turns`, scored by `scorer` or by
    capture_scorer(service)."""
    return extract(turns, stamps, scorer or capture_scorer(service))


def capture(
    service: ServiceContext,
    statements: list[Statement],
    session: str = "",
    project: str = "",
    source: str = "transcript",
    first_seq: int = 1,
) -> CaptureReport:
    report = CaptureReport(next_seq=max(1, first_seq))
    weights = learned_weights(service.vault)
    for statement in statements:
        text = redact(statement.text).strip()
        if len(text) < 10:
            continue
        found = service.index.search(text, k=NEIGHBOURS, filters=Filters(archived=False))
        # a folder document is never restated (reinforced) or superseded (written)
        candidates = [c for c in found if not is_document_path(c.row.path)]
        created = _when(statement.at)
        stamp = format_time(created or service.clock())
        verdict = judge_statement(service, text, project, statement.kind, stamp, candidates)
        if verdict.restates is not None:
            reinforce(service, verdict.restates)
            report.reinforced.append(verdict.restates)
            continue
        updated = updates_of_text(service, text, project, statement.kind, stamp, candidates)
        dims = dimensions(text, project, candidates, bool(updated))
        role = 1.0 if statement.role == "user" else ASSISTANT_SALIENCE
        record = jot(
            service,
            text,
            created=created,
            kind=statement.kind,
            project=project,
            session=session,
            seq=report.next_seq,
            source=source if statement.role == "user" else f"{source}-assistant",
            salience=round(combine(dims, weights) * role, 3),
            salience_dims=dims,
        )
        report.created.append(record.id)
        report.texts.append(text)
        report.next_seq += 1
        for older, _ in verdict.changes:
            retire(service, older, record.id)
            report.superseded.append(older)
    return report


def _when(stamp: str) -> datetime | None:
    """The time a statement was said; its order in the session depends on it."""
    try:
        return parse_time(stamp) if stamp else None
    except ValueError:
        return None
