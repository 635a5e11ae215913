"""The capture pipeline, read top to bottom: what was said becomes memories in
these steps, each one call into the one place that does it.

1. transcript -> turns: the caller's adapter hands in `Said` turns in order
   (hooks/claude_code/capture.py reads Claude Code's JSONL after its cursor);
2. redaction: a turn the person kept out is dropped whole, every other turn and
   the session and project are redacted (memory/encode/redact.py);
3. statements: each turn cut to what could be stored (extract.statements_of);
4. durable judgement: the classifier or the rules keep the lasting ones
   (extract.durable); an injected `Extract` (an LLM) may do 3 and 4 instead;
   one that says it holds only for now is kept as kind `status` (transient.py);
   one they drop that says something changed ("moved from port 7001 to 7400")
   waits for step 5, which keeps it only if it changes a memory;
5. change or restatement: each statement judged against its nearest memories
   (memory/consolidation/statement.py), its salience from four dimensions;
6. write: a restatement reinforces; anything else becomes an episodic memory
   (encoding.jot) and retires the memories it changes (statement.retire), in
   the archive too (a fact decay archived before its change was said), when
   the judge is confident; a change it is not confident about waits on the
   review list (statement.leave_for_review) with both memories kept;
7. index and link: the written files go through the one path every memory
   enters by (`on_files_changed`: index, file, link), inside jot and retire;
8. the day's note gets one entry (vault/daily.py).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field, replace
from datetime import datetime

from indexer.filters import Filters
from memory.consolidation.interference import updates_of_text
from memory.consolidation.statement import (
    Verdict,
    archived_changes,
    judge_statement,
    leave_for_review,
    retire,
)
from memory.consolidation.text import says_change
from memory.context import ServiceContext
from memory.encode.encoding import jot
from memory.encode.extract import RuleScorer, Scorer, Statement, durable, statements_of
from memory.encode.redact import redact
from memory.encode.transient import bounded_to_now
from memory.encode.turn_text import opted_out
from memory.lifecycle.reinforcement import reinforce
from memory.lifecycle.salience import combine, dimensions, learned_weights
from vault.clock import format_time, parse_time
from vault.daily import append_daily
from vault.indexed_folders import is_document_path
from vault.schema import STATUS_KIND

NEIGHBOURS = 10  # active memories a statement is compared with (duplicates, salience)
ASSISTANT_SALIENCE = 0.7  # what the assistant said weighs less than what the person said
MIN_CHARS = 10  # a shorter statement is not worth a memory

# An extractor that does steps 3 and 4 at once from (role, redacted text) turns
# (hooks/claude_code/llm_extract.py wraps `claude -p`); None: it failed, the rules decide.
Extract = Callable[[list[tuple[str, str]]], "list[Statement] | None"]


@dataclass(frozen=True)
class Said:
    """One turn of a conversation, as said."""

    role: str  # user | assistant
    text: str
    at: str = ""  # when (the transcript's ISO timestamp), if known


@dataclass
class CaptureReport:
    created: list[str] = field(default_factory=list)
    reinforced: list[str] = field(default_factory=list)
    superseded: list[str] = field(default_factory=list)  # older memories a change retired
    for_review: list[str] = field(default_factory=list)  # older ones a doubtful change left
    texts: list[str] = field(default_factory=list)
    next_seq: int = 1  # where the next capture of the same session continues

    @property
    def total(self) -> int:
        return len(self.created) + len(self.reinforced)


def capture_conversation(
    service: ServiceContext,
    turns: list[Said],
    session: str = "",
    project: str = "",
    first_seq: int = 1,
    extract_with: Extract | None = None,
    source: str = "transcript",
) -> CaptureReport:
    """Steps 2 to 8 for `turns` (step 1 is the caller's); `first_seq` numbers the
    first new memory in the session's order (across captures of one transcript)."""
    said = redacted(turns)
    session, project = redact(session), redact(project)
    statements = durable_statements(service, said, extract_with)
    report = capture(service, statements, session, project, source, first_seq)
    if report.total:
        note_in_daily(service, session, project, report)
    return report


def redacted(turns: list[Said]) -> list[Said]:
    """Step 2. An opted-out turn is emptied whole (checked on the raw text, before
    redaction removes its <private> tags), so the turns keep their positions."""
    return [Said(t.role, "" if opted_out(t.text) else redact(t.text), t.at) for t in turns]


def durable_statements(
    service: ServiceContext, said: list[Said], extract_with: Extract | None = None
) -> list[Statement]:
    """Steps 3 and 4: the injected extractor when given (the rules when it fails),
    else the statements the shipped classifier or the rules keep."""
    pairs = [(t.role, t.text) for t in said]
    if pairs and extract_with is not None:
        found = extract_with(pairs)
        if found is not None:
            return found
    return statements_from(service, pairs, [t.at for t in said])


def statements_from(
    service: ServiceContext,
    turns: list[tuple[str, str]],
    stamps: list[str] | None = None,
    scorer: Scorer | None = None,
) -> list[Statement]:
    """Steps 3 and 4 by our own rules: the durable statements of (role, redacted
    text) `turns`, judged by `scorer` or by capture_scorer(service), and in their
    place the dropped ones that say something changed, marked `if_change` (the
    judge of step 5 keeps one only if it changes a memory)."""
    candidates = statements_of(turns, stamps)
    kept = durable(candidates, scorer or capture_scorer(service))
    chosen = {(s.turn, s.text) for s in kept}
    ordered = []
    for candidate in candidates:
        statement = candidate.statement
        if (statement.turn, statement.text) in chosen:
            ordered.append(statement)
            chosen.discard((statement.turn, statement.text))
        elif candidate.turn is not None and _may_change(statement.text):
            ordered.append(replace(statement, if_change=True))
    return ordered


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


def _may_change(text: str) -> bool:
    """A dropped statement worth judging as a change: it names what was before,
    and neither asks nor holds only for now."""
    return says_change(text) and not text.rstrip().endswith("?") and not bounded_to_now(text)


def capture(
    service: ServiceContext,
    statements: list[Statement],
    session: str = "",
    project: str = "",
    source: str = "transcript",
    first_seq: int = 1,
) -> CaptureReport:
    """Steps 5 to 7 for each statement in turn (a later one is judged against the
    memories an earlier one wrote)."""
    report = CaptureReport(next_seq=max(1, first_seq))
    weights = learned_weights(service.vault)
    for statement in statements:
        text = statement.text.strip()
        if len(text) < MIN_CHARS:
            continue
        created = _when(statement.at)
        stamp = format_time(created or service.clock())
        kind = STATUS_KIND if bounded_to_now(text) else statement.kind
        found = service.index.search(text, k=NEIGHBOURS, filters=Filters(archived=False))
        # a folder document is never restated (reinforced) or superseded (written)
        candidates = [c for c in found if not is_document_path(c.row.path)]
        verdict = judge_statement(service, text, project, kind, stamp, candidates)
        if statement.if_change:  # dropped as passing unless it changes what is kept
            verdict.restates = None
            cold = service.index.search(text, k=NEIGHBOURS, filters=Filters(archived=True))
            verdict.add(archived_changes(service, text, project, kind, stamp, cold))
            if not verdict.changed:
                continue
        if verdict.restates is not None:
            reinforce(service, verdict.restates)
            report.reinforced.append(verdict.restates)
            continue
        if not statement.if_change:
            cold = service.index.search(text, k=NEIGHBOURS, filters=Filters(archived=True))
            verdict.add(archived_changes(service, text, project, kind, stamp, cold))
        updated = updates_of_text(service, text, project, kind, stamp, candidates)
        dims = dimensions(text, project, candidates, bool(updated))
        role = 1.0 if statement.role == "user" else ASSISTANT_SALIENCE
        record = jot(
            service,
            text,
            created=created,
            kind=kind,
            project=project,
            session=session,
            seq=report.next_seq,
            source=source if statement.role == "user" else f"{source}-assistant",
            salience=round(combine(dims, weights) * role, 3),
            salience_dims=dims,
        )
        _retire_changed(service, verdict, record.id, report)
        report.created.append(record.id)
        report.texts.append(text)
        report.next_seq += 1
    return report


def _retire_changed(
    service: ServiceContext, verdict: Verdict, newer: str, report: CaptureReport
) -> None:
    """A change the judge is confident about retires the older at once (the
    person said it changed, in words: relations.Judgement); any other waits on
    the review list, and both memories stay active until someone decides."""
    for older, _ in verdict.changes:
        retire(service, older, newer)
        report.superseded.append(older)
    if verdict.doubtful:
        report.for_review += leave_for_review(service, verdict.doubtful, newer)


def note_in_daily(
    service: ServiceContext, session: str, project: str, report: CaptureReport
) -> None:
    """Step 8: one entry in today's daily note (appended, never a rewrite)."""
    now = service.clock()
    where = f" in {project}" if project else ""
    lines = [f"## {now:%H:%M} session {session[:8]}{where}"]
    lines.append(f"- captured {len(report.created)} new, reinforced {len(report.reinforced)}")
    lines += [f"- {' '.join(text.split())[:160]}" for text in report.texts[:5]]
    append_daily(service.vault, now, redact("\n".join(lines)))


def _when(stamp: str) -> datetime | None:
    """The time a statement was said; its order in the session depends on it."""
    try:
        return parse_time(stamp) if stamp else None
    except ValueError:
        return None
