"""Embeddings computed ahead of a rebuild, so the rebuild holds the index lock
only to write rows and publish. Embedding runs in small batches, each inside
`turn` (the daemon's work lock: requests are answered between batches); a file
that changes meanwhile is embedded again when the rebuild writes. With a
checkpoint, what is embedded is saved part by part and an interrupted rebuild
resumes from it (indexer/rebuild_checkpoint.py).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from contextlib import AbstractContextManager
from typing import TYPE_CHECKING

from indexer.chunking import chunk_words
from indexer.embedder import Embedder
from indexer.rebuild_checkpoint import RebuildCheckpoint, part_size, text_key
from vault.errors import BrokenFileError, MemoryNotFoundError
from vault.layout import Vault
from vault.store import MemoryStore

if TYPE_CHECKING:
    import numpy as np

Progress = Callable[[int, int], None]
BATCH = 32  # texts per turn: a waiting request waits for at most one batch


class StagedEmbedder:
    """Answers from vectors computed ahead; encodes only texts it has not seen."""

    def __init__(self, embedder: Embedder, staged: dict[str, np.ndarray], resumed: int = 0) -> None:
        self.name = embedder.name
        self.resumed = resumed  # texts found embedded by an interrupted rebuild
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
    checkpoint: RebuildCheckpoint | None = None,
) -> StagedEmbedder:
    """Embed the chunks of every memory file now; `chunking` is (words, overlap).
    Texts the checkpoint holds are not encoded again; new ones are saved to it."""
    store = MemoryStore(vault)
    texts: dict[str, None] = {}
    for path in vault.memory_files():
        try:
            body = store.read_path(path).body
        except (MemoryNotFoundError, BrokenFileError):
            continue  # gone or broken: the rebuild itself records what it finds
        texts.update(dict.fromkeys(chunk_words(body, *chunking)))
    import numpy as np

    saved = checkpoint.load() if checkpoint is not None else {}
    staged = {t: saved[k] for t in texts if (k := text_key(t)) in saved}
    del saved
    unique = [t for t in texts if t not in staged]
    resumed, total = len(staged), len(texts)
    if checkpoint is not None:
        checkpoint.start()
    if progress is not None and resumed:
        progress(resumed, total)
    every, unsaved = part_size(len(unique), BATCH), 0
    for start in range(0, len(unique), BATCH):
        part = unique[start : start + BATCH]
        with turn:
            staged.update(zip(part, embedder.encode(part), strict=True))
        unsaved += len(part)
        if checkpoint is not None and (unsaved >= every or start + BATCH >= len(unique)):
            done = unique[start + len(part) - unsaved : start + len(part)]
            checkpoint.save(done, np.vstack([staged[t] for t in done]))
            unsaved = 0
        if progress is not None:
            progress(resumed + start + len(part), total)
    return StagedEmbedder(embedder, staged, resumed)
