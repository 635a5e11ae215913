"""The rebuild checkpoint: vectors saved part by part come back for the same model
and chunking, and are dropped (encoded again) for any other."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from benchmarks.scale_bench_vectors import SyntheticEmbedder
from indexer.rebuild_checkpoint import RebuildCheckpoint, part_size, text_key


def test_saved_parts_come_back_for_the_same_model_and_chunking(tmp_path: Path) -> None:
    embedder = SyntheticEmbedder()
    texts = [f"note number {i} about caching" for i in range(70)]
    vectors = embedder.encode(texts)
    first = RebuildCheckpoint(tmp_path, embedder, (400, 80))
    assert first.load() == {}
    first.start()
    first.save(texts[:32], vectors[:32])
    first.save(texts[32:64], vectors[32:64])  # the rest never saved: interrupted

    found = RebuildCheckpoint(tmp_path, embedder, (400, 80)).load()
    assert set(found) == {text_key(t) for t in texts[:64]}
    assert np.array_equal(found[text_key(texts[40])], vectors[40])

    other_chunking = RebuildCheckpoint(tmp_path, embedder, (200, 40))
    assert other_chunking.load() == {}
    assert not (tmp_path / "rebuild").exists()


def test_parts_are_a_twentieth_of_the_work_within_bounds() -> None:
    assert part_size(100, 32) == 32
    assert part_size(10_000, 32) == 500
    assert part_size(1_000_000, 32) == 1024
