"""VaultIndex: the derived index of one vault, opened, synced and searched.

Writers (sync, rebuild) hold `.index/index.lock`; a generation number in the
catalog tells other processes to reload the vector file. A corrupt or
inconsistent index is reported in one line and rebuilt from the files.
"""

from __future__ import annotations

import contextlib
import logging
import shutil
import threading
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING

from indexer.catalog import Catalog, ManifestRow
from indexer.catalog_reader import CATALOG_FILE
from indexer.embedder import Embedder, SentenceTransformerEmbedder
from indexer.errors import CorruptIndexError
from indexer.fusion import FusionWeights, fuse
from indexer.search_scores import keyword_scores, memory_cosines
from indexer.session_context import blend, neighbour_cosines
from indexer.sync import Progress, Syncer, SyncReport, changed_paths
from vault.atomic import file_lock
from vault.config import Settings
from vault.layout import Vault

if TYPE_CHECKING:
    from indexer.faiss_store import VectorStore

log = logging.getLogger(__name__)
VECTORS_FILE = "vectors.faiss"


@dataclass(frozen=True)
class Filters:
    archived: bool | None = False
    project: str | None = None
    topic: str | None = None
    tier: str | None = None
    tags: tuple[str, ...] = ()

    @property
    def narrows(self) -> bool:
        return self.archived is not False or bool(
            self.project or self.topic or self.tier or self.tags
        )

    def admits(self, row: ManifestRow) -> bool:
        return (
            (self.archived is None or row.archived == self.archived)
            and (self.project is None or row.project == self.project)
            and (self.topic is None or row.topic == self.topic)
            and (self.tier is None or row.tier == self.tier)
            and all(tag in row.tags for tag in self.tags)
        )


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


