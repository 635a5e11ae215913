"""Fit the judge's learned layer (memory/consolidation/pair_model.py) on the
labelled pair sets and write memory/consolidation/pair_model.json.

Cross-validation by set: a model fitted on two sets scores the third, for each
set in turn; the regularisation and the threshold are the ones under which the
changes the model adds to the rules' (pairs the rules do not call a change) are
right at least 98 % of the time, pooled over the three held-out scorings, at
this threshold and every higher one; of those the one adding the most right
changes. The shipped weights are then fitted on all the sets. Prints the
cross-set figures of the rules alone and of rules plus the layer.
Run: .venv/bin/python -m benchmarks.train_pair_model
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from benchmarks.consolidation_pairs_bench import item
from indexer.embedder import SentenceTransformerEmbedder
from memory.consolidation.pair_model import DEFAULT_PATH, PairModel
from memory.consolidation.pair_signals import SIGNAL_NAMES, signals
from memory.consolidation.relations import (
    WordWeights,
    replaces_nothing,
    similarity,
    supersedes,
    why_not_one_fact,
)
from memory.consolidation.text import analyse
from vault.config import load_settings

DATA = Path(__file__).parent / "data"
SETS = {"old": "consolidation_pairs.json", "fresh": "consolidation_pairs_fresh.json",
        "fresh2": "consolidation_pairs_fresh2.json"}  # fmt: skip
STRENGTHS = (0.03, 0.1, 0.3, 1.0)  # inverse regularisation C tried
THRESHOLDS = [round(t, 2) for t in np.arange(0.5, 0.99, 0.02)]
PRECISION = 0.98


@dataclass
class Table:
    sets: np.ndarray  # which set each pair is from
    signals: np.ndarray  # SIGNAL_NAMES columns
    change: np.ndarray  # labelled a change
    rules: np.ndarray  # the rules call it a change
    barred: np.ndarray  # a rule says it replaces nothing, or below the bar: no layer there


def table(embedder: SentenceTransformerEmbedder) -> Table:
    bar = load_settings(None, {}).contradiction_cosine
    sets, rows, labels, rules, barred = [], [], [], [], []
    for name, file in SETS.items():
        pairs = json.loads((DATA / file).read_text(encoding="utf-8"))["pairs"]
        texts = sorted({p[side] for p in pairs for side in ("older", "newer")})
        vectors = dict(zip(texts, embedder.encode(texts), strict=True))
        weights = WordWeights(analyse(t).tokens for t in texts)
        for pair in pairs:
            older = item("a", pair["older"], "2025-01-01T00:00:00Z")
            newer = item("b", pair["newer"], "2025-06-01T00:00:00Z")
            cosine = float(vectors[pair["older"]] @ vectors[pair["newer"]])
            alike = similarity(cosine, older.facts, newer.facts, weights)
            ruled = supersedes(older, newer, cosine, bar) is not None
            veto = why_not_one_fact(older, newer) is not None
            sets.append(name)
            rows.append(signals(older.facts, newer.facts, cosine, alike, ruled, veto))
            labels.append(pair["label"] == "change")
            rules.append(ruled)
            barred.append(cosine < bar or bool(replaces_nothing(older.facts, newer.facts)))
    return Table(*(np.array(column) for column in (sets, rows, labels, rules, barred)))


def fit(x: np.ndarray, y: np.ndarray, strength: float) -> PairModel:
    """Logistic regression on standardised signals, as weights over the raw ones."""
    from sklearn.linear_model import LogisticRegression

    mean, scale = x.mean(axis=0), x.std(axis=0)
    scale[scale == 0] = 1.0
    fitted = LogisticRegression(C=strength, max_iter=5000).fit((x - mean) / scale, y)
    weights = fitted.coef_[0] / scale
    bias = float(fitted.intercept_[0] - weights @ mean)
    return PairModel(tuple(float(w) for w in weights), bias, 0.5)


def held_out_scores(data: Table, strength: float) -> np.ndarray:
    """Each pair scored by a model fitted on the other two sets."""
    scores = np.zeros(len(data.sets))
    for name in SETS:
        test = data.sets == name
        model = fit(data.signals[~test], data.change[~test], strength)
        scores[test] = [model.probability(list(row)) for row in data.signals[test]]
    return scores


def added(data: Table, scores: np.ndarray, threshold: float) -> tuple[int, int]:
    """(right, all) of the changes the layer adds to the rules' at `threshold`."""
    extra = (scores >= threshold) & ~data.rules & ~data.barred
    return int((extra & data.change).sum()), int(extra.sum())


def choose(data: Table, scores: np.ndarray) -> float | None:
    """The lowest threshold at which it and every higher one add changes with the
    precision asked for (None: none does)."""
    chosen = None
    for threshold in reversed(THRESHOLDS):
        right, said = added(data, scores, threshold)
        if said and right / said < PRECISION:
            break
        chosen = threshold
    return chosen


def figures(data: Table, said: np.ndarray) -> list[str]:
    shown = []
    for name in SETS:
        part = data.sets == name
        right = int((said & data.change & part).sum())
        total = int((said & part).sum())
        labelled = int((data.change & part).sum())
        shown.append(f"{name} {right / max(1, total):.3f} / {right / labelled:.3f} "
                     f"({right} of {total}, {labelled})")  # fmt: skip
    return shown


def main() -> None:
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    embedder = SentenceTransformerEmbedder()
    data = table(embedder)
    best: tuple[int, float, float, np.ndarray] | None = None
    for strength in STRENGTHS:
        scores = held_out_scores(data, strength)
        threshold = choose(data, scores)
        if threshold is None:
            continue
        right, said = added(data, scores, threshold)
        print(f"C {strength}: threshold {threshold}, adds {right} right of {said} (cross-set)")
        if best is None or right > best[0]:
            best = (right, strength, threshold, scores)
    if best is None:
        raise SystemExit("no threshold adds changes at the precision asked for: keep the rules")
    right, strength, threshold, scores = best
    print("supersede P / R, cross-set, rules alone: " + "; ".join(figures(data, data.rules)))
    union = data.rules | ((scores >= threshold) & ~data.barred)
    print("supersede P / R, cross-set, rules + layer: " + "; ".join(figures(data, union)))
    model = fit(data.signals, data.change, strength)
    shipped = PairModel(model.weights, model.bias, threshold)
    about = {"fitted_on": sorted(SETS.values()), "C": strength, "embedder": embedder.name,
             "cross_set_added": [right, added(data, scores, threshold)[1]]}  # fmt: skip
    DEFAULT_PATH.write_text(shipped.to_json(about), encoding="utf-8")
    strongest = sorted(zip(SIGNAL_NAMES, data.signals.std(axis=0) * np.array(model.weights),
                           strict=True), key=lambda p: -abs(p[1]))  # fmt: skip
    print("strongest signals (weight x spread): "
          + ", ".join(f"{n} {w:+.2f}" for n, w in strongest[:8]))  # fmt: skip
    print(f"wrote {DEFAULT_PATH}")


if __name__ == "__main__":
    main()
