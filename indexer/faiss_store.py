"""The vector store: FAISS inner product over unit vectors, stable int64 ids.

Its structure follows its size (`fit`): exact IndexFlatIP up to EXACT_LIMIT
vectors, above it an IVF index (trained k-means quantizer, fp16 lists; see
indexer/ivf_layout.py) that keeps remove-by-id and reconstruct-by-id, with a
shortlist index over the same lists whose candidates are re-ranked exactly
from the fp16 vectors. Ids come from `vector_ids.vector_id`. Each published
generation has its own file (indexer/published.py; the IVF index, then its
shortlist), written atomically; a file that does not load is reported as corrupt.
"""

from __future__ import annotations

import logging
from collections.abc import Iterable
from pathlib import Path
from typing import Any

import faiss
import numpy as np

from indexer import ivf_layout
from indexer.errors import CorruptIndexError
from indexer.ivf_layout import exact_ids, ivf_ids, kind_of, new_ivf, new_shortlist, nprobe_for
from vault.atomic import atomic_replace

log = logging.getLogger(__name__)
# One OpenMP thread: queries come one at a time, and idle OpenMP threads spin-wait;
# on a busy two-core machine a 2,000-vector scan took 42 ms with two, 1.3 ms with one.
faiss.omp_set_num_threads(1)
EXACT_FILTER_LIMIT = 50_000  # a filtered search over at most this many vectors is exact