class VaultIndex:
    def __init__(self, vault: Vault, settings: Settings, embedder: Embedder | None = None) -> None:
        self.vault = vault
        self.settings = settings
        self.embedder: Embedder = embedder or SentenceTransformerEmbedder(settings["model"])
        self.weights = FusionWeights(
            settings["vector_weight"], settings["keyword_weight"], settings["bm25_saturation"]
        )
        self.events = IndexEvents()
        self._catalog: Catalog | None = None
        self._vectors: VectorStore | None = None
        self._generation: str | None = None
        self._lock_depth = 0
        self._mutex = threading.RLock()

    # Files ---------------------------------------------------------------

    @contextlib.contextmanager
    def _locked(self) -> Iterator[None]:
        """The index write lock: across processes (flock) and threads (RLock)."""
        with self._mutex:
            if self._lock_depth:
                self._lock_depth += 1
                try:
                    yield
                finally:
                    self._lock_depth -= 1
                return
            with file_lock(self.lock_path):
                self._lock_depth = 1
                try:
                    yield
                finally:
                    self._lock_depth = 0

    @property
    def catalog_path(self) -> Path:
        return self.vault.index_dir / CATALOG_FILE

    @property
    def vectors_path(self) -> Path:
        return self.vault.index_dir / VECTORS_FILE

    @property
    def lock_path(self) -> Path:
        return self.vault.index_dir / "index.lock"

    @property
    def catalog(self) -> Catalog:
        if self._catalog is None:
            self.vault.index_dir.mkdir(parents=True, exist_ok=True)
            try:
                self._catalog = Catalog(self.catalog_path)
            except CorruptIndexError as exc:
                self._notice(f"{exc}; rebuilding the index from the files")
                with self._locked():
                    self._remove_files()
                    self._catalog = Catalog(self.catalog_path)
            self._check_model(self._catalog)
        return self._catalog

    def _check_model(self, catalog: Catalog) -> None:
        recorded = catalog.get_meta("model")
        if recorded is None:
            catalog.set_meta("model", self.embedder.name)
            catalog.set_meta("dimension", str(self.embedder.dimension))
        elif recorded != self.embedder.name:
            self._notice(f"model changed from {recorded} to {self.embedder.name}; full rebuild")
            with self._locked():
                catalog.close()
                self._remove_files()
                self._catalog = Catalog(self.catalog_path)
                self._catalog.set_meta("model", self.embedder.name)
                self._catalog.set_meta("dimension", str(self.embedder.dimension))

    def _notice(self, message: str) -> None:
        log.warning(message)
        self.events.notices.append(message)

    def _remove_files(self) -> None:
        if self._catalog is not None:
            self._catalog.close()
            self._catalog = None
        self._vectors = None
        self._generation = None
        for name in (CATALOG_FILE, f"{CATALOG_FILE}-wal", f"{CATALOG_FILE}-shm", VECTORS_FILE):
            (self.vault.index_dir / name).unlink(missing_ok=True)

    @property
    def vectors(self) -> VectorStore:
        """The vector store, reloaded when another process has changed it."""
        catalog = self.catalog
        generation = catalog.get_meta("generation") or "0"
        if self._vectors is None or generation != self._generation:
            self._vectors = self._load_vectors(catalog)
            self._generation = generation
        return self._vectors

    def _load_vectors(self, catalog: Catalog) -> VectorStore:
        from indexer.faiss_store import VectorStore

        dimension = int(catalog.get_meta("dimension") or self.embedder.dimension)
        try:
            store = VectorStore.load(self.vectors_path, dimension)
            if store.ids() != catalog.all_vector_ids():
                raise CorruptIndexError(
                    f"{self.vectors_path} does not match the catalog "
                    f"({store.count} vectors, {len(catalog.all_vector_ids())} expected)"
                )
            return store
        except CorruptIndexError as exc:
            self._notice(f"{exc}; rebuilding the index from the files")
            with self._locked():
                self._remove_files()
            self.catalog  # noqa: B018 - recreate an empty catalog
            return VectorStore(self.vectors_path, dimension)

    # Sync ----------------------------------------------------------------

    def _syncer(self) -> Syncer:
        vectors = self.vectors  # first: loading may rebuild (and replace) the catalog
        return Syncer(
            self.vault,
            self.catalog,
            vectors,
            self.embedder,
            self.settings["chunk_words"],
            self.settings["chunk_overlap"],
        )

    def sync(self, allow_embed: bool = True, progress: Progress | None = None) -> SyncReport:
        """Delta sync of the whole vault (cheap when nothing changed)."""
        with self._locked():
            syncer = self._syncer()
            paths = changed_paths(self.vault, syncer.catalog)
            if not paths:
                return SyncReport()
            report = syncer.apply(paths, allow_embed=allow_embed, progress=progress)
            self._finish_write(syncer.vectors)
            return report

    def apply(self, paths: Iterable[Path], allow_embed: bool = True) -> SyncReport:
        """Reconcile specific paths (from the watcher, or after our own writes)."""
        with self._locked():
            syncer = self._syncer()
            report = syncer.apply(list(paths), allow_embed=allow_embed)
            self._finish_write(syncer.vectors)
            return report

    def check(self) -> SyncReport:
        """What a sync would do; changes nothing."""
        with self._locked():
            syncer = self._syncer()
            return syncer.apply(changed_paths(self.vault, syncer.catalog), dry_run=True)

    def rebuild(self, progress: Progress | None = None) -> SyncReport:
        with self._locked():
            self._remove_files()
        return self.sync(progress=progress)

    def _finish_write(self, vectors: VectorStore) -> None:
        if vectors.dirty:
            vectors.save()
            generation = str(int(self.catalog.get_meta("generation") or "0") + 1)
            self.catalog.set_meta("generation", generation)
            self._generation = generation

    def delete_index(self) -> None:
        with self._locked():
            self._remove_files()
        shutil.rmtree(self.vault.index_dir / "cache", ignore_errors=True)

    # Reads ---------------------------------------------------------------

    def rows(self, archived: bool | None = None) -> list[ManifestRow]:
        with self._mutex:
            return self.catalog.rows(archived)

    def row(self, memory_id: str) -> ManifestRow | None:
        with self._mutex:
            return self.catalog.row(memory_id)

    def labelled_rows(self) -> list[ManifestRow]:
        with self._mutex:
            return self.catalog.labelled_rows()

    def rows_for(self, memory_ids: Iterable[str]) -> dict[str, ManifestRow]:
        with self._mutex:
            return self.catalog.rows_for(memory_ids)

    def session_neighbours(self, row: ManifestRow, window: int) -> list[tuple[str, int]]:
        """Memories of the same session up to `window` places before or after
        `row`, with their offset (-1: the one just before, 1: just after)."""
        if not row.session or window < 1:
            return []
        with self._mutex:
            ids = self.catalog.session_ids(row.session)
        if row.id not in ids:
            return []
        at = ids.index(row.id)
        start = max(0, at - window)
        return [(m, n - at) for n, m in enumerate(ids[start : at + window + 1], start) if n != at]

    def body(self, memory_id: str) -> str:
        with self._mutex:
            return self.catalog.body(memory_id)

    def problems(self) -> list[tuple[str, str]]:
        with self._mutex:
            return self.catalog.problems()

    def search(self, query: str, k: int = 10, filters: Filters | None = None) -> list[Candidate]:
        """Hybrid search: vector top-k and FTS5 top-k, fused, best first."""
        with self._mutex:
            return self._search(query, k, filters)

    def _search(self, query: str, k: int, filters: Filters | None) -> list[Candidate]:
        filters = filters or Filters()
        vectors = self.vectors  # first: loading may rebuild (and replace) the catalog
        catalog = self.catalog
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
            catalog, query, pool * 4, self.settings["context_weight"], self.weights.bm25_saturation
        )
        cosines_of = partial(memory_cosines, catalog, vectors, query=query_vector)
        best_cosine.update(cosines_of([m for m in keyword if m not in best_cosine]))
        around = neighbour_cosines(catalog, best_cosine, cosines_of)
        share = self.settings["session_cosine"]
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
        """Each memory's nearest other memories by cosine (every memory when None)."""
        from indexer.neighbours import nearest_memories

        with self._mutex:
            vectors = self.vectors
            return nearest_memories(vectors, self.catalog, memory_ids, k, bar, allowed)

    def stats(self) -> dict[str, object]:
        with self._mutex:
            return self._stats()

    def _stats(self) -> dict[str, object]:
        vectors = self.vectors.count
        counts = self.catalog.counts()
        return {
            **counts,
            "vectors": vectors,
            "model": self.catalog.get_meta("model"),
            "dimension": int(self.catalog.get_meta("dimension") or 0),
            "catalog_bytes": _size(self.catalog_path),
            "vectors_bytes": _size(self.vectors_path),
        }

    def close(self) -> None:
        if self._catalog is not None:
            self._catalog.close()
            self._catalog = None


def _size(path: Path) -> int:
    return path.stat().st_size if path.exists() else 0
