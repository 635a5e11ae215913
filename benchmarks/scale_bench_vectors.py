"""Synthetic embeddings for the scale benchmark: deterministic unit vectors
that cost microseconds, not the model's milliseconds.

Each word gets a fixed random direction (seeded by its CRC32); a text's vector
is the normalised sum of its words' directions plus a small per-text jitter.
Texts that share words point the same way, so the vectors cluster by project
and topic as real embeddings do (uniform random vectors would make every
approximate index look worse than it is on real data). Used through the real
Embedder protocol, so the index code path is the product's own.
"""

from __future__ import annotations

import zlib
from collections.abc import Sequence

import numpy as np

DIMENSION = 384
JITTER = 0.15


class SyntheticEmbedder:
    """An Embedder returning bag-of-words vectors; counts the texts it encodes."""

    def __init__(self, dimension: int = DIMENSION) -> None:
        self.name = f"synthetic-bow-{dimension}"
        self._dimension = dimension
        self._words: dict[str, np.ndarray] = {}
        self.encoded_texts = 0

    @property
    def dimension(self) -> int:
        return self._dimension

    def _direction(self, token: str) -> np.ndarray:
        found = self._words.get(token)
        if found is None:
            rng = np.random.default_rng(zlib.crc32(token.encode("utf-8")))
            found = rng.standard_normal(self._dimension).astype(np.float32)
            found /= np.linalg.norm(found)
            self._words[token] = found
        return found

    def encode(self, texts: Sequence[str]) -> np.ndarray:
        out = np.zeros((len(texts), self._dimension), dtype=np.float32)
        for row, text in enumerate(texts):
            tokens = [t.strip(".,;:!?").lower() for t in text.split()]
            for token in tokens:
                if token:
                    out[row] += self._direction(token)
            jitter = np.random.default_rng(zlib.crc32(text.encode("utf-8")))
            noise = jitter.standard_normal(self._dimension).astype(np.float32)
            norm = float(np.linalg.norm(out[row])) or 1.0
            out[row] = out[row] / norm + JITTER * noise / np.sqrt(self._dimension)
            out[row] /= np.linalg.norm(out[row])
        self.encoded_texts += len(texts)
        return out
