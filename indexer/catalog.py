"""The SQLite catalog: manifest rows, chunk ids, FTS5 keywords, problems.

One file (.index/meta.sqlite). The manifest holds a row per memory with the
stat used to skip unchanged files, the body hash, and the frontmatter fields
ranking needs, so ranking never reads a Markdown file. Hook clients read this
file with the standard library's sqlite3, so the schema stays plain SQL.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from indexer.catalog_reader import relevance_sql
from indexer.errors import CorruptIndexError
from indexer.vector_ids import vector_id
from vault.schema import DEFAULT_CONFIDENCE, FILED_AUTO

SCHEMA_VERSION = "6"
_SCHEMA = """
CREATE TABLE IF NOT EXISTS meta(key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS memories(
    id TEXT PRIMARY KEY, path TEXT NOT NULL UNIQUE, archived INTEGER NOT NULL,
    mtime_ns INTEGER NOT NULL, size INTEGER NOT NULL, body_hash TEXT NOT NULL,
    created TEXT NOT NULL, last_access TEXT NOT NULL, stability REAL, tier TEXT NOT NULL,
    kind TEXT NOT NULL, topic TEXT NOT NULL, tags TEXT NOT NULL, project TEXT NOT NULL,
    session TEXT NOT NULL, source TEXT NOT NULL, recalls INTEGER NOT NULL,
    confirmations INTEGER NOT NULL, salience REAL NOT NULL, links TEXT NOT NULL,
    filed TEXT NOT NULL DEFAULT '', confidence REAL NOT NULL DEFAULT 0.5,
    superseded_by TEXT NOT NULL DEFAULT '', evergreen INTEGER NOT NULL DEFAULT 0,
    seq INTEGER NOT NULL DEFAULT 0);
CREATE TABLE IF NOT EXISTS chunks(
    vec_id INTEGER PRIMARY KEY, memory_id TEXT NOT NULL, chunk_no INTEGER NOT NULL);
CREATE INDEX IF NOT EXISTS chunks_by_memory ON chunks(memory_id);
CREATE INDEX IF NOT EXISTS memories_by_session ON memories(session);
CREATE TABLE IF NOT EXISTS session_order(
    memory_id TEXT PRIMARY KEY, before TEXT NOT NULL, after TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS problems(
    path TEXT PRIMARY KEY, mtime_ns INTEGER NOT NULL, size INTEGER NOT NULL,
    reason TEXT NOT NULL);
CREATE VIRTUAL TABLE IF NOT EXISTS fts USING fts5(
    memory_id UNINDEXED, body, tags, context,
    tokenize = 'porter unicode61 remove_diacritics 2');
"""
SESSION_ORDER = "created, seq, id"  # a session's memories in the order they were said
ROW_FIELDS = (
    "id", "path", "archived", "mtime_ns", "size", "body_hash", "created", "last_access",
    "stability", "tier", "kind", "topic", "tags", "project", "session", "source", "recalls",
    "confirmations", "salience", "links", "filed", "confidence", "superseded_by", "evergreen",
    "seq",
)  # fmt: skip
_ARCHIVED, _EVERGREEN = ROW_FIELDS.index("archived"), ROW_FIELDS.index("evergreen")
_TAGS, _LINKS = ROW_FIELDS.index("tags"), ROW_FIELDS.index("links")


@dataclass(frozen=True)
class ManifestRow:
    id: str
    path: str  # relative to the vault root, POSIX separators
    archived: bool
    mtime_ns: int
    size: int
    body_hash: str
    created: str
    last_access: str
    stability: float | None
    tier: str
    kind: str
    topic: str
    tags: tuple[str, ...]
    project: str
    session: str
    source: str
    recalls: int
    confirmations: int
    salience: float
    links: tuple[str, ...]
    filed: str = ""
    confidence: float = DEFAULT_CONFIDENCE
    superseded_by: str = ""  # the newest memory that replaced this one ("" when current)
    evergreen: bool = False  # `evergreen: true` in the frontmatter
    seq: int = 0

    @classmethod
    def from_sql(cls, row: Sequence[Any]) -> ManifestRow:
        values = list(row)  # in ROW_FIELDS order; ranking reads ~100 rows per query
        values[_ARCHIVED] = bool(values[_ARCHIVED])
        values[_EVERGREEN] = bool(values[_EVERGREEN])
        values[_TAGS] = _strings(values[_TAGS])
        values[_LINKS] = _strings(values[_LINKS])
        return cls(*values)

    def to_sql(self) -> tuple[object, ...]:
        values = [getattr(self, f) for f in ROW_FIELDS]
        values[_ARCHIVED] = int(self.archived)
        values[_EVERGREEN] = int(self.evergreen)
        values[_TAGS] = json.dumps(list(self.tags))
        values[_LINKS] = json.dumps(list(self.links))
        return tuple(values)


# Parsed rows by their stored values: ranking reads the same ~100 rows per query,
# and a row's values decide it wholly (a changed memory is a new key).
_PARSED: dict[tuple[Any, ...], ManifestRow] = {}
_PARSED_MAX = 4096  # a few queries' worth; cleared when full


def _parsed(row: tuple[Any, ...]) -> ManifestRow:
    found = _PARSED.get(row)
    if found is None:
        if len(_PARSED) >= _PARSED_MAX:
            _PARSED.clear()
        found = _PARSED[row] = ManifestRow.from_sql(row)
    return found


def _strings(text: str) -> tuple[str, ...]:
    return () if text == "[]" else tuple(json.loads(text))


def text_rowid(memory_id: str) -> int:
    """The FTS row of a memory: a stable integer, so lookups use the rowid index."""
    return vector_id(memory_id, -1)


class Catalog:
    def __init__(self, path: Path) -> None:
        self.path = path
        try:
            self.db = sqlite3.connect(
                path, timeout=30, isolation_level=None, check_same_thread=False
            )
            self.db.execute("PRAGMA journal_mode=WAL")
            self.db.execute("PRAGMA synchronous=NORMAL")
            self.db.executescript(_SCHEMA)
            check = self.db.execute("PRAGMA quick_check").fetchone()[0]
        except sqlite3.DatabaseError as exc:
            raise CorruptIndexError(f"{path} is not a usable SQLite index ({exc})") from exc
        if check != "ok":
            raise CorruptIndexError(f"{path} failed its integrity check ({check})")
        version = self.get_meta("schema_version")
        if version is None:
            self.set_meta("schema_version", SCHEMA_VERSION)
        elif version != SCHEMA_VERSION:
            raise CorruptIndexError(f"{path} has schema {version}, expected {SCHEMA_VERSION}")

    def close(self) -> None:
        self.db.close()

    def transaction(self) -> sqlite3.Connection:
        self.db.execute("BEGIN IMMEDIATE")
        return self.db

    def begin_read(self) -> None:
        """Start a read snapshot: every query until `end_read` sees one committed state."""
        self.db.execute("BEGIN")

    def end_read(self) -> None:
        if self.db.in_transaction:
            self.db.execute("COMMIT")

    def generation(self) -> int:
        """The published generation: its vectors are in `vectors-<generation>.faiss`."""
        return int(self.get_meta("generation") or 0)

    def clear(self) -> None:
        """Empty every table but meta (a rebuild, inside the writer's transaction)."""
        for table in ("memories", "chunks", "problems", "fts"):
            self.db.execute(f"DELETE FROM {table}")

    def commit(self) -> None:
        self.db.execute("COMMIT")

    def rollback(self) -> None:
        if self.db.in_transaction:
            self.db.execute("ROLLBACK")

    def get_meta(self, key: str) -> str | None:
        row = self.db.execute("SELECT value FROM meta WHERE key = ?", (key,)).fetchone()
        return None if row is None else str(row[0])

    def set_meta(self, key: str, value: str) -> None:
        self.db.execute("INSERT OR REPLACE INTO meta(key, value) VALUES (?, ?)", (key, value))

    # Manifest -------------------------------------------------------------

    def stats_by_path(self) -> dict[str, tuple[int, int]]:
        rows = self.db.execute("SELECT path, mtime_ns, size FROM memories")
        return {path: (mtime, size) for path, mtime, size in rows}

    def stats_under(self, folder: str, nested: bool = False) -> dict[str, tuple[int, int]]:
        """(mtime_ns, size) of the files directly in `folder` (vault-relative), or at any
        depth with `nested` ("" and `nested`: the folder documents, keyed by absolute path)."""
        prefix = folder.rstrip("/") + "/"
        rows = self.db.execute(
            "SELECT path, mtime_ns, size FROM memories WHERE path >= ? AND path < ?",
            (prefix, prefix[:-1] + "0"),  # "0" sorts right after "/"
        )
        return {p: (m, s) for p, m, s in rows if nested or "/" not in p[len(prefix) :]}

    def problem_stats(self) -> dict[str, tuple[int, int]]:
        rows = self.db.execute("SELECT path, mtime_ns, size FROM problems")
        return {path: (mtime, size) for path, mtime, size in rows}

    def problems(self) -> list[tuple[str, str]]:
        return list(self.db.execute("SELECT path, reason FROM problems ORDER BY path"))

    def set_problem(self, path: str, mtime_ns: int, size: int, reason: str) -> None:
        self.db.execute(
            "INSERT OR REPLACE INTO problems(path, mtime_ns, size, reason) VALUES (?, ?, ?, ?)",
            (path, mtime_ns, size, reason),
        )

    def clear_problem(self, path: str) -> None:
        self.db.execute("DELETE FROM problems WHERE path = ?", (path,))

    def _select(self, where: str = "", args: Iterable[object] = ()) -> Iterator[ManifestRow]:
        sql = f"SELECT {', '.join(ROW_FIELDS)} FROM memories {where}"
        for row in self.db.execute(sql, tuple(args)):
            yield _parsed(row)

    def row(self, memory_id: str) -> ManifestRow | None:
        return next(self._select("WHERE id = ?", (memory_id,)), None)

    def row_by_path(self, path: str) -> ManifestRow | None:
        return next(self._select("WHERE path = ?", (path,)), None)

    def rows(self, archived: bool | None = None) -> list[ManifestRow]:
        if archived is None:
            return list(self._select())
        return list(self._select("WHERE archived = ?", (int(archived),)))

    def rows_for(self, memory_ids: Iterable[str]) -> dict[str, ManifestRow]:
        ids = list(memory_ids)
        found: dict[str, ManifestRow] = {}
        for start in range(0, len(ids), 500):
            part = ids[start : start + 500]
            marks = ",".join("?" * len(part))
            found.update((r.id, r) for r in self._select(f"WHERE id IN ({marks})", part))
        return found

    def document_ids(self) -> set[str]:
        """The folder documents indexed in place (keyed by absolute path)."""
        sql = "SELECT id FROM memories WHERE substr(path, 1, 1) = '/'"  # is_document_path
        return {str(r[0]) for r in self.db.execute(sql)}

    def labelled_rows(self) -> list[ManifestRow]:
        """Memories whose topic a person chose (not `filed: auto`), by id."""
        return list(self._select("WHERE topic != '' AND filed != ? ORDER BY id", (FILED_AUTO,)))

    def session_ids(self, session: str) -> list[str]:
        """The memories captured in one session, in the order they were said."""
        sql = f"SELECT id FROM memories WHERE session = ? ORDER BY {SESSION_ORDER}"
        return [str(r[0]) for r in self.db.execute(sql, (session,))]

    def upsert_row(self, row: ManifestRow) -> None:
        marks = ",".join("?" * len(ROW_FIELDS))
        self.db.execute(
            f"INSERT OR REPLACE INTO memories({', '.join(ROW_FIELDS)}) VALUES ({marks})",
            row.to_sql(),
        )

    def set_text(self, memory_id: str, body: str, tags: Iterable[str]) -> None:
        """A memory's words; its context (session_context.py) is kept until refreshed."""
        rowid = text_rowid(memory_id)
        old = self.db.execute("SELECT context FROM fts WHERE rowid = ?", (rowid,)).fetchone()
        self.db.execute("DELETE FROM fts WHERE rowid = ?", (rowid,))
        self.db.execute(
            "INSERT INTO fts(rowid, memory_id, body, tags, context) VALUES (?, ?, ?, ?, ?)",
            (rowid, memory_id, body, " ".join(tags), old[0] if old else ""),
        )

    def session_texts(self, session: str) -> list[tuple[str, str, str]]:
        """(id, body, context) of a session's memories, in the order they were said."""
        ids = self.session_ids(session)
        rows = self._fts_rows(ids)
        return [(m, *rows[m]) for m in ids if m in rows]

    def _fts_rows(self, memory_ids: list[str]) -> dict[str, tuple[str, str]]:
        found: dict[str, tuple[str, str]] = {}
        for start in range(0, len(memory_ids), 500):
            part = [text_rowid(m) for m in memory_ids[start : start + 500]]
            marks = ",".join("?" * len(part))
            sql = f"SELECT memory_id, body, context FROM fts WHERE rowid IN ({marks})"
            found.update((str(m), (str(b), str(c or ""))) for m, b, c in self.db.execute(sql, part))
        return found

    def set_context(self, memory_id: str, context: str) -> None:
        sql = "UPDATE fts SET context = ? WHERE rowid = ?"
        self.db.execute(sql, (context, text_rowid(memory_id)))

    def set_session_order(self, order: list[tuple[str, str, str]]) -> None:
        """(memory, the one said just before it, just after it; "" for none)."""
        sql = "INSERT OR REPLACE INTO session_order(memory_id, before, after) VALUES (?, ?, ?)"
        self.db.executemany(sql, order)

    def session_order(self, memory_ids: Iterable[str]) -> dict[str, tuple[str, str]]:
        """The memories said just before and after each of `memory_ids` ("" for none)."""
        ids = list(memory_ids)
        found: dict[str, tuple[str, str]] = {}
        for start in range(0, len(ids), 500):
            part = ids[start : start + 500]
            sql = (
                "SELECT memory_id, before, after FROM session_order "
                f"WHERE memory_id IN ({','.join('?' * len(part))})"
            )
            found.update((str(m), (str(b), str(a))) for m, b, a in self.db.execute(sql, part))
        return found

    def body(self, memory_id: str) -> str:
        return self.bodies([memory_id]).get(memory_id, "")

    def bodies(self, memory_ids: Iterable[str]) -> dict[str, str]:
        """The body of each memory found, by id."""
        return {m: body for m, (body, _) in self._fts_rows(list(memory_ids)).items()}

    def delete(self, memory_id: str) -> list[int]:
        """Forget a memory; returns its vector ids for the vector store."""
        vec_ids = self.vector_ids(memory_id)
        self.db.execute("DELETE FROM memories WHERE id = ?", (memory_id,))
        self.db.execute("DELETE FROM chunks WHERE memory_id = ?", (memory_id,))
        self.db.execute("DELETE FROM fts WHERE rowid = ?", (text_rowid(memory_id),))
        self.db.execute("DELETE FROM session_order WHERE memory_id = ?", (memory_id,))
        return vec_ids

    # Chunks ---------------------------------------------------------------

    def vector_ids(self, memory_id: str) -> list[int]:
        rows = self.db.execute("SELECT vec_id FROM chunks WHERE memory_id = ?", (memory_id,))
        return [int(r[0]) for r in rows]

    def set_chunks(self, memory_id: str, vec_ids: list[int]) -> None:
        self.db.execute("DELETE FROM chunks WHERE memory_id = ?", (memory_id,))
        self.db.executemany(
            "INSERT INTO chunks(vec_id, memory_id, chunk_no) VALUES (?, ?, ?)",
            [(vec_id, memory_id, n) for n, vec_id in enumerate(vec_ids)],
        )

    def all_vector_ids(self) -> set[int]:
        return {int(r[0]) for r in self.db.execute("SELECT vec_id FROM chunks")}

    def all_chunks(self) -> dict[int, str]:
        """Every vector id with the memory that owns it."""
        return {int(v): str(m) for v, m in self.db.execute("SELECT vec_id, memory_id FROM chunks")}

    def memory_of_vectors(self, vec_ids: Iterable[int]) -> dict[int, str]:
        """Owner memory of each vector id."""
        return self._chunk_pairs("vec_id", list(vec_ids))

    def vector_ids_for(self, memory_ids: Iterable[str]) -> dict[int, str]:
        """Every vector id of the given memories, with its owner."""
        return self._chunk_pairs("memory_id", list(memory_ids))

    def _chunk_pairs(self, column: str, keys: list[object]) -> dict[int, str]:
        found: dict[int, str] = {}
        for start in range(0, len(keys), 500):  # SQLite caps bound parameters
            part = keys[start : start + 500]
            marks = ",".join("?" * len(part))
            sql = f"SELECT vec_id, memory_id FROM chunks WHERE {column} IN ({marks})"
            found.update((int(v), str(m)) for v, m in self.db.execute(sql, part))
        return found

    # Keywords -------------------------------------------------------------

    def selective_terms(self, terms: list[str], max_share: float = 0.05) -> list[str]:
        """The terms found in at most `max_share` of the memories (min 200 rows).

        A near-universal term adds almost nothing to BM25 (its IDF is near zero)
        but makes FTS5 score every row; counting stops at the cap, so the check
        costs little even for common terms.
        """
        total = self.db.execute("SELECT COUNT(*) FROM memories").fetchone()[0]
        cap = max(200, int(total * max_share))
        if total <= cap:
            return terms
        sql = "SELECT COUNT(*) FROM (SELECT 1 FROM fts WHERE fts MATCH ? LIMIT ?)"
        kept = [t for t in terms if self.db.execute(sql, (f'"{t}"', cap + 1)).fetchone()[0] <= cap]
        return kept

    def keyword_search(
        self, match: str, limit: int, context_weight: float = 0.0
    ) -> list[tuple[str, float]]:
        if not match:
            return []
        sql = (
            f"SELECT memory_id, {relevance_sql(context_weight)} AS score FROM fts "
            "WHERE fts MATCH ? ORDER BY score LIMIT ?"
        )
        return [(str(m), float(s)) for m, s in self.db.execute(sql, (match, limit))]

    def counts(self) -> dict[str, int]:
        memories = self.db.execute("SELECT COUNT(*) FROM memories").fetchone()[0]
        chunks = self.db.execute("SELECT COUNT(*) FROM chunks").fetchone()[0]
        problems = self.db.execute("SELECT COUNT(*) FROM problems").fetchone()[0]
        return {"memories": memories, "chunks": chunks, "problems": problems}
