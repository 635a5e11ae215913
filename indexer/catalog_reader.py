"""Read-only catalog queries for the paths that run without the daemon: the
prompt hook's keyword fallback and the session briefing.

sqlite3 only (no numpy, FAISS or model), opened read-only with a short busy
timeout; the schema is indexer/catalog.py's. A missing catalog reads as empty.
"""

from __future__ import annotations

import sqlite3
from pathlib import Path
from typing import NamedTuple

CATALOG_FILE = "meta.sqlite"
_COLUMNS = (
    "m.id, m.tier, m.kind, m.project, m.created, m.last_access, m.stability, m.salience, "
    "m.confidence, m.path, m.evergreen, fts.body"
)
_KEYWORD_MATCHES = """
SELECT {columns}, {relevance} AS relevance
FROM fts JOIN memories AS m ON m.id = fts.memory_id
WHERE fts MATCH ? AND m.archived = 0 AND m.superseded_by = ''
ORDER BY relevance LIMIT ?
"""
# The briefing's candidates: active memories of the project, of none, and
# preferences from anywhere; their text is read only for the few it shows.
_BRIEFING = f"""
SELECT {_COLUMNS.replace("fts.body", "''")}, 0.0
FROM memories AS m
WHERE m.archived = 0 AND (m.project IN ('', ?) OR m.kind = 'preference')
"""
_BODIES = "SELECT memory_id, body FROM fts WHERE memory_id IN ({marks})"


class TextRow(NamedTuple):
    """A memory's manifest fields that ranking needs, with its text."""

    id: str
    tier: str
    kind: str
    project: str
    created: str
    last_access: str
    stability: float | None
    salience: float
    confidence: float
    path: str
    evergreen: bool
    body: str
    relevance: float  # FTS5 bm25(): more negative is more relevant; 0.0 without a query


def catalog_path(root: Path) -> Path:
    """The catalog of the vault at `root` (its .index/ folder; vault.layout is
    not imported for it, to keep the no-daemon prompt path light)."""
    return root / ".index" / CATALOG_FILE


def relevance_sql(context_weight: float) -> str:
    """FTS5's bm25() over the columns (memory_id, body, tags, context): a word in
    the body counts 1, in the tags 0.5, in the words said around it as given."""
    return f"bm25(fts, 0.0, 1.0, 0.5, {float(context_weight)!r})"


def keyword_matches(
    catalog: Path, match: str, limit: int = 50, context_weight: float = 0.0
) -> list[TextRow]:
    """Active memories matching an FTS5 MATCH expression, most relevant first."""
    sql = _KEYWORD_MATCHES.format(columns=_COLUMNS, relevance=relevance_sql(context_weight))
    return _read(catalog, sql, (match, limit))


def own_word_matches(catalog: Path, match: str, memory_ids: list[str]) -> set[str]:
    """Which of `memory_ids` match an FTS5 MATCH expression in their own words
    (body and tags), not only in the words said around them (the context column)."""
    if not catalog.exists() or not match or not memory_ids:
        return set()
    marks = ", ".join("?" for _ in memory_ids)
    sql = f"SELECT memory_id FROM fts WHERE fts MATCH ? AND memory_id IN ({marks})"
    db = sqlite3.connect(f"file:{catalog}?mode=ro", uri=True, timeout=1.0)
    try:
        return {row[0] for row in db.execute(sql, (f"{{body tags}} : ({match})", *memory_ids))}
    finally:
        db.close()


def briefing_candidates(catalog: Path, project: str | None) -> list[TextRow]:
    """The active memories a briefing may show (the project's, those of no
    project, preferences from anywhere), without their text (`body` is "")."""
    return _read(catalog, _BRIEFING, (project or "",))


def bodies(catalog: Path, memory_ids: list[str]) -> dict[str, str]:
    """The text of each of `memory_ids` the catalog holds."""
    if not catalog.exists() or not memory_ids:
        return {}
    sql = _BODIES.format(marks=", ".join("?" for _ in memory_ids))
    db = sqlite3.connect(f"file:{catalog}?mode=ro", uri=True, timeout=1.0)
    try:
        return dict(db.execute(sql, memory_ids))
    finally:
        db.close()


def _read(catalog: Path, sql: str, args: tuple[object, ...]) -> list[TextRow]:
    if not catalog.exists():
        return []
    db = sqlite3.connect(f"file:{catalog}?mode=ro", uri=True, timeout=1.0)
    try:
        return [TextRow(*row) for row in db.execute(sql, args)]
    finally:
        db.close()
