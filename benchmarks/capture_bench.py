"""What capture keeps from a person's turns, on the labelled capture set (data/README.md):
precision, recall overall and per kind, noise rate and ms per turn for the rules alone,
the classifier fit on one half and reported on the other (both ways), leave-sessions-out
CV over both halves, and the shipped classifier.
Run: .venv/bin/python -m benchmarks.capture_bench"""

from __future__ import annotations

import argparse
import os
import time
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from itertools import groupby

import numpy as np

from benchmarks.capture_training import (
    HALVES,
    LabelledTurn,
    TurnTable,
    fit,
    load_turns,
    session_folds,
    table,
)
from indexer.embedder import Embedder, SentenceTransformerEmbedder
from memory.encode.durable_classifier import DurableClassifier, EmbeddingScorer, shipped_classifier
from memory.encode.extract import RuleScorer, Scorer, Statement, extract

DURABLE_KINDS = ("preference", "decision", "convention", "fact", "prohibition", "correction")


class RememberingEmbedder:
    """Wraps an embedder; a text it has encoded once is not encoded again."""

    def __init__(self, inner: Embedder) -> None:
        self.inner = inner
        self.name = inner.name
        self.dimension = inner.dimension
        self.known: dict[str, np.ndarray] = {}

    def encode(self, texts: Sequence[str]) -> np.ndarray:
        missing = [t for t in dict.fromkeys(texts) if t not in self.known]
        if missing:
            self.known.update(zip(missing, self.inner.encode(missing), strict=True))
        return np.array([self.known[t] for t in texts], dtype=np.float32)


@dataclass
class Run:
    turns: list[LabelledTurn]
    captured: list[bool] = field(default_factory=list)
    memories: list[tuple[LabelledTurn, Statement]] = field(default_factory=list)
    seconds: float = 0.0


def run(turns: list[LabelledTurn], scorer: Scorer) -> Run:
    """Each session's user turns through extract(), the call capture makes."""
    result = Run(turns)
    started = time.perf_counter()
    for _, group in groupby(turns, key=lambda t: t.session):
        session = list(group)
        statements = extract([("user", t.text) for t in session], scorer=scorer)
        hit = {s.turn for s in statements}
        result.captured += [i in hit for i in range(len(session))]
        result.memories += [(session[s.turn], s) for s in statements]
    result.seconds = time.perf_counter() - started
    return result


def summary(result: Run) -> dict[str, object]:
    durable = [t.durable for t in result.turns]
    kept = [c for c, d in zip(result.captured, durable, strict=True) if d]
    wrong = [
        t.kind for t, c in zip(result.turns, result.captured, strict=True) if c and not t.durable
    ]
    captured = sum(result.captured)
    by_kind = {
        kind: (
            sum(
                c
                for t, c in zip(result.turns, result.captured, strict=True)
                if t.durable and t.kind == kind
            ),
            sum(t.durable and t.kind == kind for t in result.turns),
        )
        for kind in DURABLE_KINDS
    }
    durable_memories = [(t, s) for t, s in result.memories if t.durable]
    return {
        "precision": (captured - len(wrong)) / captured if captured else 1.0,
        "recall": sum(kept) / len(kept),
        "noise": sum(not t.durable for t, _ in result.memories) / max(len(result.memories), 1),
        "by_kind": by_kind,
        "wrongly_kept": Counter(wrong),
        "kind_agreement": sum(t.kind == s.kind for t, s in durable_memories)
        / max(len(durable_memories), 1),
        "ms_per_turn": 1000 * result.seconds / len(result.turns),
    }


def show(title: str, figures: dict[str, object]) -> None:
    kinds = figures["by_kind"]
    assert isinstance(kinds, dict)
    print(f"\n{title}")
    print(
        f"  precision {figures['precision']:.3f}  recall {figures['recall']:.3f}  "
        f"noise {figures['noise']:.3f}  kind given right {figures['kind_agreement']:.2f}  "
        f"{figures['ms_per_turn']:.1f} ms/turn"
    )
    print(
        "  recall by kind: "
        + "  ".join(f"{k} {a}/{b} ({a / b:.2f})" for k, (a, b) in kinds.items())
    )
    wrong = figures["wrongly_kept"]
    assert isinstance(wrong, Counter)
    if wrong:
        print("  transient turns kept: " + ", ".join(f"{k} {n}" for k, n in sorted(wrong.items())))


def cross_validated(data: TurnTable, embedder: Embedder) -> tuple[Run, list[float]]:
    """Leave-sessions-out over both halves; each fold fits weights and threshold
    on the other sessions only."""
    captured = [False] * len(data.turns)
    memories = []
    thresholds = []
    seconds = 0.0
    for held in session_folds(data):
        classifier = fit(data.subset(~held), embedder.name)
        thresholds.append(classifier.threshold)
        result = run(data.subset(held).turns, EmbeddingScorer(classifier, embedder))
        for position, kept in zip(np.flatnonzero(held), result.captured, strict=True):
            captured[position] = kept
        memories += result.memories
        seconds += result.seconds
    return Run(data.turns, captured, memories, seconds), thresholds


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.parse_args()
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    model = SentenceTransformerEmbedder()
    model.encode(["warm up"])
    halves = {name: load_turns([path]) for name, path in HALVES.items()}
    everything = halves["A"] + halves["B"]
    sessions = len({t.session for t in everything})
    durable = sum(t.durable for t in everything)
    print(f"capture set: {len(everything)} user turns, {durable} durable, {sessions} sessions")
    cold = run(everything, EmbeddingScorer(shipped_or_exit(), model))
    embedder = RememberingEmbedder(model)
    tables = {name: table(turns, embedder) for name, turns in halves.items()}
    for name, turns in halves.items():
        show(f"rules alone (no model), half {name}", summary(run(turns, RuleScorer())))
    for train, test in (("A", "B"), ("B", "A")):
        classifier = fit(tables[train], model.name)
        figures = summary(run(halves[test], EmbeddingScorer(classifier, embedder)))
        show(
            f"held apart: fit on {train}, reported on {test} (threshold {classifier.threshold})",
            figures,
        )
    both = table(everything, embedder)
    result, thresholds = cross_validated(both, embedder)
    folds = f"{len(thresholds)} folds, thresholds {min(thresholds)}-{max(thresholds)}"
    show(f"leave-sessions-out CV over both halves ({folds})", summary(result))
    shipped = shipped_or_exit()
    in_sample = f"fit on them: in-sample; threshold {shipped.threshold}"
    show(
        f"shipped classifier on both halves ({in_sample})",
        summary(run(everything, EmbeddingScorer(shipped, embedder))),
    )
    print(
        f"\ncost, first pass through the real scorer (embedding each turn): "
        f"{1000 * cold.seconds / len(everything):.1f} ms per turn over {len(everything)} turns"
    )


def shipped_or_exit() -> DurableClassifier:
    shipped = shipped_classifier()
    if shipped is None:
        raise SystemExit("no shipped classifier: run python -m benchmarks.train_capture first")
    return shipped


if __name__ == "__main__":
    main()
