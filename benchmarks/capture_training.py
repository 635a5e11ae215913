"""Fitting the capture classifier: a logistic regression whose feature weights start
from the rules' priors and keep their signs, plus free weights on the embedding, solved
by accelerated projected gradient in numpy. The threshold is the lowest at which a
leave-sessions-out fit on the training turns reaches TARGET_PRECISION, never under 0.5
(a margin that favours precision)."""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from indexer.embedder import Embedder
from memory.encode.capture_features import FEATURE_NAMES, PRIORS, featurize
from memory.encode.durable_classifier import DurableClassifier
from memory.encode.turn_text import PreparedTurn, prepare

DATA = Path(__file__).resolve().parent / "data"
HALVES = {"A": DATA / "capture_set_A.jsonl", "B": DATA / "capture_set_B.jsonl"}
C = 0.3  # inverse strength of the pull towards the priors (and of embeddings towards 0)
EMBEDDING_SCALE = 2.0  # embeddings are unit length; this puts them on the features' scale
TARGET_PRECISION, THRESHOLD_FLOOR = 0.93, 0.5
CV_FOLDS = 7


@dataclass(frozen=True)
class LabelledTurn:
    id: str
    session: str
    text: str
    durable: bool
    kind: str


@dataclass
class TurnTable:
    """The labelled turns with what the classifier sees of each; `prepared` is
    None where the rules drop the turn before scoring (opt-out, output, question)."""

    turns: list[LabelledTurn]
    prepared: list[PreparedTurn | None]
    features: np.ndarray  # rows for every turn (zeros where prepared is None)
    vectors: np.ndarray

    @property
    def labels(self) -> np.ndarray:
        return np.array([t.durable for t in self.turns])

    @property
    def scored(self) -> np.ndarray:
        return np.array([p is not None for p in self.prepared])

    def subset(self, mask: np.ndarray) -> TurnTable:
        keep = np.flatnonzero(mask)
        return TurnTable(
            [self.turns[i] for i in keep],
            [self.prepared[i] for i in keep],
            self.features[keep],
            self.vectors[keep],
        )


def load_turns(paths: Sequence[Path]) -> list[LabelledTurn]:
    turns = []
    for path in paths:
        for line in path.read_text(encoding="utf-8").splitlines():
            row = json.loads(line)
            durable = row["label"] == "durable"
            turns.append(LabelledTurn(row["id"], row["session"], row["text"], durable, row["kind"]))
    return turns


def table(turns: list[LabelledTurn], embedder: Embedder) -> TurnTable:
    prepared = [prepare(t.text) for t in turns]
    features = np.zeros((len(turns), len(FEATURE_NAMES)))
    bodies = {i: p.body for i, p in enumerate(prepared) if p is not None}
    for i, p in enumerate(prepared):
        if p is not None:
            features[i] = featurize(p.body, p.asked)
    vectors = np.zeros((len(turns), embedder.dimension))
    if bodies:
        vectors[list(bodies)] = embedder.encode(list(bodies.values()))
    return TurnTable(turns, prepared, features, vectors)


def _solve(design: np.ndarray, labels: np.ndarray, start: np.ndarray, lower: np.ndarray,
           upper: np.ndarray, penalty: np.ndarray, steps: int = 3000) -> np.ndarray:  # fmt: skip
    """min sum(logloss) + 0.5 * sum(penalty * (w - start)^2) within [lower, upper],
    by FISTA; the last column of `design` is the bias (penalty 0, unbounded)."""
    lipschitz = 0.25 * np.linalg.norm(design, 2) ** 2 + penalty.max()
    weights = momentum = np.clip(start, lower, upper)
    pace = 1.0
    for _ in range(steps):
        probabilities = 1.0 / (1.0 + np.exp(-(design @ momentum)))
        gradient = design.T @ (probabilities - labels) + penalty * (momentum - start)
        updated = np.clip(momentum - gradient / lipschitz, lower, upper)
        next_pace = (1 + np.sqrt(1 + 4 * pace * pace)) / 2
        momentum = updated + ((pace - 1) / next_pace) * (updated - weights)
        weights, pace = updated, next_pace
    return np.asarray(weights, dtype=np.float64)


def fit_weights(
    data: TurnTable, model: str, threshold: float = THRESHOLD_FLOOR
) -> DurableClassifier:
    rows = data.subset(data.scored)
    n_features, n_dims = rows.features.shape[1], rows.vectors.shape[1]
    design = np.hstack(
        [rows.features, EMBEDDING_SCALE * rows.vectors, np.ones((len(rows.turns), 1))]
    )
    priors = np.array(PRIORS, dtype=np.float64)
    start = np.concatenate([priors, np.zeros(n_dims + 1)])
    lower = np.concatenate([np.where(priors > 0, 0.0, -np.inf), np.full(n_dims + 1, -np.inf)])
    upper = np.concatenate([np.where(priors < 0, 0.0, np.inf), np.full(n_dims + 1, np.inf)])
    penalty = np.concatenate([np.full(n_features + n_dims, 1.0 / C), [0.0]])
    weights = _solve(design, rows.labels.astype(np.float64), start, lower, upper, penalty)
    return DurableClassifier(
        weights[:n_features],
        EMBEDDING_SCALE * weights[n_features:-1],
        float(weights[-1]),
        threshold,
        model,
    )


def probabilities(classifier: DurableClassifier, data: TurnTable) -> np.ndarray:
    """P(durable) per turn; 0 where the rules drop the turn before scoring."""
    scores = classifier.probabilities(data.features, data.vectors)
    return np.where(data.scored, scores, 0.0)


def session_folds(data: TurnTable, folds: int = CV_FOLDS) -> list[np.ndarray]:
    """Masks of held-out turns, whole sessions at a time, sessions dealt in turn."""
    sessions = sorted({t.session for t in data.turns})
    fold_of = {s: i % folds for i, s in enumerate(sessions)}
    return [np.array([fold_of[t.session] == k for t in data.turns]) for k in range(folds)]


def out_of_fold(data: TurnTable, model: str, folds: int = CV_FOLDS) -> np.ndarray:
    """Each turn's probability from a fit that did not see its session."""
    scores = np.zeros(len(data.turns))
    for held in session_folds(data, folds):
        classifier = fit_weights(data.subset(~held), model)
        scores[held] = probabilities(classifier, data.subset(held))
    return scores


def choose_threshold(labels: np.ndarray, scores: np.ndarray) -> float:
    for hundredths in range(round(100 * THRESHOLD_FLOOR), 96):
        kept = scores >= hundredths / 100
        if kept.any() and labels[kept].mean() >= TARGET_PRECISION:
            return hundredths / 100
    return 0.95


def fit(data: TurnTable, model: str) -> DurableClassifier:
    """The classifier fit on every turn of `data`, its threshold from session CV."""
    threshold = choose_threshold(data.labels, out_of_fold(data, model))
    return fit_weights(data, model, threshold)
