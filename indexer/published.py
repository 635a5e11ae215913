"""The published index: the catalog and its generation's vector file, read as one
pair and written as one. A writer holds `.index/index.lock`, writes
`vectors-<gen>.faiss` and commits `generation = gen` with its rows in one
transaction; a reader takes the generation from its SQLite read snapshot.
Only a writer holding the lock deletes, rebuilds or repairs anything.
"""

from __future__ import annotations

import contextlib
import fcntl
import logging
import os
import sqlite3
import threading
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from indexer.catalog import Catalog
from indexer.catalog_reader import CATALOG_FILE
from indexer.errors import CorruptIndexError, IndexBusyError
from vault.layout import private_folder

if TYPE_CHECKING:
    from indexer.faiss_store import VectorStore

log = logging.getLogger(__name__)
LOCK_FILE = "index.lock"
LEGACY_VECTORS = "vectors.faiss"  # the one vector file of indexes made before generations
READ_ATTEMPTS = 5


def vectors_file(index_dir: Path, generation: int) -> Path:
    return index_dir / f"vectors-{generation}.faiss"


def _generation_of(path: Path) -> int | None:
    number = path.name.removeprefix("vectors-").removesuffix(".faiss")
    return int(number) if number.isdigit() else None


@dataclass
class Snapshot:
    """One generation as a reader or writer sees it: catalog rows and their vectors."""

    catalog: Catalog
    vectors: VectorStore
    generation: int
    rebuilding: bool = False  # a writer that starts from empty tables


@contextlib.contextmanager
def index_lock(path: Path, wait: bool = True) -> Iterator[None]:
    """The writers' lock; IndexBusyError at once when `wait` is False and it is held."""
    private_folder(path.parent)
    fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o600)
    try:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | (0 if wait else fcntl.LOCK_NB))
        except BlockingIOError:
            raise IndexBusyError(f"another process is writing the index ({path})") from None
        yield
    finally:
        os.close(fd)  # releases the lock


