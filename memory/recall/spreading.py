"""Spreading activation: a recall hit brings related memories along as "see also".

Two kinds of association (seeds 000 and 003): the memories a hit links to, and
the memory said right after it in the same session (temporal contiguity, with
the forward bias memory research finds). Each joins with a share of the hit's
score, so it never outranks the hit that brought it.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from indexer.catalog import ManifestRow
from indexer.index import Candidate, VaultIndex
from memory.config import MemoryConfig
from vault.links import link_targets


@dataclass(frozen=True)
class Scored:
    """A ranked candidate before it becomes a Hit (texts are read for the winners only)."""

    score: float
    strength: float
    candidate: Candidate
    via: str = ""  # see-also: the memory whose score it shares
    note: str = ""

    @property
    def id(self) -> str:
        return self.candidate.row.id


def session_share(config: MemoryConfig, offset: int) -> float:
    """The share of a hit's score for the memory `offset` places after it in its
    session (negative: before it); shares shrink with distance."""
    share = config.session_spread if offset > 0 else config.session_back_spread
    return share / abs(offset)


def spread(
    hits: list[Scored],
    index: VaultIndex,
    config: MemoryConfig,
    admit: Callable[[ManifestRow], float | None],
    limit: int,
) -> list[Scored]:
    """The best `limit` see-also memories of `hits` (not themselves hits), best
    first. `admit` gives a memory's strength, or None to leave it out (archived,
    excluded, too weak). Rows are read best share first, only as far as needed."""
    shares: dict[str, tuple[float, Scored, str]] = {}
    taken = {item.id for item in hits}
    temporal = config.session_spread > 0 or config.session_back_spread > 0
    around = (
        index.session_neighbours([item.candidate.row for item in hits], config.session_window)
        if temporal
        else {}
    )
    for item in hits:
        hit_row = item.candidate.row
        sources = [(t, config.link_spread, "linked from") for t in link_targets(hit_row.links)]
        sources += [
            (target, session_share(config, offset), "same session as")
            for target, offset in around.get(hit_row.id, [])
        ]
        for target, share, relation in sources:
            if share <= 0 or target in taken:
                continue
            value = item.score * share
            if value > shares.get(target, (-1.0, item, ""))[0]:
                shares[target] = (value, item, relation)
    order = sorted(shares, key=lambda target: shares[target][0], reverse=True)
    found: list[Scored] = []
    step = max(limit, 1)
    for start in range(0, len(order), step):
        rows = index.rows_for(order[start : start + step])
        for target in order[start : start + step]:
            row = rows.get(target)
            current = admit(row) if row is not None else None
            if row is None or current is None:
                continue
            value, parent, relation = shares[target]
            candidate = Candidate(row, parent.candidate.similarity, 0.0, 0.0)
            note = f"see also: {relation} {parent.id} ({value / parent.score:.2f} x its score)"
            found.append(Scored(value, current, candidate, via=parent.id, note=note))
            if len(found) == limit:
                return found
    return found
