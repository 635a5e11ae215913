"""Consolidation's numbers, typed from the settings (defaults live in
vault.config.DEFAULTS, the `[consolidation]` table)."""

from __future__ import annotations

from dataclasses import dataclass, fields

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

    @classmethod
    def from_settings(cls, settings: Settings) -> ConsolidationConfig:
        return cls(**{f.name: settings[f.name] for f in fields(cls)})
