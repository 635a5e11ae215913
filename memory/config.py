"""The memory model's numbers in one frozen object (defaults: ARCHITECTURE.md)."""

from __future__ import annotations

from dataclasses import dataclass, fields

from vault import Settings


@dataclass(frozen=True)
class MemoryConfig:
    episodic_base_stability: float = 7.0
    semantic_base_stability: float = 90.0
    curated_base_stability: float = 365.0
    reinforce_factor: float = 1.5
    confirm_factor: float = 2.5
    cap_multiplier: float = 10.0
    retrieval_floor: float = 0.1
    archive_floor: float = 0.02
    prune_curated: bool = False
    min_similarity: float = 0.3
    confident_bar: float = 0.35
    activated_bar: float = 0.15
    cue_bar: float = 0.25
    cold_bar: float = 0.6
    project_boost: float = 1.3
    topic_boost: float = 1.2

    @classmethod
    def from_settings(cls, settings: Settings) -> MemoryConfig:
        return cls(**{f.name: settings[f.name] for f in fields(cls)})

    def base_stability(self, tier: str) -> float:
        return {
            "episodic": self.episodic_base_stability,
            "semantic": self.semantic_base_stability,
        }.get(tier, self.curated_base_stability)

    def stability_cap(self, tier: str) -> float:
        return self.base_stability(tier) * self.cap_multiplier
