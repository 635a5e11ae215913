"""What the prompt hook shows of a recall's tiers: memories with evidence of
their own, not whatever fits the budget. Pure: takes the tiers and the bars.

A confident memory is shown when the tiers call it confident (up to
`confident_max`). A hedged one only when it is itself likely to be relevant: its
own meaning match clears `hedged_cosine` and its fused similarity lies within
`hedged_gap` of the prompt's best match;
at most `hedged_max` of them. Memories in `seen` (shown earlier in the session,
or near-duplicates of those) are left out. Nothing clears: nothing is shown.
"""

from __future__ import annotations

from collections.abc import Collection

from memory.config import MemoryConfig
from memory.results import Associative, Hit


def worth_showing(
    tiers: Associative, config: MemoryConfig, confident_max: int, hedged_max: int,
    seen: Collection[str] = (),
) -> Associative:  # fmt: skip
    """The tiers cut to what has evidence (see-also memories are not shown)."""
    confident = [hit for hit in tiers.confident if hit.id not in seen][: max(0, confident_max)]
    best = max((hit.similarity for hit in tiers.confident + tiers.activated), default=0.0)
    hedged = [
        hit for hit in tiers.activated if hit.id not in seen and is_evidence(hit, best, config)
    ]
    return Associative(confident, hedged[: max(0, hedged_max)], [])


def is_evidence(hit: Hit, best: float, config: MemoryConfig) -> bool:
    """A hedged memory likely to be relevant by itself, not only the leftover."""
    return hit.cosine >= config.hedged_cosine and hit.similarity >= best - config.hedged_gap
