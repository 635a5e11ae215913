"""The scale benchmark's raw-encoder sample: the texts it times are the very
chunks the first sync encodes (a sample of other texts, the whole file with its
frontmatter or chunks cut another way, would make `build_vs_raw_encoder` compare
unlike work), sent to the encoder in calls of the indexer's size."""

from __future__ import annotations

import os
from collections.abc import Sequence
from pathlib import Path

import numpy as np

from benchmarks.scale_bench_encoder import Timing, ratios, sample_chunks, timed_encode
from benchmarks.scale_bench_vault import generate
from benchmarks.scale_bench_vectors import SyntheticEmbedder
from indexer.index import VaultIndex
from indexer.sync import EMBED_BATCH
from vault.config import load_settings


class Recording(SyntheticEmbedder):
    """Synthetic vectors; remembers each call's texts."""

    def __init__(self) -> None:
        super().__init__()
        self.calls: list[list[str]] = []

    def encode(self, texts: Sequence[str]) -> np.ndarray:
        self.calls.append(list(texts))
        return super().encode(texts)


def test_the_sample_is_chunks_the_build_encodes(tmp_path: Path) -> None:
    vault = generate(tmp_path / "vault", 120, workers=1)
    long_body = " ".join(f"word{i}" for i in range(150))  # two chunks at 100 / 20
    long_path = next(vault.memories_dir.glob("*/*/*.md"))
    text = long_path.read_text(encoding="utf-8")
    long_path.write_text(text[: text.rindex("---\n") + 4] + long_body + "\n", encoding="utf-8")
    settings = load_settings(None, {**os.environ, "VAULT_CHUNK_WORDS": "100",
                                    "VAULT_CHUNK_OVERLAP": "20"})  # fmt: skip
    built = Recording()
    VaultIndex(vault, settings, embedder=built).sync()
    encoded = [t for call in built.calls for t in call]

    everything = sample_chunks(vault, settings, 10_000)
    assert sorted(everything) == sorted(encoded)  # archived memories too, both chunks
    assert sorted(t[:12] for t in everything if t.startswith("word")) == [
        "word0 word1 ",
        "word80 word8",
    ]
    sample = sample_chunks(vault, settings, 50)
    assert len(sample) == 50
    assert set(sample) <= set(encoded)
    assert sample == sample_chunks(vault, settings, 50)  # the same draw every run
    assert sample != sample_chunks(vault, settings, 50, seed=3)  # a draw, not the first files


def test_the_encoder_is_timed_in_calls_of_the_indexer_size() -> None:
    embedder = Recording()
    texts = [f"note {i} about the deploy queue" for i in range(EMBED_BATCH + 10)]
    timing = timed_encode(embedder, texts)
    assert [len(call) for call in embedder.calls] == [EMBED_BATCH, 10]
    assert timing.chunks == len(texts)
    assert timing.wall_s > 0


def test_the_ratio_is_build_speed_over_raw_speed() -> None:
    build, raw = Timing(900, 10.0, 20.0), Timing(500, 5.0, 8.0)
    assert ratios(build, raw) == {"build_vs_raw_encoder": 0.9, "build_vs_raw_encoder_cpu": 0.72}
    assert ratios(build, Timing())["build_vs_raw_encoder"] == 0.0
