"""The learned layer over the judge's signals (pure, no numpy): a logistic
regression that says how likely a pair the rules do not call a change is one,
with weights fitted on the labelled pairs and shipped as plain numbers in
pair_model.json (re-fitted by `python -m benchmarks.train_pair_model`, which
chooses the threshold by cross-validation over the pair sets). It scores; the
judge (relations.py) decides.
"""

from __future__ import annotations

import json
import logging
import math
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from memory.consolidation.pair_signals import SIGNAL_NAMES

log = logging.getLogger(__name__)
DEFAULT_PATH = Path(__file__).with_name("pair_model.json")


@dataclass(frozen=True)
class PairModel:
    weights: tuple[float, ...]  # one per SIGNAL_NAMES entry, over the raw signals
    bias: float
    threshold: float  # a change from this probability up

    def probability(self, signals: list[float]) -> float:
        logit = self.bias + sum(w * x for w, x in zip(self.weights, signals, strict=True))
        return 1.0 / (1.0 + math.exp(-logit))

    def to_json(self, about: dict[str, object]) -> str:
        body = {"signals": SIGNAL_NAMES, "weights": [round(w, 6) for w in self.weights],
                "bias": round(self.bias, 6), "threshold": self.threshold, **about}  # fmt: skip
        return json.dumps(body, indent=1) + "\n"


def read_model(path: Path) -> PairModel:
    """The model in `path`; ValueError (or OSError) when it is unreadable or was
    fitted on other signals than pair_signals.py computes."""
    data = json.loads(path.read_text(encoding="utf-8"))
    if not isinstance(data, dict) or data.get("signals") != SIGNAL_NAMES:
        raise ValueError("fitted on other signals than memory/consolidation/pair_signals.py")
    weights, bias, threshold = data.get("weights"), data.get("bias"), data.get("threshold")
    numbers = [*weights, bias, threshold] if isinstance(weights, list) else []
    if len(numbers) != len(SIGNAL_NAMES) + 2 or not all(
        isinstance(n, int | float) for n in numbers
    ):
        raise ValueError("weights, bias and threshold must be numbers, one weight per signal")
    return PairModel(tuple(float(w) for w in numbers[:-2]), float(numbers[-2]), float(numbers[-1]))


@cache
def shipped_model(path: Path = DEFAULT_PATH) -> PairModel | None:
    """The model shipped next to this module, read once; None (and one warning)
    when it is missing or stale: the rules then decide alone."""
    try:
        return read_model(path)
    except (OSError, ValueError) as exc:
        log.warning("%s: cannot read the pair model (%s); judging with the rules alone", path, exc)
        return None
