"""The memory model's numbers in one frozen object: the part of the settings
the pure functions (decay, tiers, spreading, filing, linking) take.

Each field is a setting declared, typed and checked in vault.config.Settings;
this object only picks them out by name (mypy holds each field to the setting's
declared type) and can be `replace`d (the benchmarks' calibration).
"""

from __future__ import annotations

from dataclasses import dataclass

from vault.config import Settings


@dataclass(frozen=True)
class MemoryConfig:
    episodic_base_stability: float
    semantic_base_stability: float
    curated_base_stability: float
    status_stability: float
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
        return cls(
            episodic_base_stability=settings.episodic_base_stability,
            semantic_base_stability=settings.semantic_base_stability,
            curated_base_stability=settings.curated_base_stability,
            status_stability=settings.status_stability,
            reinforce_factor=settings.reinforce_factor,
            confirm_factor=settings.confirm_factor,
            cap_multiplier=settings.cap_multiplier,
            retrieval_floor=settings.retrieval_floor,
            archive_floor=settings.archive_floor,
            prune_curated=settings.prune_curated,
            min_similarity=settings.min_similarity,
            min_cosine=settings.min_cosine,
            confident_bar=settings.confident_bar,
            confident_cosine=settings.confident_cosine,
            hedged_cosine=settings.hedged_cosine,
            hedged_gap=settings.hedged_gap,
            activated_bar=settings.activated_bar,
            cue_bar=settings.cue_bar,
            cold_bar=settings.cold_bar,
            project_boost=settings.project_boost,
            topic_boost=settings.topic_boost,
            confidence_weight=settings.confidence_weight,
            link_bar=settings.link_bar,
            links_max=settings.links_max,
            link_spread=settings.link_spread,
            session_spread=settings.session_spread,
            session_back_spread=settings.session_back_spread,
            session_window=settings.session_window,
            topic_bar=settings.topic_bar,
            evergreen_paths=settings.evergreen_paths,
            evergreen_kinds=settings.evergreen_kinds,
            salience_paths=settings.salience_paths,
            appearance_boost=settings.appearance_boost,
            appearance_window_days=settings.appearance_window_days,
            appearance_max_boost=settings.appearance_max_boost,
            periodic_bonus=settings.periodic_bonus,
            periodic_max_bonus=settings.periodic_max_bonus,
        )

    def base_stability(self, tier: str) -> float:
        return {
            "episodic": self.episodic_base_stability,
            "semantic": self.semantic_base_stability,
        }.get(tier, self.curated_base_stability)

    def stability_cap(self, tier: str) -> float:
        return self.base_stability(tier) * self.cap_multiplier
