"""Embeddings computed ahead of a rebuild, so the rebuild holds the index lock
only to write rows and publish. Embedding runs in small batches, each inside
`turn` (the daemon's work lock: requests are answered between batches); a file
that changes meanwhile is embedded again when the rebuild writes.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from contextlib import AbstractContextManager
from typing import TYPE_CHECKING

from indexer.chunking import chunk_words
from indexer.embedder import Embedder
from vault.errors import BrokenFileError, MemoryNotFoundError
from vault.layout import Vault
from vault.store import MemoryStore

if TYPE_CHECKING:
    import numpy as np

Progress = Callable[[int, int], None]
BATCH = 32  # texts per turn: a waiting request waits for at most one batch


class StagedEmbedder:
    """Answers from vectors computed ahead; encodes only texts it has not seen."""

    def __init__(self, embedder: Embedder, staged: dict[str, np.ndarray]) -> None:
        self.name = embedder.name
        self._embedder = embedder
        self._staged = staged

    @property
    def dimension(self) -> int:
        return self._embedder.dimension

    def encode(self, texts: Sequence[str]) -> np.ndarray:
        import numpy as np

        missing = [t for t in dict.fromkeys(texts) if t not in self._staged]
        if missing:
            self._staged.update(zip(missing, self._embedder.encode(missing), strict=True))
        if not texts:
            return np.zeros((0, self.dimension), dtype=np.float32)
        return np.vstack([self._staged[t] for t in texts])


def stage_embeddings(
    vault: Vault,
    embedder: Embedder,
    chunking: tuple[int, int],
    turn: AbstractContextManager[object],
    progress: Progress | None = None,
) -> StagedEmbedder:
    """Embed the chunks of every memory file now; `chunking` is (words, overlap)."""
    store = MemoryStore(vault)
    texts: dict[str, None] = {}
    for path in vault.memory_files():
        try:
            body = store.read_path(path).body
        except (MemoryNotFoundError, BrokenFileError):
            continue  # gone or broken: the rebuild itself records what it finds
        texts.update(dict.fromkeys(chunk_words(body, *chunking)))
    unique = list(texts)
    staged: dict[str, np.ndarray] = {}
    for start in range(0, len(unique), BATCH):
        part = unique[start : start + BATCH]
        with turn:
            staged.update(zip(part, embedder.encode(part), strict=True))
        if progress is not None:
            progress(start + len(part), len(unique))
    return StagedEmbedder(embedder, staged)
