"""VaultIndex: the derived index of one vault, opened, synced and searched.

Reads see one published generation (indexer/published.py); writes hold the
index lock and publish rows and vectors together. A broken index is reported
in one line; only a writer rebuilds it from the files.
"""

from __future__ import annotations

import contextlib
import logging
import threading
import time
from collections.abc import Iterable
from contextlib import AbstractContextManager
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING

from indexer.catalog import Catalog, ManifestRow
from indexer.documents import changed_documents
from indexer.embedder import Embedder, serving_embedder
from indexer.errors import IndexBusyError
from indexer.filters import Filters
from indexer.folder_scan import (
    FULL_EVERY,
    FolderState,
    Known,
    Scan,
    catalog_mark,
    full_scan,
    sync_changes,
)
from indexer.fusion import FusionWeights, fuse
from indexer.published import PublishedIndex, Snapshot
from indexer.rebuild_checkpoint import RebuildCheckpoint
from indexer.search_scores import keyword_scores, memory_cosines
from indexer.session_context import blend, neighbour_cosines, session_neighbours
from indexer.staging import stage_embeddings
from indexer.sync import Progress, Syncer, SyncReport, changed_paths
from indexer.vector_ids import vector_id
from vault.config import Settings
from vault.indexed_folders import IndexedFolders, is_document_path
from vault.layout import Vault

if TYPE_CHECKING:
    import numpy as np
log = logging.getLogger(__name__)
RESUME_SLICE = 20_000  # files reconciled and published at a time by a big sync


@dataclass(frozen=True)
class Candidate:
    row: ManifestRow
    similarity: float
    cosine: float
    keyword: float


@dataclass
class IndexEvents:
    """What happened on open: shown to the person as one-line notices."""

    notices: list[str] = field(default_factory=list)
    resumed: int = 0  # texts the last full rebuild found embedded by an interrupted one


