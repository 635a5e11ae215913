"""Re-train the capture classifier on both halves of the labelled capture set
and write memory/encode/durable_classifier.npz (plain arrays, no pickle).
Run: .venv/bin/python -m benchmarks.train_capture
"""

from __future__ import annotations

import os

from benchmarks.capture_training import HALVES, fit, load_turns, table
from indexer.embedder import SentenceTransformerEmbedder
from memory.encode.capture_features import FEATURE_NAMES
from memory.encode.durable_classifier import DEFAULT_PATH


def main() -> None:
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    embedder = SentenceTransformerEmbedder()
    turns = load_turns(list(HALVES.values()))
    classifier = fit(table(turns, embedder), embedder.name)
    classifier.save(DEFAULT_PATH)
    moved = sorted(
        zip(FEATURE_NAMES, classifier.feature_weights, strict=True), key=lambda p: -abs(p[1])
    )
    print(f"{len(turns)} turns; threshold {classifier.threshold}; bias {classifier.bias:.2f}")
    print("strongest features: " + ", ".join(f"{n} {w:+.2f}" for n, w in moved[:8]))
    print(f"wrote {DEFAULT_PATH}")


if __name__ == "__main__":
    main()
