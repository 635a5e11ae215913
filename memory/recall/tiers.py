"""Which recall tier a match belongs to (pure).

- confident: similarity x strength x boosts >= confident bar, and the memory
  means what the query asks (its own cosine >= confident cosine), not only
  shares words with it; stated as fact and reinforced automatically.
- activated: the score clears the activated bar, or the memory is faint (under
  the retrieval floor, above the archive floor) but the cue matches it strongly
  on similarity alone ("rings a bell"). Offered with a hedge, never reinforced
  until the person confirms it.
"""

from __future__ import annotations

from typing import Literal

from memory.config import MemoryConfig

Tier = Literal["confident", "activated"]


def score(similarity: float, strength: float, boost: float = 1.0) -> float:
    return similarity * strength * boost


def classify(
    similarity: float, strength: float, boost: float, config: MemoryConfig, *, cosine: float
) -> Tier | None:
    """`similarity` is the fused (hybrid) one; `cosine` the memory's own meaning
    match (0 when unknown, as without the model: then nothing is confident)."""
    if strength < config.archive_floor:
        return None
    value = score(similarity, strength, boost)
    if (
        value >= config.confident_bar
        and strength >= config.retrieval_floor
        and cosine >= config.confident_cosine
    ):
        return "confident"
    if value >= config.activated_bar and similarity >= config.min_similarity:
        return "activated"
    if strength < config.retrieval_floor and similarity >= config.cue_bar:
        return "activated"
    return None


def why(
    similarity: float, strength: float, boost: float, config: MemoryConfig, *, cosine: float
) -> str:
    """One line for --explain."""
    tier = classify(similarity, strength, boost, config, cosine=cosine)
    value = score(similarity, strength, boost)
    base = (
        f"similarity {similarity:.3f} x strength {strength:.3f} x boost {boost:.2f} = {value:.3f}"
    )
    if tier == "confident":
        return f"{base} >= confident bar {config.confident_bar}"
    if tier == "activated" and value >= config.confident_bar and strength >= config.retrieval_floor:
        return (
            f"{base} >= confident bar, but cosine {cosine:.3f} < {config.confident_cosine}: "
            "shares words more than meaning, so only might be related"
        )
    if tier == "activated" and value >= config.activated_bar:
        return f"{base} >= activated bar {config.activated_bar}"
    if tier == "activated":
        return f"{base}; faint memory, but similarity >= cue bar {config.cue_bar} (rings a bell)"
    return f"{base}; below every bar"