class VectorStore:
    def __init__(self, dimension: int) -> None:
        self.dimension = dimension
        self.index: Any = faiss.IndexIDMap2(faiss.IndexFlatIP(dimension))
        self.shortlist: Any = None  # an IVF store's fast-scan candidates (ivf_layout)
        self.dirty = False

    @classmethod
    def load(cls, path: Path, dimension: int) -> VectorStore:
        store = cls(dimension)
        if not path.exists():
            raise FileNotFoundError(path)
        try:
            reader = faiss.FileIOReader(str(path))
            index = faiss.read_index(reader)
        except RuntimeError as exc:
            if not path.exists():  # deleted in between: a newer generation was published
                raise FileNotFoundError(path) from exc
            raise CorruptIndexError(f"{path} does not load ({str(exc).splitlines()[0]})") from exc
        if index.d != dimension or not isinstance(index, (faiss.IndexIDMap2, faiss.IndexIVF)):
            raise CorruptIndexError(f"{path} holds {index.d}-d vectors, expected {dimension}")
        if isinstance(index, faiss.IndexIVF):
            index.nprobe = nprobe_for(index.nlist)
            store.shortlist = cls._read_shortlist(reader, index, path)
        store.index = index
        return store

    @staticmethod
    def _read_shortlist(reader: Any, index: Any, path: Path) -> Any:
        """The shortlist written after an IVF index, or None for a file written before
        shortlists (searched as before; the next publish rebuilds it, see `kind`)."""
        try:
            shortlist = faiss.read_index(reader)
        except RuntimeError:
            return None
        if not isinstance(shortlist, faiss.IndexIVFPQFastScan) or (
            shortlist.ntotal != index.ntotal or shortlist.nlist != index.nlist
        ):
            raise CorruptIndexError(f"{path} holds a shortlist that does not match its vectors")
        shortlist.nprobe = ivf_layout.shortlist_probes(shortlist.nlist)
        return shortlist

    @property
    def kind(self) -> str:
        """ "flat" (exact search) or "ivf<nlist>" (approximate; see ivf_layout.kind_of)."""
        if isinstance(self.index, faiss.IndexIVF):
            kind = kind_of(self.index)
            return kind if self.shortlist is not None or "-" in kind else f"{kind}-noshortlist"
        return "flat"

    @property
    def count(self) -> int:
        return int(self.index.ntotal)

    def ids(self) -> set[int]:
        if isinstance(self.index, faiss.IndexIVF):
            return set(ivf_ids(self.index).tolist())
        return set(exact_ids(self.index).tolist())

    def fit(self, exact_limit: int | None = None) -> bool:
        """Give the store the structure its size calls for, rebuilt whole from the
        stored vectors (never a mixed index); True when it changed."""
        limit = ivf_layout.EXACT_LIMIT if exact_limit is None else exact_limit
        kind = ivf_layout.wanted_kind(self.count, self.kind, limit)
        if kind == self.kind:
            return False
        ids = np.asarray(sorted(self.ids()), dtype=np.int64)
        vectors = self.vectors_for(ids.tolist()) if ids.size else np.zeros((0, self.dimension))
        vectors = np.ascontiguousarray(vectors, dtype=np.float32)
        shortlist = None
        if kind == "flat":
            index: Any = faiss.IndexIDMap2(faiss.IndexFlatIP(self.dimension))
        else:
            index = new_ivf(self.dimension, int(kind.removeprefix("ivf")), vectors)
            shortlist = new_shortlist(index, vectors)
            shortlist.add_with_ids(vectors, ids)
        index.add_with_ids(vectors, ids)
        log.info("vector store: %s -> %s for %d vectors", self.kind, kind, len(ids))
        self.index, self.shortlist, self.dirty = index, shortlist, True
        return True

    def add(self, ids: list[int], vectors: np.ndarray) -> None:
        if ids:
            keys = np.asarray(ids, dtype=np.int64)
            self.index.add_with_ids(vectors, keys)
            if self.shortlist is not None:
                self.shortlist.add_with_ids(np.ascontiguousarray(vectors, dtype=np.float32), keys)
            self.dirty = True

    def remove(self, ids: Iterable[int]) -> None:
        wanted = np.asarray(sorted(set(ids)), dtype=np.int64)
        if wanted.size:
            if isinstance(self.index, faiss.IndexIVF):  # its hash-table map takes arrays
                self.index.remove_ids(faiss.IDSelectorArray(wanted.size, faiss.swig_ptr(wanted)))
                if self.shortlist is not None:
                    selector = faiss.IDSelectorArray(wanted.size, faiss.swig_ptr(wanted))
                    self.shortlist.remove_ids(selector)
            else:
                self.index.remove_ids(faiss.IDSelectorBatch(wanted))
            self.dirty = True

    def search(
        self, query: np.ndarray, k: int, allowed: Iterable[int] | None = None
    ) -> list[tuple[int, float]]:
        if self.count == 0 or k <= 0:
            return []
        params = None
        if allowed is not None:
            allowed_ids = np.asarray(list(allowed), dtype=np.int64)
            if allowed_ids.size == 0:
                return []
            if self.kind != "flat" and allowed_ids.size <= EXACT_FILTER_LIMIT:
                return self._exact_among(query, k, allowed_ids)
            params = self._params(faiss.IDSelectorBatch(allowed_ids))
        if params is None and self.shortlist is not None:
            scores, ids = self._shortlisted(query.reshape(1, -1), min(k, self.count))
        else:
            scores, ids = self.index.search(query.reshape(1, -1), min(k, self.count), params=params)
        return [(int(i), float(s)) for i, s in zip(ids[0], scores[0], strict=True) if i != -1]

    def _shortlisted(self, queries: np.ndarray, k: int) -> tuple[np.ndarray, np.ndarray]:
        """Top-k by exact (fp16) score among the shortlist's candidates of each query."""
        queries = np.ascontiguousarray(queries, dtype=np.float32)
        _, candidates = self.shortlist.search(queries, max(k, ivf_layout.SHORTLIST))
        scores = np.full((len(queries), k), -np.inf, dtype=np.float32)
        ids = np.full((len(queries), k), -1, dtype=np.int64)
        for row, found in enumerate(candidates):
            found = found[found != -1]
            exact = self.index.reconstruct_batch(found) @ queries[row]
            best = np.argsort(-exact, kind="stable")[:k]
            scores[row, : len(best)], ids[row, : len(best)] = exact[best], found[best]
        return scores, ids

    def _params(self, selector: Any) -> Any:
        if isinstance(self.index, faiss.IndexIVF):
            return faiss.SearchParametersIVF(sel=selector, nprobe=self.index.nprobe)  # type: ignore[call-arg]
        return faiss.SearchParameters(sel=selector)  # type: ignore[call-arg]

    def _exact_among(self, query: np.ndarray, k: int, ids: np.ndarray) -> list[tuple[int, float]]:
        """Exact top-k among `ids` (a narrow filter on an approximate index)."""
        vectors = self._reconstruct_present(ids)
        if not vectors:
            return []
        keys = np.asarray(list(vectors), dtype=np.int64)
        scores = np.vstack(list(vectors.values())) @ query.reshape(-1).astype(np.float32)
        best = np.argsort(-scores, kind="stable")[:k]
        return [(int(keys[i]), float(scores[i])) for i in best]

    def _reconstruct_present(self, ids: np.ndarray) -> dict[int, np.ndarray]:
        found: dict[int, np.ndarray] = {}
        for key in ids.tolist():
            try:
                found[key] = self.index.reconstruct(key)
            except RuntimeError:
                continue  # an id of the filter without a vector
        return found

    def search_many(self, queries: np.ndarray, k: int) -> tuple[np.ndarray, np.ndarray]:
        """Top-k (scores, ids) for each row of `queries`; missing slots have id -1."""
        k = min(k, self.count)
        if k <= 0 or len(queries) == 0:
            empty = np.zeros((len(queries), 0))
            return empty, empty.astype(np.int64)
        if self.shortlist is not None:
            return self._shortlisted(queries, k)
        scores, ids = self.index.search(np.ascontiguousarray(queries, dtype=np.float32), k)
        return scores, ids

    def vectors_for(self, ids: list[int]) -> np.ndarray:
        """The stored vectors of `ids`, one row each, in one call into FAISS."""
        keys = np.asarray(ids, dtype=np.int64)
        return np.asarray(self.index.reconstruct_batch(keys), dtype=np.float32).reshape(
            -1, self.dimension
        )

    def save(self, path: Path) -> None:
        atomic_replace(path, self._write, mode=0o600)
        self.dirty = False

    def _write(self, name: str) -> None:
        writer = faiss.FileIOWriter(name)
        faiss.write_index(self.index, writer)
        if self.shortlist is not None:
            faiss.write_index(self.shortlist, writer)
        del writer  # closes the file before atomic_replace syncs it
