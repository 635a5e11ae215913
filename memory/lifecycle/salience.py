"""Salience at capture on four dimensions (seed 003), each 0-1: novelty, relevance
to the project, emotional wording, prediction error; salience = 0.5 + their
weighted mean. Learned salience: reinforce and confirm (wanted), forget and prune
(not) are signals; after enough, each weight adapts within 0.5-1.5 (.state/).
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Any

from indexer.index import Candidate
from memory.context import ServiceContext
from vault.clock import format_time
from vault.layout import Vault
from vault.schema import MemoryRecord
from vault.state import JsonState

DIMENSIONS = ("novelty", "relevance", "emotion", "prediction_error")
WANTED = {"reinforce": True, "confirm": True, "forget": False, "prune": False}
LOWEST_WEIGHT, HIGHEST_WEIGHT = 0.5, 1.5
GAIN = 2.0  # weight = 1 + GAIN x (mean when wanted - mean when not), clamped
NEUTRAL = 0.5
_EMOTION = re.compile(
    r"\b(love|hate|hated|pain|painful|annoying|annoyed|frustrat\w*|awful|terrible|horrible|"
    r"worst|best|amazing|great|never again|sick of|tired of|upset|angry|critical|urgent|"
    r"important|careful|please|really|always|never)\b|!",
    re.IGNORECASE,
)


def emotion(text: str) -> float:
    """Emotional weight of the wording: 0.25 per marker, at most 1."""
    return min(1.0, 0.25 * len(_EMOTION.findall(text)))


def dimensions(
    text: str, project: str, candidates: list[Candidate], updates_something: bool
) -> dict[str, float]:
    """The four dimensions of a statement, from its nearest active memories."""
    nearest = max((c.cosine for c in candidates), default=0.0)
    own = [c.cosine for c in candidates if project and c.row.project == project]
    return {
        "novelty": round(min(1.0, max(0.0, 1.0 - nearest)), 3),
        "relevance": round(min(1.0, max(0.0, max(own))), 3) if own else NEUTRAL,
        "emotion": round(emotion(text), 3),
        "prediction_error": 1.0 if updates_something else 0.0,
    }


def combine(dims: dict[str, float], weights: dict[str, float]) -> float:
    total = sum(weights.get(d, 1.0) for d in DIMENSIONS)
    mean = sum(weights.get(d, 1.0) * dims.get(d, NEUTRAL) for d in DIMENSIONS) / total
    return round(0.5 + mean, 3)


def _state(vault: Vault) -> JsonState:
    return JsonState(vault.state_dir / "salience.json")


def learned_weights(vault: Vault) -> dict[str, float]:
    weights = _state(vault).read().get("weights")
    if not isinstance(weights, dict):
        return dict.fromkeys(DIMENSIONS, 1.0)
    return {d: float(weights.get(d, 1.0)) for d in DIMENSIONS}


def learning(vault: Vault, learn_after: int) -> dict[str, Any]:
    """What `vault status` shows: signals so far and the weights in use."""
    data = _state(vault).read()
    return {"signals": int(data.get("signals", 0)), "learn_after": learn_after,
            "weights": learned_weights(vault), "updated": data.get("updated")}  # fmt: skip


def record_signal(service: ServiceContext, kind: str, records: Iterable[MemoryRecord]) -> None:
    """Count a reinforce, confirm, forget or prune of memories that carry
    salience dimensions; re-weigh once there are enough signals."""
    wanted = WANTED[kind]
    dims = [r.salience_dims for r in records if r.salience_dims]
    if not dims:
        return
    learn_after = int(service.settings["salience_learn_after"])
    now = format_time(service.clock())

    def change(data: dict[str, Any]) -> None:
        side = data.setdefault("wanted" if wanted else "unwanted", {"count": 0, "sums": {}})
        for values in dims:
            side["count"] += 1
            for d in DIMENSIONS:
                side["sums"][d] = side["sums"].get(d, 0.0) + float(values.get(d, NEUTRAL))
        data["signals"] = int(data.get("signals", 0)) + len(dims)
        if data["signals"] >= learn_after:
            data["weights"] = _weights(data)
            data["updated"] = now

    _state(service.vault).update(change)


def _weights(data: dict[str, Any]) -> dict[str, float]:
    def mean(side: str, dimension: str) -> float:
        entry = data.get(side) or {}
        count = entry.get("count", 0)
        return entry.get("sums", {}).get(dimension, 0.0) / count if count else NEUTRAL

    return {
        d: round(
            min(
                HIGHEST_WEIGHT,
                max(LOWEST_WEIGHT, 1 + GAIN * (mean("wanted", d) - mean("unwanted", d))),
            ),
            3,
        )
        for d in DIMENSIONS
    }
