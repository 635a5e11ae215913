"""The vector store: FAISS inner product over unit vectors, stable int64 ids.

Ids come from `vector_ids.vector_id`. Each published generation has its own
file (indexer/published.py), written atomically (vault/atomic.py); a file that
does not load is reported as corrupt, a missing one as FileNotFoundError.
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path
from typing import Any

import faiss
import numpy as np

from indexer.errors import CorruptIndexError
from vault.atomic import atomic_replace


class VectorStore:
    def __init__(self, dimension: int) -> None:
        self.dimension = dimension
        self.index: Any = faiss.IndexIDMap2(faiss.IndexFlatIP(dimension))
        self.dirty = False

    @classmethod
    def load(cls, path: Path, dimension: int) -> VectorStore:
        store = cls(dimension)
        if not path.exists():
            raise FileNotFoundError(path)
        try:
            index = faiss.read_index(str(path))
        except RuntimeError as exc:
            if not path.exists():  # deleted in between: a newer generation was published
                raise FileNotFoundError(path) from exc
            raise CorruptIndexError(f"{path} does not load ({str(exc).splitlines()[0]})") from exc
        if index.d != dimension or not isinstance(index, faiss.IndexIDMap2):
            raise CorruptIndexError(f"{path} holds {index.d}-d vectors, expected {dimension}")
        store.index = index
        return store

    @property
    def count(self) -> int:
        return int(self.index.ntotal)

    def ids(self) -> set[int]:
        return set(faiss.vector_to_array(self.index.id_map).tolist())

    def add(self, ids: list[int], vectors: np.ndarray) -> None:
        if ids:
            self.index.add_with_ids(vectors, np.asarray(ids, dtype=np.int64))
            self.dirty = True

    def remove(self, ids: Iterable[int]) -> None:
        wanted = np.asarray(sorted(set(ids)), dtype=np.int64)
        if wanted.size:
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
            params = faiss.SearchParameters(sel=faiss.IDSelectorBatch(allowed_ids))  # type: ignore[call-arg]
        scores, ids = self.index.search(query.reshape(1, -1), min(k, self.count), params=params)
        return [(int(i), float(s)) for i, s in zip(ids[0], scores[0], strict=True) if i != -1]

    def search_many(self, queries: np.ndarray, k: int) -> tuple[np.ndarray, np.ndarray]:
        """Top-k (scores, ids) for each row of `queries`; missing slots have id -1."""
        k = min(k, self.count)
        if k <= 0 or len(queries) == 0:
            empty = np.zeros((len(queries), 0))
            return empty, empty.astype(np.int64)
        scores, ids = self.index.search(np.ascontiguousarray(queries, dtype=np.float32), k)
        return scores, ids

    def vectors_for(self, ids: list[int]) -> np.ndarray:
        """The stored vectors of `ids`, one row each, in one call into FAISS."""
        keys = np.asarray(ids, dtype=np.int64)
        return np.asarray(self.index.reconstruct_batch(keys), dtype=np.float32).reshape(
            -1, self.dimension
        )

    def save(self, path: Path) -> None:
        atomic_replace(path, lambda tmp: faiss.write_index(self.index, tmp), mode=0o600)
        self.dirty = False
