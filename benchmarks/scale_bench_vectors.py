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


def bag_of_words_corpus(count: int, queries: int, seed: int = 29) -> tuple[np.ndarray, np.ndarray]:
    """(count vectors, query vectors) shaped like the scale vault's texts without
    files: bodies of lognormal length (median ~45 words) drawn 55% from 100 common
    words, 25% from their topic's 15 and 20% from their project's 150 (one project
    per 5,000), as SyntheticEmbedder encodes them; queries are 3-6 consecutive words
    of a random body. Vectorised: 1M vectors in about a minute."""
    from scipy import sparse

    rng = np.random.default_rng(seed)
    projects, common, own, topic_words = max(8, count // 5000), 100, 150, 15
    words = np.random.default_rng(1).standard_normal((common + projects * own, DIMENSION))
    words = (words / np.linalg.norm(words, axis=1, keepdims=True)).astype(np.float32)
    sources = set(rng.choice(count, queries, replace=False).tolist())
    out, asked = np.empty((count, DIMENSION), dtype=np.float32), []
    for first in range(0, count, 100_000):
        size = min(100_000, count - first)
        project, topic = rng.integers(0, projects, size), rng.integers(0, 8, size)
        length = np.clip(rng.lognormal(3.8, 0.7, size).astype(np.int64), 8, 600)
        text = np.repeat(np.arange(size), length)
        roll, base = rng.random(text.size), common + project[text] * own
        topical = base + topic[text] * topic_words + rng.integers(0, topic_words, text.size)
        chosen = np.where(
            roll < 0.55,
            rng.integers(0, common, text.size),
            np.where(roll < 0.8, topical, base + rng.integers(0, own, text.size)),
        )
        counts = sparse.csr_matrix(
            (np.ones(text.size, dtype=np.float32), (text, chosen)), shape=(size, len(words))
        )
        out[first : first + size] = _jittered(np.asarray(counts @ words), rng)
        starts = np.concatenate([[0], np.cumsum(length)[:-1]])
        for source in sorted(s - first for s in sources if first <= s < first + size):
            body = chosen[starts[source] : starts[source] + length[source]]
            at = int(rng.integers(0, max(1, len(body) - 6)))
            picked = body[at : at + int(rng.integers(3, 7))]
            asked.append(_jittered(words[picked].sum(axis=0, keepdims=True), rng)[0])
    return out, np.asarray(asked, dtype=np.float32)


def _jittered(rows: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    rows = rows / np.linalg.norm(rows, axis=1, keepdims=True)
    rows += JITTER * rng.standard_normal(rows.shape).astype(np.float32) / np.sqrt(DIMENSION)
    return (rows / np.linalg.norm(rows, axis=1, keepdims=True)).astype(np.float32)
