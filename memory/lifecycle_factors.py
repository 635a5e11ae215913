"""Seed 001's scoring mechanisms as factors of our lifecycle (pure functions).

Evergreen memories never decay (strength 1.0, so prune never archives them);
path patterns scale salience; appearances in results and links from periodic
notes multiply the score. Inputs are plain values; no file, clock or env here.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from fnmatch import fnmatchcase
from functools import lru_cache
from typing import Protocol

from memory.config import MemoryConfig
from memory.decay import strength_at
from vault.errors import VaultError


class StrengthFields(Protocol):
    """What strength needs from a manifest row (the catalog's or the reader's)."""

    @property
    def path(self) -> str: ...
    @property
    def kind(self) -> str: ...
    @property
    def tier(self) -> str: ...
    @property
    def stability(self) -> float | None: ...
    @property
    def salience(self) -> float: ...
    @property
    def evergreen(self) -> bool: ...


def matches(path: str, patterns: tuple[str, ...]) -> bool:
    """Whether a vault-relative POSIX path matches one of the globs (fnmatch:
    `*` also crosses folders, so `memories/decisions/**` takes every depth)."""
    return any(fnmatchcase(path, pattern) for pattern in patterns)


def is_evergreen(path: str, kind: str, flagged: bool, config: MemoryConfig) -> bool:
    """`evergreen: true` in the frontmatter, an evergreen kind, or an evergreen path."""
    return flagged or kind in config.evergreen_kinds or matches(path, config.evergreen_paths)


@lru_cache(maxsize=8)
def salience_patterns(entries: tuple[str, ...]) -> tuple[tuple[str, float], ...]:
    """`glob=factor` settings as (glob, factor) pairs; raises VaultError naming the bad one."""
    pairs = []
    for entry in entries:
        glob, sep, factor = entry.rpartition("=")
        try:
            value = float(factor)
        except ValueError:
            value = -1.0
        if not sep or not glob or value <= 0:
            raise VaultError(
                f"salience_paths: {entry!r} must be glob=factor with a positive factor "
                "(e.g. memories/core/**=3); fix config.toml or VAULT_SALIENCE_PATHS"
            )
        pairs.append((glob, value))
    return tuple(pairs)


def path_salience(path: str, salience: float, config: MemoryConfig) -> float:
    """The frontmatter salience times the largest factor of the path patterns it matches."""
    factors = [f for glob, f in salience_patterns(config.salience_paths) if fnmatchcase(path, glob)]
    return salience * max(factors) if factors else salience


def lifecycle_strength(
    row: StrengthFields, now: datetime, config: MemoryConfig, last_access: datetime
) -> float:
    """A memory's strength at `now` with the evergreen and salience rules: the one
    place recall, prune, the keyword fallback and the briefing get it from."""
    if is_evergreen(row.path, row.kind, row.evergreen, config):
        return 1.0
    salience = path_salience(row.path, row.salience, config)
    return strength_at(last_access, row.stability, row.tier, now, config, salience)


@dataclass(frozen=True)
class RecordFields:
    """StrengthFields of a memory read from its file rather than the catalog."""

    path: str
    kind: str
    tier: str
    stability: float | None
    salience: float
    evergreen: bool


def appearance_factor(appearances: int, config: MemoryConfig) -> float:
    """Retrieval strengthening: 1 + boost per appearance in the window, capped."""
    return 1.0 + min(config.appearance_max_boost, config.appearance_boost * max(0, appearances))


def periodic_factor(levels: int, config: MemoryConfig) -> float:
    """Consolidation bonus: 1 + bonus per periodic level (weekly..yearly) linking it, capped."""
    return 1.0 + min(config.periodic_max_bonus, config.periodic_bonus * max(0, levels))
