"""The vault as consolidation sees it: the active memories it may change (curated
notes a person ingested are left alone), each with the facts of its wording
and the vector of its core (stored vectors; a long memory's gist is embedded
here), and the candidate pairs: nearest neighbours within one project.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from indexer.catalog import ManifestRow
from indexer.sync import Progress, Stages
from memory.consolidation.nearest import nearest_pairs
from memory.consolidation.relations import Item, WordWeights, similarity
from memory.consolidation.text import analyse
from memory.context import ServiceContext

if TYPE_CHECKING:
    import numpy as np

Pair = tuple[str, str]
NEIGHBOURS = 30  # candidate pairs per memory
CANDIDATE_COSINE = 0.2  # below this two memories are never compared
READ_BATCH = 500  # bodies read in one query
EMBED_BATCH = 256  # gists embedded in one call (progress between calls)


@dataclass
class Snapshot:
    items: dict[str, Item]
    rows: dict[str, ManifestRow]
    vectors: dict[str, np.ndarray]  # unit vectors of each memory's core wording
    cosines: dict[Pair, float]  # candidate pairs, smaller id first
    similarities: dict[Pair, float]  # 0.7 x cosine + 0.3 x weighted word overlap
    weights: WordWeights

    def cosine(self, a: str, b: str) -> float:
        return self.cosines.get((a, b) if a < b else (b, a), 0.0)


def eligible(row: ManifestRow) -> bool:
    return not row.archived and row.tier != "curated" and not row.superseded_by


@dataclass
class Draft:
    """A snapshot being taken, in steps (the daemon answers prompts in between)."""

    items: dict[str, Item]
    rows: dict[str, ManifestRow]
    vectors: dict[str, np.ndarray]
    unembedded: list[str]  # long memories whose gist is still to be embedded


def take_snapshot(service: ServiceContext, stages: Stages | None = None) -> Snapshot:
    draft = start_snapshot(service, stages("Reading memories") if stages else None)
    embed_gists(service, draft, progress=stages("Embedding gists") if stages else None)
    return finish_snapshot(draft, stages("Comparing memories") if stages else None)


def start_snapshot(service: ServiceContext, progress: Progress | None = None) -> Draft:
    """The eligible memories, their facts and stored vectors (bodies read a batch
    at a time: one query each was a third of the reading on a big vault)."""
    rows = {row.id: row for row in service.index.rows(archived=False) if eligible(row)}
    items = {}
    ids = list(rows)
    for start in range(0, len(ids), READ_BATCH):
        bodies = service.index.bodies(ids[start : start + READ_BATCH])
        for memory_id in ids[start : start + READ_BATCH]:
            row, text = rows[memory_id], " ".join(bodies.get(memory_id, "").split())
            items[memory_id] = Item(
                memory_id, row.project, row.kind, row.topic, row.created, text, analyse(text)
            )
        if progress is not None:
            progress(len(items), len(ids))
    vectors = service.index.memory_vectors(items)
    items = {m: item for m, item in items.items() if m in vectors}
    long = [m for m, item in items.items() if item.facts.core != item.text]
    return Draft(items, {m: rows[m] for m in items}, vectors, long)


def embed_gists(
    service: ServiceContext,
    draft: Draft,
    limit: int | None = None,
    progress: Progress | None = None,
) -> None:
    """Embed the core (gist) of up to `limit` long memories (all when None), a
    batch at a time: a long memory is compared with others by what it decided."""
    batch = draft.unembedded[:limit] if limit is not None else list(draft.unembedded)
    for start in range(0, len(batch), EMBED_BATCH):
        part = batch[start : start + EMBED_BATCH]
        encoded = service.index.embedder.encode([draft.items[m].facts.core for m in part])
        draft.vectors.update(zip(part, encoded, strict=True))
        if progress is not None:
            progress(start + len(part), len(batch))
    del draft.unembedded[: len(batch)]


def finish_snapshot(draft: Draft, progress: Progress | None = None) -> Snapshot:
    """Candidate pairs and their similarity; `progress` counts the memories compared."""
    items, vectors = draft.items, draft.vectors
    weights = WordWeights(item.facts.tokens for item in items.values())
    cosines = _candidate_pairs(items, vectors, progress)
    similarities = {
        pair: similarity(cos, items[pair[0]].facts, items[pair[1]].facts, weights)
        for pair, cos in cosines.items()
    }
    return Snapshot(items, draft.rows, vectors, cosines, similarities, weights)


def _candidate_pairs(
    items: dict[str, Item], vectors: dict[str, np.ndarray], progress: Progress | None
) -> dict[Pair, float]:
    """Each memory's nearest others of its project (exact, a block of rows at a time)."""
    by_project: dict[str, list[str]] = {}
    for memory_id, item in sorted(items.items()):
        by_project.setdefault(item.project, []).append(memory_id)
    pairs: dict[Pair, float] = {}
    done = 0

    def advance(rows: int) -> None:
        nonlocal done
        done += rows
        if progress is not None:
            progress(done, len(items))

    for ids in by_project.values():
        pairs.update(nearest_pairs(ids, vectors, NEIGHBOURS, CANDIDATE_COSINE, advance))
    return pairs
