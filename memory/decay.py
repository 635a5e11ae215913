"""Strength, reinforcement and consolidation as pure functions.

`strength = exp(-(days_since_access / salience) / stability)`, computed at query
time, never stored. A reinforcement multiplies stability (capped at 10x the
tier's base); an episodic memory at its cap becomes semantic with the semantic
base stability. No file, clock or environment is read here.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from datetime import datetime

from memory.config import MemoryConfig

SECONDS_PER_DAY = 86_400.0
MIN_SALIENCE = 0.1  # a damped or zero salience still ages at most 10x as fast


def days_between(earlier: datetime, now: datetime) -> float:
    return max(0.0, (now - earlier).total_seconds() / SECONDS_PER_DAY)


def strength(days_since_access: float, stability: float) -> float:
    return math.exp(-max(0.0, days_since_access) / stability)


def effective_stability(stability: float | None, tier: str, config: MemoryConfig) -> float:
    """The stability on file, or the tier's base when the file has none."""
    return stability or config.base_stability(tier)


def strength_at(
    last_access: datetime,
    stability: float | None,
    tier: str,
    now: datetime,
    config: MemoryConfig,
    salience: float = 1.0,
) -> float:
    """A memory's strength at `now`: the one place the service, the keyword
    fallback and the session briefing get it from. A salient memory ages more
    slowly: its effective age is age / salience (1.0 changes nothing)."""
    age = days_between(last_access, now) / max(salience, MIN_SALIENCE)
    return strength(age, effective_stability(stability, tier, config))


def days_until(threshold: float, stability: float) -> float:
    """Days of silence after which strength falls to `threshold`."""
    return -math.log(threshold) * stability


@dataclass(frozen=True)
class Reinforced:
    stability: float
    tier: str
    consolidated: bool


def reinforce(
    stability: float | None, tier: str, factor: float, config: MemoryConfig
) -> Reinforced:
    current = effective_stability(stability, tier, config)
    cap = config.stability_cap(tier)
    grown = min(current * factor, cap)
    if tier == "episodic" and grown >= cap * (1 - 1e-9):
        return Reinforced(config.semantic_base_stability, "semantic", True)
    return Reinforced(grown, tier, False)
