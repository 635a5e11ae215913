"""Delta sync: bring the catalog and vectors in line with the files.

`changed_paths` finds what differs by stat alone (unchanged files are never
read). `apply` reconciles paths: a new or edited body is embedded, a
frontmatter-only change updates the manifest, a move keeps its vectors, a
missing file is removed, a broken file is recorded as a problem. Documents of
the folders indexed in place (vault/indexed_folders.py) are reconciled the same
way under their absolute path, and leave the index when they no longer belong
to a configured folder; they are only ever read.
"""

from __future__ import annotations

import hashlib
import os
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from indexer.catalog import Catalog, ManifestRow
from indexer.chunking import chunk_words
from indexer.documents import Pending, changed_documents, document_row
from indexer.embedder import Embedder
from indexer.folder_scan import Known, full_scan
from indexer.progress_steps import counter
from indexer.session_context import refresh_sessions
from indexer.vector_ids import vector_id
from vault.clock import format_time
from vault.errors import BrokenFileError, MemoryNotFoundError
from vault.indexed_folders import (
    FOLDER_SOURCE,
    DocumentError,
    IndexedFolders,
    is_document_path,
    path_key,
    read_document,
)
from vault.layout import Vault
from vault.links import link_targets
from vault.schema import MemoryRecord
from vault.store import MemoryStore

if TYPE_CHECKING:
    from indexer.faiss_store import VectorStore

Progress = Callable[[int, int], None]
# Work in named stages (reading, comparing, applying, indexing): each stage's
# progress, or None for a stage nobody follows.
Stages = Callable[[str], "Progress | None"]
EMBED_BATCH = 1024  # memories whose chunks go to the encoder in one call


@dataclass
class SyncReport:
    added: list[str] = field(default_factory=list)
    reembedded: list[str] = field(default_factory=list)
    metadata: list[str] = field(default_factory=list)
    moved: list[str] = field(default_factory=list)
    removed: list[str] = field(default_factory=list)
    deferred: list[str] = field(default_factory=list)
    problems: list[tuple[str, str]] = field(default_factory=list)
    documents: list[str] = field(default_factory=list)  # folder documents (re-)embedded

    @property
    def changed(self) -> int:
        return sum(
            len(x)
            for x in (
                self.added, self.reembedded, self.metadata, self.moved, self.removed,
                self.documents,
            )
        )  # fmt: skip

    def absorb(self, other: SyncReport) -> None:
        """Add what a later slice of the same sync did."""
        names = ("added", "reembedded", "metadata", "moved", "removed", "deferred", "documents")
        for name in names:
            getattr(self, name).extend(getattr(other, name))
        self.problems.extend(other.problems)

    def summary(self) -> str:
        parts = [
            f"{len(self.added)} added",
            f"{len(self.reembedded)} re-embedded",
            f"{len(self.metadata)} metadata-only",
            f"{len(self.moved)} moved",
            f"{len(self.removed)} removed",
        ]
        if self.documents:
            parts.append(f"{len(self.documents)} folder documents indexed")
        if self.problems:
            parts.append(f"{len(self.problems)} with problems")
        if self.deferred:
            parts.append(f"{len(self.deferred)} awaiting embedding")
        return ", ".join(parts)


def body_hash(body: str) -> str:
    return hashlib.sha256(body.encode("utf-8")).hexdigest()


def changed_paths(
    vault: Vault, catalog: Catalog, folders: IndexedFolders | None = None
) -> list[Path]:
    """Paths whose (mtime_ns, size) differ from the manifest, plus vanished ones;
    with `folders`, their documents too (changed_documents)."""
    scan = full_scan(vault, Known.of(catalog), 0.0)  # its folder mtimes are not recorded
    return scan.paths + changed_documents(catalog, folders)


