"""The raw encoder's speed on the scale vault's own chunks, for the scale
benchmark's `build_vs_raw_encoder`: what the first sync achieves against what
the encoder alone does with the same kind of texts.

The sample is chunks of randomly chosen memory files (active and archived, as
the build indexes both), read and chunked as the indexer does, encoded in calls
of the indexer's size (indexer.sync.EMBED_BATCH) by a fresh encoder of the same
model session (so none is answered from the build's recent texts). Half is
timed before the build and half after, so a change of load during the build
weighs on both sides. Wall and CPU time (this process's, every thread) each.
"""

from __future__ import annotations

import random
import time
from collections.abc import Sequence
from dataclasses import dataclass

from indexer.chunking import chunk_words
from indexer.embedder import Embedder
from indexer.sync import EMBED_BATCH
from vault.config import Settings
from vault.layout import Vault
from vault.store import MemoryStore


@dataclass
class Timing:
    """Texts encoded (or memories and chunks built) with the wall and CPU seconds."""

    chunks: int = 0
    wall_s: float = 0.0
    cpu_s: float = 0.0

    def add(self, other: Timing) -> Timing:
        chunks, wall = self.chunks + other.chunks, self.wall_s + other.wall_s
        return Timing(chunks, wall, self.cpu_s + other.cpu_s)

    @property
    def per_s(self) -> float:
        return self.chunks / self.wall_s if self.wall_s else 0.0

    @property
    def per_cpu_s(self) -> float:
        return self.chunks / self.cpu_s if self.cpu_s else 0.0


def sample_chunks(vault: Vault, settings: Settings, count: int, seed: int = 17) -> list[str]:
    """`count` chunk texts (fewer in a small vault) of random memory files, as the
    indexer chunks their bodies."""
    files = sorted(vault.memory_files())
    random.Random(seed).shuffle(files)
    store, chunks = MemoryStore(vault), []
    for path in files:
        body = store.read_path(path).body
        chunks += chunk_words(body, settings.chunk_words, settings.chunk_overlap)
        if len(chunks) >= count:
            break
    return chunks[:count]


def timed_encode(embedder: Embedder, texts: Sequence[str], batch: int = EMBED_BATCH) -> Timing:
    """Encode `texts` in calls of `batch`, as the indexer calls its encoder."""
    wall, cpu = time.perf_counter(), time.process_time()
    for start in range(0, len(texts), batch):
        embedder.encode(texts[start : start + batch])
    return Timing(len(texts), time.perf_counter() - wall, time.process_time() - cpu)


def ratios(build: Timing, raw: Timing) -> dict[str, float]:
    """The build's chunks/s over the raw encoder's, by wall and by CPU time."""
    wall = build.per_s / raw.per_s if raw.per_s else 0.0
    cpu = build.per_cpu_s / raw.per_cpu_s if raw.per_cpu_s else 0.0
    return {"build_vs_raw_encoder": round(wall, 3), "build_vs_raw_encoder_cpu": round(cpu, 3)}