class PublishedIndex:
    """The open catalog and the loaded vectors of one process, kept consistent."""

    def __init__(
        self,
        index_dir: Path,
        model: str,
        dimension: Callable[[], int],
        notice: Callable[[str], None],
    ) -> None:
        self.index_dir = index_dir
        self.model = model
        self._dimension = dimension
        self._notice = notice
        self._catalog: Catalog | None = None
        self._identity: tuple[int, int] | None = None
        self._vectors: VectorStore | None = None
        self._generation = -1  # the generation `_vectors` belongs to
        self._stand_in = False  # `_vectors` replaces a missing or broken file
        self._mutex = threading.RLock()
        self._current: Snapshot | None = None  # the read or write in progress
        self._writing = False

    @property
    def catalog_path(self) -> Path:
        return self.index_dir / CATALOG_FILE

    @property
    def lock_path(self) -> Path:
        return self.index_dir / LOCK_FILE

    def vectors_path(self, generation: int) -> Path:
        return vectors_file(self.index_dir, generation)

    def catalog(self) -> Catalog:
        """The open catalog, reopened when its file was replaced or deleted underneath
        us (a writer elsewhere rebuilt a broken one); never mid-read or mid-write."""
        with self._mutex:
            if self._catalog is not None and self._current is not None:
                return self._catalog
            identity = _identity(self.catalog_path)
            if self._catalog is not None and identity is not None and identity == self._identity:
                return self._catalog
            if self._catalog is not None:
                log.info("%s was replaced; reopening it", self.catalog_path)
                self.close()
            private_folder(self.index_dir)
            catalog = Catalog(self.catalog_path)
            self._catalog, self._identity = catalog, _identity(self.catalog_path)
            return catalog

    @contextlib.contextmanager
    def catalog_only(self) -> Iterator[Catalog]:
        """The catalog for reads that need no vectors (rows, texts): each query is
        its own committed snapshot, inside a read or write the current one."""
        with self._mutex:
            yield self.catalog()

    def close(self) -> None:
        with self._mutex:
            if self._catalog is not None:
                self._catalog.close()
            self._catalog, self._identity = None, None
            self._forget_vectors()

    def _forget_vectors(self) -> None:
        self._vectors, self._generation, self._stand_in = None, -1, False

    # Reading ---------------------------------------------------------------

    @contextlib.contextmanager
    def reading(self) -> Iterator[Snapshot]:
        """A consistent view for one read: rows, texts and vectors of one generation.
        Inside this thread's own write, the writer's view."""
        with self._mutex:
            if self._current is not None:
                yield self._current
                return
            snapshot = self._open_read()
            self._current = snapshot
            try:
                yield snapshot
            finally:
                self._current = None
                snapshot.catalog.end_read()

    def _open_read(self) -> Snapshot:
        missing: int | None = None
        for attempt in range(READ_ATTEMPTS):
            catalog = self.catalog()
            try:
                catalog.begin_read()
                generation = catalog.generation()
                return Snapshot(catalog, self._vectors_at(catalog, generation), generation)
            except FileNotFoundError:
                if missing == generation or attempt == READ_ATTEMPTS - 1:
                    reason = f"{self.vectors_path(generation)} is missing"
                    return Snapshot(catalog, self._substitute(generation, reason), generation)
                missing = generation  # a newer generation replaced it: read again
                catalog.end_read()
            except CorruptIndexError as exc:
                return Snapshot(catalog, self._substitute(generation, str(exc)), generation)
            except sqlite3.DatabaseError as exc:
                catalog.end_read()
                raise CorruptIndexError(
                    f"{self.catalog_path} cannot be read ({exc}); `vault reindex` rebuilds it"
                ) from exc
        raise AssertionError("unreachable: the last attempt always returns")

    def _substitute(self, generation: int, reason: str) -> VectorStore:
        """Empty vectors standing in for an unreadable file: answers come from
        keywords until a writer rebuilds. A reader never repairs anything."""
        from indexer.faiss_store import VectorStore

        if not (self._stand_in and self._generation == generation):
            self._notice(
                f"index stale: {reason}; answering from keywords until the next write "
                "rebuilds it (or run `vault reindex`)"
            )
            self._vectors = VectorStore(self._dimension())
            self._generation, self._stand_in = generation, True
        assert self._vectors is not None
        return self._vectors

    def _vectors_at(self, catalog: Catalog, generation: int) -> VectorStore:
        """The vectors of `generation`, loaded once and checked against the catalog."""
        from indexer.faiss_store import VectorStore

        if self._vectors is not None and self._generation == generation:
            return self._vectors
        dimension = int(catalog.get_meta("dimension") or self._dimension())
        path = self.vectors_path(generation)
        store = VectorStore(dimension) if generation == 0 else VectorStore.load(path, dimension)
        expected = catalog.all_vector_ids()
        if store.ids() != expected:
            raise CorruptIndexError(
                f"{path} does not match the catalog ({store.count} vectors, "
                f"{len(expected)} expected)"
            )
        self._vectors, self._generation, self._stand_in = store, generation, False
        return store

    # Writing ---------------------------------------------------------------

    @contextlib.contextmanager
    def writing(self, rebuild: bool = False, wait: bool = True) -> Iterator[Snapshot]:
        """Hold the index lock for one write-and-publish: yields the catalog inside its
        write transaction and the vectors to change; when the block ends without an
        error, rows and vectors are published together as the next generation."""
        with self._mutex:
            if self._writing:  # nested in this thread's write: the outer one publishes
                if self._current is None or rebuild:
                    raise RuntimeError("a rebuild cannot run inside another index write")
                yield self._current
                return
            if self._current is not None:
                raise RuntimeError("an index write cannot start inside a read snapshot")
            with index_lock(self.lock_path, wait):
                snapshot = self._begin_write(rebuild)
                self._current, self._writing = snapshot, True
                try:
                    yield snapshot
                    self._publish(snapshot)
                except BaseException:
                    snapshot.catalog.rollback()
                    self._forget_vectors()  # changed in memory, never published
                    raise
                finally:
                    self._current, self._writing = None, False

    def _begin_write(self, rebuild: bool) -> Snapshot:
        try:
            catalog = self.catalog()
        except CorruptIndexError as exc:
            self._notice(f"{exc}; rebuilding the index from the files")
            self._remove_files()
            catalog, rebuild = self.catalog(), True
        recorded = catalog.get_meta("model")
        if recorded is not None and recorded != self.model:
            self._notice(f"model changed from {recorded} to {self.model}; full rebuild")
            rebuild = True
        generation = catalog.generation()
        vectors = None if rebuild else self._writer_vectors(catalog, generation)
        catalog.transaction()
        if vectors is None or recorded is None:
            catalog.set_meta("model", self.model)
            catalog.set_meta("dimension", str(self._dimension()))
        if vectors is not None:
            return Snapshot(catalog, vectors, generation)
        from indexer.faiss_store import VectorStore

        catalog.clear()
        rebuilds = int(catalog.get_meta("rebuilds") or 0) + 1
        catalog.set_meta("rebuilds", str(rebuilds))  # counts every rebuild, asked for or not
        log.info("rebuilding the index of %s (rebuild %d)", self.index_dir, rebuilds)
        return Snapshot(catalog, VectorStore(self._dimension()), generation, rebuilding=True)

    def _writer_vectors(self, catalog: Catalog, generation: int) -> VectorStore | None:
        """The current generation's vectors, or None when they must be rebuilt."""
        if self._stand_in and self._generation == generation:
            self._forget_vectors()  # a reader's stand-in: try the file itself again
        path = self.vectors_path(generation)
        legacy = self.index_dir / LEGACY_VECTORS
        if generation > 0 and not path.exists() and legacy.exists():
            os.replace(legacy, path)  # an index from before generations: adopt its file
        try:
            return self._vectors_at(catalog, generation)
        except FileNotFoundError:
            self._notice(f"{path} is missing; rebuilding the index from the files")
        except CorruptIndexError as exc:
            self._notice(f"{exc}; rebuilding the index from the files")
        return None

    def _publish(self, snapshot: Snapshot) -> None:
        generation = snapshot.generation
        written: Path | None = None
        snapshot.vectors.fit()  # exact or approximate by size: a whole new structure
        if snapshot.vectors.dirty or snapshot.rebuilding:
            generation += 1
            written = self.vectors_path(generation)
            snapshot.vectors.save(written)  # fsynced before the catalog names it
            snapshot.catalog.set_meta("generation", str(generation))
        try:
            snapshot.catalog.commit()
        except BaseException:
            if written is not None:
                written.unlink(missing_ok=True)
            raise
        self._vectors, self._generation, self._stand_in = snapshot.vectors, generation, False
        if written is not None:
            self._remove_old_vectors(generation)

    def _remove_old_vectors(self, current: int) -> None:
        """Keep the current and the previous generation (a reader may be loading it);
        remove older files, orphans of failed writes and their temp files."""
        for path in self.index_dir.glob("vectors-*.faiss"):
            number = _generation_of(path)
            if number is None or not current - 1 <= number <= current:
                path.unlink(missing_ok=True)
        (self.index_dir / LEGACY_VECTORS).unlink(missing_ok=True)
        for temp in self.index_dir.glob(".vectors-*.tmp"):
            temp.unlink(missing_ok=True)

    def _remove_files(self) -> None:
        """Delete a broken catalog and every vector file (writers only, under the lock)."""
        self.close()
        for name in (CATALOG_FILE, f"{CATALOG_FILE}-wal", f"{CATALOG_FILE}-shm", LEGACY_VECTORS):
            (self.index_dir / name).unlink(missing_ok=True)
        for path in self.index_dir.glob("vectors-*.faiss"):
            path.unlink(missing_ok=True)


def _identity(path: Path) -> tuple[int, int] | None:
    try:
        stat = os.stat(path)
    except FileNotFoundError:
        return None
    return stat.st_dev, stat.st_ino