class Syncer:
    """Reconciles paths inside the caller's write transaction (indexer/published.py
    commits and publishes); changes nothing with `dry_run`."""

    def __init__(
        self,
        vault: Vault,
        catalog: Catalog,
        vectors: VectorStore,
        embedder: Embedder,
        chunk_size: int = 400,
        chunk_overlap: int = 80,
        folders: IndexedFolders | None = None,
    ) -> None:
        self.vault = vault
        self.folders = folders
        self.store = MemoryStore(vault)
        self.catalog = catalog
        self.vectors = vectors
        self.embedder = embedder
        self.chunk_size = chunk_size
        self.chunk_overlap = chunk_overlap
        self.sessions: set[str] = set()  # sessions whose context needs refreshing

    def apply(
        self,
        paths: Iterable[Path],
        allow_embed: bool = True,
        dry_run: bool = False,
        progress: Progress | None = None,
        count_paths: bool = False,
    ) -> SyncReport:
        """`progress(done, total)` hears the embedding; with `count_paths`, first
        the paths reconciled, then the embedding, then the sessions whose context
        is refreshed, as one count."""
        report = SyncReport()
        self.sessions.clear()
        unique = list(dict.fromkeys(paths))
        present = [p for p in unique if self._present(p)]
        missing = [p for p in unique if not self._present(p)]
        missing_relative = {self._key(p) for p in missing}
        to_embed: list[Pending] = []
        # a big apply (prune's 235,000 moved paths) takes minutes before any embedding
        step = counter(progress if count_paths else None, len(unique))
        for path in present:
            if self._in_vault(path):
                self._reconcile_present(path, missing_relative, report, to_embed, dry_run)
            else:
                self._reconcile_document(path, report, to_embed, dry_run)
            step()
        for path in missing:
            self._reconcile_missing(path, report, dry_run)
            step()
        embeds = bool(to_embed and allow_embed and not dry_run)
        if embeds:
            self._embed(to_embed, _after(progress, len(unique)) if count_paths else progress)
        if not dry_run:
            # counted on after the paths and the embedding: minutes on a big vault
            counted = len(unique) + (len(to_embed) if embeds else 0)
            refresh_sessions(
                self.catalog, self.sessions, _after(progress, counted) if count_paths else None
            )
        for record, row, is_new in to_embed:
            if not allow_embed:
                report.deferred.append(record.id)
            elif row.source == FOLDER_SOURCE and is_document_path(row.path):
                report.documents.append(record.id)
            elif is_new:
                report.added.append(record.id)
            else:
                report.reembedded.append(record.id)
        return report

    def _in_vault(self, path: Path) -> bool:
        return path.is_relative_to(self.vault.root)

    def _key(self, path: Path) -> str:
        """The catalog's name for a path: vault-relative, or a document's absolute one."""
        return self.vault.relative(path) if self._in_vault(path) else path_key(path)

    def _present(self, path: Path) -> bool:
        """A memory file, or a document of a configured folder (never a link);
        anything else is reconciled as gone."""
        if self._in_vault(path):
            return path.is_file()
        if self.folders is None or not self.folders.admits(path):
            return False
        return os.path.isfile(path) and not os.path.islink(path)

    def _reconcile_document(
        self, path: Path, report: SyncReport, to_embed: list[Pending], dry_run: bool
    ) -> None:
        """A document of an indexed folder: read (never written), embedded when its
        text changed; an unreadable one is a problem, reported once per change."""
        key = path_key(path)
        stat = os.stat(path, follow_symlinks=False)
        existing = self.catalog.row_by_path(key)
        if existing and (existing.mtime_ns, existing.size) == (stat.st_mtime_ns, stat.st_size):
            return
        try:
            document = read_document(path)
        except DocumentError as exc:
            report.problems.append((key, str(exc)))
            if not dry_run:
                self.catalog.set_problem(key, stat.st_mtime_ns, stat.st_size, str(exc))
                if existing:
                    self.vectors.remove(self.catalog.delete(existing.id))
            return
        if not dry_run:
            self.catalog.clear_problem(key)
        row = document_row(document, key, stat, body_hash(document.body))
        if existing is not None and existing.body_hash == row.body_hash:
            report.metadata.append(document.id)  # touched, same text: no embedding
            if not dry_run:
                self.catalog.upsert_row(row)
            return
        to_embed.append((document, row, existing is None))

    def _reconcile_present(
        self,
        path: Path,
        missing_relative: set[str],
        report: SyncReport,
        to_embed: list[Pending],
        dry_run: bool,
    ) -> None:
        relative = self.vault.relative(path)
        stat = os.stat(path)
        existing = self.catalog.row_by_path(relative)
        if existing and (existing.mtime_ns, existing.size) == (stat.st_mtime_ns, stat.st_size):
            return
        try:
            record = self.store.read_path(path)
        except MemoryNotFoundError:
            return
        except BrokenFileError as exc:
            report.problems.append((relative, exc.reason))
            if not dry_run:
                self.catalog.set_problem(relative, stat.st_mtime_ns, stat.st_size, exc.reason)
                if existing:
                    self.vectors.remove(self.catalog.delete(existing.id))
            return
        if not dry_run:
            self.catalog.clear_problem(relative)
        by_id = self.catalog.row(record.id)
        if (
            by_id is not None
            and by_id.path != relative
            and by_id.path not in missing_relative
            and (self.vault.root / by_id.path).is_file()
        ):
            reason = f"duplicate id: {by_id.path} has the same file name"
            report.problems.append((relative, reason))
            if not dry_run:
                self.catalog.set_problem(relative, stat.st_mtime_ns, stat.st_size, reason)
            return
        row = manifest_row(record, relative, stat, body_hash(record.body))
        if by_id is not None and by_id.body_hash == row.body_hash:
            if _place(by_id) != _place(row) or (existing is not None and existing.id != record.id):
                self.sessions.update(r.session for r in (existing, by_id, row) if r is not None)
            (report.moved if by_id.path != relative else report.metadata).append(record.id)
            if not dry_run:
                if existing is not None and existing.id != record.id:
                    self.vectors.remove(self.catalog.delete(existing.id))
                self.catalog.upsert_row(row)
                if by_id.tags != row.tags:
                    self.catalog.set_text(record.id, record.body, record.tags)
            return
        if existing is not None and existing.id != record.id and not dry_run:
            self.vectors.remove(self.catalog.delete(existing.id))
        self.sessions.update(r.session for r in (existing, by_id, row) if r is not None)
        to_embed.append((record, row, by_id is None))

    def _reconcile_missing(self, path: Path, report: SyncReport, dry_run: bool) -> None:
        relative = self._key(path)
        if not dry_run:
            self.catalog.clear_problem(relative)
        row = self.catalog.row_by_path(relative)
        if row is None:
            return
        report.removed.append(row.id)
        self.sessions.add(row.session)
        if not dry_run:
            self.vectors.remove(self.catalog.delete(row.id))

    def _embed(self, items: list[Pending], progress: Progress | None) -> None:
        batch = EMBED_BATCH
        for start in range(0, len(items), batch):
            part = items[start : start + batch]
            texts: list[str] = []
            owners: list[tuple[str, int]] = []
            for record, _, _ in part:
                for number, chunk in enumerate(
                    chunk_words(record.body, self.chunk_size, self.chunk_overlap)
                ):
                    texts.append(chunk)
                    owners.append((record.id, number))
            vectors = self.embedder.encode(texts)
            for record, row, _ in part:
                self.vectors.remove(self.catalog.vector_ids(record.id))
                self.catalog.upsert_row(row)
                self.catalog.set_text(record.id, record.body, record.tags)
            ids = [vector_id(memory_id, number) for memory_id, number in owners]
            self.vectors.add(ids, vectors)
            chunk_ids: dict[str, list[int]] = {}  # one pass: per memory, a scan was quadratic
            for vec_id, (memory_id, _) in zip(ids, owners, strict=True):
                chunk_ids.setdefault(memory_id, []).append(vec_id)
            for record, _, _ in part:
                self.catalog.set_chunks(record.id, chunk_ids[record.id])
            if progress is not None:
                progress(min(start + batch, len(items)), len(items))


