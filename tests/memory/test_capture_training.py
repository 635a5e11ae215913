"""Fitting the capture classifier (benchmarks/capture_training.py): the rules'
signs hold, the file round-trips without pickle, the threshold favours precision."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from benchmarks.capture_training import (
    HALVES,
    choose_threshold,
    fit_weights,
    load_turns,
    probabilities,
    table,
)
from indexer.embedder import Embedder
from memory.encode.capture_features import PRIORS
from memory.encode.durable_classifier import DurableClassifier


@pytest.mark.model
def test_a_fit_keeps_the_rules_signs_and_round_trips(embedder: Embedder, tmp_path: Path) -> None:
    turns = [t for t in load_turns([HALVES["A"]]) if t.session <= "A-s04"]
    data = table(turns, embedder)
    classifier = fit_weights(data, embedder.name, threshold=0.6)
    priors = np.array(PRIORS)
    assert (classifier.feature_weights[priors > 0] >= 0).all()
    assert (classifier.feature_weights[priors < 0] <= 0).all()
    assert np.abs(classifier.embedding_weights).sum() > 0
    scores = probabilities(classifier, data)
    assert scores[data.labels].mean() > scores[~data.labels].mean() + 0.4
    classifier.save(tmp_path / "fit.npz")
    loaded = DurableClassifier.load(tmp_path / "fit.npz")
    np.testing.assert_allclose(loaded.feature_weights, classifier.feature_weights, rtol=1e-6)
    assert (loaded.threshold, loaded.model) == (0.6, embedder.name)


def test_the_threshold_is_the_lowest_that_reaches_the_precision_target() -> None:
    labels = np.array([True] * 14 + [False] * 6)
    scores = np.array([0.9] * 14 + [0.55, 0.6, 0.62, 0.3, 0.2, 0.1])
    assert choose_threshold(labels, scores) == 0.61  # 14 of 15 kept: 0.933
    assert choose_threshold(labels, np.where(labels, 0.9, 0.1)) == 0.5
    assert choose_threshold(labels, np.full(20, 0.99)) == 0.95
