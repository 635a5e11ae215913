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
) -> list[Scored]:
    """The see-also memories of `hits` (not themselves hits). `admit` gives a
    memory's strength, or None to leave it out (archived, excluded, too weak)."""
    shares: dict[str, tuple[float, Scored, str]] = {}
    taken = {item.id for item in hits}
    temporal = config.session_spread > 0 or config.session_back_spread > 0
    for item in hits:
        hit_row = item.candidate.row
        sources = [(t, config.link_spread, "linked from") for t in link_targets(hit_row.links)]
        if temporal:
            sources += [
                (target, session_share(config, offset), "same session as")
                for target, offset in index.session_neighbours(hit_row, config.session_window)
            ]
        for target, share, relation in sources:
            if share <= 0 or target in taken:
                continue
            value = item.score * share
            if value > shares.get(target, (-1.0, item, ""))[0]:
                shares[target] = (value, item, relation)
    rows = index.rows_for(shares) if shares else {}
    found = []
    for target, (value, parent, relation) in shares.items():
        row = rows.get(target)
        current = admit(row) if row is not None else None
        if row is None or current is None:
            continue
        candidate = Candidate(row, parent.candidate.similarity, 0.0, 0.0)
        note = f"see also: {relation} {parent.id} ({value / parent.score:.2f} x its score)"
        found.append(Scored(value, current, candidate, via=parent.id, note=note))
    return found