def _after(progress: Progress | None, reconciled: int) -> Progress | None:
    """Work heard after the steps before it (embedding after the reconciled
    paths, sessions after both): one count that only grows."""
    if progress is None:
        return None
    return lambda done, total: progress(reconciled + done, reconciled + total)


def _place(row: ManifestRow) -> tuple[str, str, int]:
    """Where a memory sits among the words said around it."""
    return (row.session, row.created, row.seq)


def manifest_row(
    record: MemoryRecord, relative: str, stat: os.stat_result, digest: str
) -> ManifestRow:
    return ManifestRow(
        id=record.id,
        path=relative,
        archived=record.archived,
        mtime_ns=stat.st_mtime_ns,
        size=stat.st_size,
        body_hash=digest,
        created=format_time(record.created),
        last_access=format_time(record.last_access),
        stability=record.stability,
        tier=record.tier,
        kind=record.kind,
        topic=record.topic,
        tags=record.tags,
        project=record.project,
        session=record.session,
        source=record.source,
        recalls=record.recalls,
        confirmations=record.confirmations,
        salience=record.salience,
        links=record.links,
        filed=record.filed,
        confidence=record.confidence,
        superseded_by=link_targets(record.superseded_by)[-1] if record.superseded_by else "",
        evergreen=record.extra.get("evergreen") is True,
        seq=record.seq,
    )
