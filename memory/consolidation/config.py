"""Consolidation's numbers: the `[consolidation]` settings (declared, typed and
checked in vault.config.Settings), picked out for the pure planner."""

from __future__ import annotations

from dataclasses import dataclass

from vault.config import Settings


@dataclass(frozen=True)
class ConsolidationConfig:
    consolidate_every_days: float
    consolidate_min_memories: int
    merge_maturity: int
    merge_bar: float
    dedupe_cosine: float
    contradiction_cosine: float
    interference_factor: float
    gist_after_days: float
    gist_min_sentences: int
    pattern_min_memories: int
    salience_learn_after: int
    auto_retire_limit: int
    auto_retire_share: float
    auto_supersede: bool
    auto_merge: bool

    @classmethod
    def from_settings(cls, settings: Settings) -> ConsolidationConfig:
        return cls(
            consolidate_every_days=settings.consolidate_every_days,
            consolidate_min_memories=settings.consolidate_min_memories,
            auto_retire_limit=settings.auto_retire_limit,
            auto_retire_share=settings.auto_retire_share,
            auto_supersede=settings.auto_supersede,
            auto_merge=settings.auto_merge,
            merge_maturity=settings.merge_maturity,
            merge_bar=settings.merge_bar,
            dedupe_cosine=settings.dedupe_cosine,
            contradiction_cosine=settings.contradiction_cosine,
            interference_factor=settings.interference_factor,
            gist_after_days=settings.gist_after_days,
            gist_min_sentences=settings.gist_min_sentences,
            pattern_min_memories=settings.pattern_min_memories,
            salience_learn_after=settings.salience_learn_after,
        )