class VaultIndex:
    def __init__(self, vault: Vault, settings: Settings, embedder: Embedder | None = None) -> None:
        self.vault = vault
        self.settings = settings
        self.embedder: Embedder = embedder or serving_embedder(settings.model)
        self.weights = FusionWeights(
            settings.vector_weight, settings.keyword_weight, settings.bm25_saturation
        )
        self.events = IndexEvents()
        self.folders = IndexedFolders.from_settings(settings, vault.root)
        self.published = PublishedIndex(
            vault.index_dir, self.embedder.name, lambda: self.embedder.dimension, self._notice
        )
        self._rebuilding = threading.Lock()
        for root in self.folders.roots:
            if not root.is_dir():
                self._notice(f"index_paths: {root} is not a folder; nothing is indexed from it")

    @property
    def catalog_path(self) -> Path:
        return self.published.catalog_path

    @property
    def catalog(self) -> Catalog:
        """The open catalog (tests and benchmarks); the index reads through snapshots."""
        return self.published.catalog()

    def _notice(self, message: str) -> None:
        if message not in self.events.notices:
            log.warning(message)
            self.events.notices.append(message)

    # Writes --------------------------------------------------------------

    def _syncer(self, snapshot: Snapshot, embedder: Embedder | None = None) -> Syncer:
        return Syncer(
            self.vault,
            snapshot.catalog,
            snapshot.vectors,
            embedder or self.embedder,
            self.settings.chunk_words,
            self.settings.chunk_overlap,
            self.folders,
        )

    def sync(
        self,
        allow_embed: bool = True,
        progress: Progress | None = None,
        wait: bool = True,
        quick: bool = False,
        now: float | None = None,
        full_every: float = FULL_EVERY,
    ) -> SyncReport:
        """Delta sync of the whole vault (cheap when nothing changed). With `wait`
        False, a sync another process holds the lock for is skipped with a notice:
        this one answers from the published index instead of waiting. With `quick`,
        only folders whose mtime changed are looked into (indexer/folder_scan.py),
        with a full scan when the last one is older than `full_every` seconds at `now`."""
        try:
            with self.published.writing(wait=wait) as snapshot:
                if snapshot.rebuilding:
                    allow_embed = True  # a repair: never publish an index without vectors
                when = time.time() if now is None else now
                found = sync_changes(self.vault, snapshot, quick, when, full_every)
                # documents are compared by stat every time: 10,000 take ~0.1 s (README)
                paths = found.paths + changed_documents(snapshot.catalog, self.folders)
                first = paths[:RESUME_SLICE]
                report = self._syncer(snapshot).apply(
                    first, allow_embed, progress=_share(progress, 0, len(first), len(paths))
                )
            report = self._sync_rest(report, paths, allow_embed, progress)
            with self.published.catalog_only() as catalog:  # once every row is published
                found.state.catalog = catalog_mark(catalog)
            found.state.save(self.vault.index_dir)
            return report
        except IndexBusyError:
            if wait:
                raise
            self._notice("index busy: another process is writing it; using the published index")
            return SyncReport()

    def sync_shared(self, allow_embed: bool = True, progress: Progress | None = None) -> SyncReport:
        """Index what writers in other processes wrote, without queueing behind
        them: the vault is marked pending, and whoever holds the index lock takes
        the mark and syncs every changed file, again while a mark reappears; a
        writer that finds the lock held returns at once (its file is written, the
        holder indexes it). Only a holder removes the mark, and it looks again
        after letting go, so no file is left behind."""
        pending = self.vault.index_dir / "pending"
        pending.parent.mkdir(parents=True, exist_ok=True)
        pending.touch()
        total = SyncReport()
        while pending.exists():
            try:
                with self.published.writing(wait=False) as snapshot:
                    pending.unlink(missing_ok=True)
                    paths = changed_paths(self.vault, snapshot.catalog, self.folders)
                    embed = allow_embed or snapshot.rebuilding
                    report = self._syncer(snapshot).apply(paths, embed, False, progress, True)
            except IndexBusyError:
                return total  # the holder sees the mark once it lets go
            for name, done in vars(report).items():
                getattr(total, name).extend(done)
        return total

    def _sync_rest(
        self, report: SyncReport, paths: list[Path], allow_embed: bool, progress: Progress | None
    ) -> SyncReport:
        """The paths after the first slice, one published slice at a time: an
        interrupted big sync (a first index of a large vault) keeps what it did,
        and the next sync, finding only the rest changed, resumes there."""
        total = len(paths)
        for start in range(RESUME_SLICE, total, RESUME_SLICE):
            part = paths[start : start + RESUME_SLICE]
            share = _share(progress, start, len(part), total)
            with self.published.writing() as snapshot:
                report.absorb(self._syncer(snapshot).apply(part, allow_embed, progress=share))
            if progress is not None:
                progress(start + len(part), total)  # published: an interruption keeps it
        return report

    def scan(self, now: float | None = None) -> Scan:
        """A full scan holding no lock while it states the files (a daemon's requests
        are answered meanwhile): the catalog is read first, in one query. Hand it to
        `apply_scan`; whatever changed after its stat, the watcher reports."""
        with self.published.catalog_only() as catalog:
            known = Known.of(catalog)
            documents = changed_documents(catalog, self.folders)
        scan = full_scan(self.vault, known, time.time() if now is None else now)
        scan.paths += documents
        return scan

    def apply_scan(self, scan: Scan, allow_embed: bool = True) -> SyncReport:
        """Reconcile what `scan` found, then record it as the last full scan."""
        report = self.apply(scan.paths, allow_embed)
        scan.state.save(self.vault.index_dir)
        return report

    def full_scan_due(self, now: float, full_every: float = FULL_EVERY) -> bool:
        """Whether no full scan was recorded within `full_every` seconds of `now`."""
        return FolderState.due(self.vault.index_dir, now, full_every)

    def apply(
        self, paths: Iterable[Path], allow_embed: bool = True, progress: Progress | None = None
    ) -> SyncReport:
        """Reconcile paths (the watcher's, our own writes'): progress counts them, then embeds."""
        with self.published.writing() as snapshot:
            if snapshot.rebuilding:  # the index had to be rebuilt: every file, with vectors
                paths, allow_embed = changed_paths(self.vault, snapshot.catalog, self.folders), True
            return self._syncer(snapshot).apply(list(paths), allow_embed, False, progress, True)

    def check(self) -> SyncReport:
        """What a sync would do; changes nothing (a stale index is a notice)."""
        with self.published.reading() as snapshot:
            paths = changed_paths(self.vault, snapshot.catalog, self.folders)
            return self._syncer(snapshot).apply(paths, dry_run=True)

    def rebuild(
        self,
        progress: Progress | None = None,
        turn: AbstractContextManager[object] | None = None,
    ) -> SyncReport:
        """Re-embed every file into a new generation: embedding first, without the index
        lock, batch by batch inside `turn`, saved so an interrupted rebuild resumes; then
        the tables are refilled and published in one transaction (readers see the old)."""
        turn = turn or contextlib.nullcontext()
        if not self._rebuilding.acquire(blocking=False):
            raise IndexBusyError(f"a rebuild of {self.vault.root} is already running")
        try:
            chunking = (self.settings.chunk_words, self.settings.chunk_overlap)
            checkpoint = RebuildCheckpoint(self.vault.index_dir, self.embedder, chunking)
            staged = stage_embeddings(
                self.vault, self.embedder, chunking, turn, progress, checkpoint
            )
            self.events.resumed = staged.resumed
            with turn, self.published.writing(rebuild=True) as snapshot:
                paths = changed_paths(self.vault, snapshot.catalog, self.folders)
                report = self._syncer(snapshot, staged).apply(paths)
            checkpoint.clear()  # published: nothing left to resume
            return report
        finally:
            self._rebuilding.release()

    # Reads ---------------------------------------------------------------

    def rows(self, archived: bool | None = None, documents: bool = False) -> list[ManifestRow]:
        """The memories' rows; folder documents (never to be written) only if asked."""
        with self.published.catalog_only() as catalog:
            found = catalog.rows(archived)
        return found if documents else [r for r in found if not is_document_path(r.path)]

    def row(self, memory_id: str) -> ManifestRow | None:
        with self.published.catalog_only() as catalog:
            return catalog.row(memory_id)

    def labelled_rows(self) -> list[ManifestRow]:
        with self.published.catalog_only() as catalog:
            return catalog.labelled_rows()

    def rows_for(self, memory_ids: Iterable[str]) -> dict[str, ManifestRow]:
        with self.published.catalog_only() as catalog:
            return catalog.rows_for(memory_ids)

    def session_neighbours(
        self, rows: Iterable[ManifestRow], window: int
    ) -> dict[str, list[tuple[str, int]]]:
        """For each row, the memories of its session up to `window` places before
        or after it, with their offset (-1: the one just before, 1: just after)."""
        ids = [row.id for row in rows if row.session]
        if not ids or window < 1:
            return {}
        with self.published.catalog_only() as catalog:
            return session_neighbours(catalog, ids, window)

    def body(self, memory_id: str) -> str:
        with self.published.catalog_only() as catalog:
            return catalog.body(memory_id)

    def bodies(self, memory_ids: Iterable[str]) -> dict[str, str]:
        with self.published.catalog_only() as catalog:
            return catalog.bodies(memory_ids)

    def problems(self) -> list[tuple[str, str]]:
        with self.published.catalog_only() as catalog:
            return catalog.problems()

    def search(self, query: str, k: int = 10, filters: Filters | None = None) -> list[Candidate]:
        """Hybrid search: vector top-k and FTS5 top-k, fused, best first."""
        with self.published.reading() as snapshot:
            return self._search(snapshot, query, k, filters or Filters())

    def _search(self, snapshot: Snapshot, query: str, k: int, filters: Filters) -> list[Candidate]:
        catalog, vectors = snapshot.catalog, snapshot.vectors
        pool = max(50, 2 * k)
        allowed_vectors: dict[int, str] | None = None
        if filters.narrows:
            admitted = [r.id for r in catalog.rows(filters.archived) if filters.admits(r)]
            allowed_vectors = catalog.vector_ids_for(admitted)
        query_vector = self.embedder.encode([query])[0]
        best_cosine: dict[str, float] = {}
        hits = vectors.search(query_vector, pool, allowed_vectors)
        owner = allowed_vectors or catalog.memory_of_vectors(i for i, _ in hits)
        for vec_id, score in hits:
            memory_id = owner.get(vec_id)
            if memory_id is not None and score > best_cosine.get(memory_id, -1.0):
                best_cosine[memory_id] = score
        keyword = keyword_scores(
            catalog, query, pool * 2, self.settings.context_weight, self.weights.bm25_saturation
        )
        cosines_of = partial(memory_cosines, catalog, vectors, query=query_vector)
        best_cosine.update(cosines_of([m for m in keyword if m not in best_cosine]))
        share = self.settings.session_cosine
        around = neighbour_cosines(catalog, best_cosine, cosines_of) if share > 0 else {}
        cosine = {m: blend(c, around.get(m, 0.0), share) for m, c in best_cosine.items()}
        fused = {
            memory_id: fuse(cosine.get(memory_id, 0.0), keyword.get(memory_id, 0.0), self.weights)
            for memory_id in set(best_cosine) | set(keyword)
        }
        # Manifest rows are fetched only for the best-fused candidates.
        ranked = sorted(fused, key=fused.__getitem__, reverse=True)[
            : pool * 2 if filters.narrows else pool
        ]
        rows = catalog.rows_for(ranked)
        candidates = [
            Candidate(rows[m], fused[m], best_cosine.get(m, 0.0), keyword.get(m, 0.0))
            for m in ranked
            if m in rows and filters.admits(rows[m])
        ]
        return candidates[:pool]

    def neighbours(
        self,
        memory_ids: Iterable[str] | None,
        k: int,
        bar: float,
        allowed: set[str] | None = None,
    ) -> dict[str, list[tuple[str, float]]]:
        """Each memory's nearest other memories by cosine (every memory when None);
        never a folder document (links are written into both ends)."""
        from indexer.neighbours import nearest_memories

        with self.published.reading() as snapshot:
            catalog, documents = snapshot.catalog, snapshot.catalog.document_ids()
            return nearest_memories(
                snapshot.vectors, catalog, memory_ids, k, bar, allowed, documents
            )

    def memory_vectors(self, memory_ids: Iterable[str]) -> dict[str, np.ndarray]:
        """The stored vector of each memory's first chunk (memories without
        vectors are left out); for comparing memories with each other."""
        with self.published.reading() as snapshot:
            owners = snapshot.catalog.vector_ids_for(memory_ids)
            first: dict[str, int] = {}
            for vec_id, memory_id in owners.items():
                if vec_id == vector_id(memory_id, 0) or memory_id not in first:
                    first[memory_id] = vec_id
            if not first:
                return {}
            ids = list(first)
            found = snapshot.vectors.vectors_for([first[m] for m in ids])
            return {memory_id: found[row] for row, memory_id in enumerate(ids)}

    def stats(self) -> dict[str, object]:
        with self.published.reading() as snapshot:
            catalog = snapshot.catalog
            return {
                **catalog.counts(),
                "documents": len(catalog.document_ids()),
                "vectors": snapshot.vectors.count,
                "model": catalog.get_meta("model"),
                "dimension": int(catalog.get_meta("dimension") or 0),
                "generation": snapshot.generation,
                "rebuilds": int(catalog.get_meta("rebuilds") or 0),
                "catalog_bytes": _size(self.catalog_path),
                "vectors_bytes": _size(self.published.vectors_path(snapshot.generation)),
            }

    def close(self) -> None:
        self.published.close()


def _share(progress: Progress | None, offset: int, size: int, total: int) -> Progress | None:
    """A slice's embedding progress as a share of the whole sync's files."""
    if progress is None:
        return None
    return lambda done, of: progress(offset + done * size // max(of, 1), total)


def _size(path: Path) -> int:
    return path.stat().st_size if path.exists() else 0
