"""The memory model's numbers in one frozen object.

The defaults live in one place, `vault.config.DEFAULTS` (the same table that
writes the commented config.toml); this object only gives them types.
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from typing import Any

from vault.config import Settings


@dataclass(frozen=True)
class MemoryConfig:
    episodic_base_stability: float
    semantic_base_stability: float
    curated_base_stability: float
    reinforce_factor: float
    confirm_factor: float
    cap_multiplier: float
    retrieval_floor: float
    archive_floor: float
    prune_curated: bool
    min_similarity: float
    min_cosine: float
    confident_bar: float
    confident_cosine: float
    activated_bar: float
    hedged_cosine: float
    hedged_gap: float
    cue_bar: float
    cold_bar: float
    project_boost: float
    topic_boost: float
    confidence_weight: float
    link_bar: float
    links_max: int
    link_spread: float
    session_spread: float
    session_back_spread: float
    session_window: int
    topic_bar: float
    evergreen_paths: tuple[str, ...]
    evergreen_kinds: tuple[str, ...]
    salience_paths: tuple[str, ...]
    appearance_boost: float
    appearance_window_days: float
    appearance_max_boost: float
    periodic_bonus: float
    periodic_max_bonus: float

    @classmethod
    def default(cls) -> MemoryConfig:
        from vault.config import load_settings

        return cls.from_settings(load_settings(None, {}))

    @classmethod
    def from_settings(cls, settings: Settings) -> MemoryConfig:
        values: dict[str, Any] = {}
        for f in fields(cls):
            value = settings[f.name]
            values[f.name] = tuple(value) if isinstance(value, list) else value  # frozen
        return cls(**values)

    def base_stability(self, tier: str) -> float:
        return {
            "episodic": self.episodic_base_stability,
            "semantic": self.semantic_base_stability,
        }.get(tier, self.curated_base_stability)

    def stability_cap(self, tier: str) -> float:
        return self.base_stability(tier) * self.cap_multiplier
