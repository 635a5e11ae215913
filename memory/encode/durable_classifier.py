"""The capture classifier: a logistic regression over the capture rules'
features (memory/encode/capture_features.py) and the turn's sentence embedding,
shipped as plain arrays in durable_classifier.npz (no pickle) and re-trained by
`python -m benchmarks.train_capture`. It only scores; memory/encode/extract.py decides.
numpy is imported here, so the hook fast path never imports this module.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from indexer.embedder import Embedder
from memory.encode.capture_features import FEATURE_NAMES, featurize
from memory.encode.turn_text import PreparedTurn
from memory.errors import RecallError

log = logging.getLogger(__name__)
DEFAULT_PATH = Path(__file__).with_name("durable_classifier.npz")


class ClassifierUnavailable(RecallError):
    """The shipped classifier file is missing, unreadable or stale."""


@dataclass(frozen=True)
class DurableClassifier:
    feature_weights: np.ndarray  # one per FEATURE_NAMES entry
    embedding_weights: np.ndarray  # one per embedding dimension
    bias: float
    threshold: float  # probability at or above which a turn is kept
    model: str  # the embedder the weights were fit on

    @classmethod
    def load(cls, path: Path = DEFAULT_PATH) -> DurableClassifier:
        try:
            with np.load(path, allow_pickle=False) as data:
                names = [str(n) for n in data["feature_names"]]
                loaded = cls(
                    np.asarray(data["feature_weights"], dtype=np.float64),
                    np.asarray(data["embedding_weights"], dtype=np.float64),
                    float(data["bias"]),
                    float(data["threshold"]),
                    str(data["model"]),
                )
        except (OSError, KeyError, ValueError) as exc:
            raise ClassifierUnavailable(
                f"{path}: cannot read the capture classifier ({exc}); "
                "re-train it with `python -m benchmarks.train_capture`"
            ) from exc
        if names != FEATURE_NAMES:
            raise ClassifierUnavailable(
                f"{path}: fit on other features than memory/encode/capture_features.py defines; "
                "re-train it with `python -m benchmarks.train_capture`"
            )
        return loaded

    def save(self, path: Path) -> None:
        np.savez(
            path,
            feature_names=np.array(FEATURE_NAMES),
            feature_weights=self.feature_weights.astype(np.float32),
            embedding_weights=self.embedding_weights.astype(np.float32),
            bias=np.float64(self.bias),
            threshold=np.float64(self.threshold),
            model=np.array(self.model),
        )

    def probabilities(self, features: np.ndarray, vectors: np.ndarray) -> np.ndarray:
        """P(durable) per row of `features` (FEATURE_NAMES columns) and `vectors`."""
        logits = features @ self.feature_weights + vectors @ self.embedding_weights + self.bias
        return np.asarray(1.0 / (1.0 + np.exp(-logits)))


class EmbeddingScorer:
    """Scores prepared turns with the classifier and `embedder` (a warm model)."""

    def __init__(self, classifier: DurableClassifier, embedder: Embedder) -> None:
        self.classifier = classifier
        self.embedder = embedder
        self.threshold = classifier.threshold

    def __call__(self, turns: Sequence[PreparedTurn]) -> list[float]:
        if not turns:
            return []
        features = np.array([featurize(t.body, t.asked) for t in turns], dtype=np.float64)
        vectors = self.embedder.encode([t.body for t in turns]).astype(np.float64)
        return [float(p) for p in self.classifier.probabilities(features, vectors)]


_SHIPPED: dict[Path, DurableClassifier | None] = {}


def shipped_classifier(path: Path = DEFAULT_PATH) -> DurableClassifier | None:
    """The classifier shipped next to this module, loaded once; None (and one
    warning) when it is missing or stale, so capture falls back on the rules."""
    if path not in _SHIPPED:
        try:
            _SHIPPED[path] = DurableClassifier.load(path)
        except ClassifierUnavailable as exc:
            log.warning("%s; capturing with the rules alone", exc)
            _SHIPPED[path] = None
    return _SHIPPED[path]
