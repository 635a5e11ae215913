"""The vault as consolidation sees it: the active memories it may change (curated
notes a person ingested are left alone), each with the facts of its wording
and the vector of its core (stored vectors; a long memory's gist is embedded
here), and the candidate pairs: nearest neighbours within one project.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from indexer.catalog import ManifestRow
from memory.consolidation.relations import Item, WordWeights, similarity
from memory.consolidation.text import analyse
from memory.context import ServiceContext

if TYPE_CHECKING:
    import numpy as np

Pair = tuple[str, str]
NEIGHBOURS = 30  # candidate pairs per memory
CANDIDATE_COSINE = 0.2  # below this two memories are never compared


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


def take_snapshot(service: ServiceContext) -> Snapshot:
    draft = start_snapshot(service)
    embed_gists(service, draft)
    return finish_snapshot(draft)


def start_snapshot(service: ServiceContext) -> Draft:
    """The eligible memories, their facts and stored vectors."""
    rows = {row.id: row for row in service.index.rows(archived=False) if eligible(row)}
    items = {}
    for memory_id, row in rows.items():
        text = " ".join(service.index.body(memory_id).split())
        items[memory_id] = Item(
            memory_id, row.project, row.kind, row.topic, row.created, text, analyse(text)
        )
    vectors = service.index.memory_vectors(items)
    items = {m: item for m, item in items.items() if m in vectors}
    long = [m for m, item in items.items() if item.facts.core != item.text]
    return Draft(items, {m: rows[m] for m in items}, vectors, long)


def embed_gists(service: ServiceContext, draft: Draft, limit: int | None = None) -> None:
    """Embed the core (gist) of up to `limit` long memories (all when None):
    a long memory is compared with others by what it decided."""
    batch = draft.unembedded[:limit] if limit is not None else list(draft.unembedded)
    if batch:
        encoded = service.index.embedder.encode([draft.items[m].facts.core for m in batch])
        draft.vectors.update(zip(batch, encoded, strict=True))
    del draft.unembedded[: len(batch)]


def finish_snapshot(draft: Draft) -> Snapshot:
    """Candidate pairs and their similarity."""
    items, vectors = draft.items, draft.vectors
    weights = WordWeights(item.facts.tokens for item in items.values())
    cosines = _candidate_pairs(items, vectors)
    similarities = {
        pair: similarity(cos, items[pair[0]].facts, items[pair[1]].facts, weights)
        for pair, cos in cosines.items()
    }
    return Snapshot(items, draft.rows, vectors, cosines, similarities, weights)


def _candidate_pairs(items: dict[str, Item], vectors: dict[str, np.ndarray]) -> dict[Pair, float]:
    import numpy as np

    by_project: dict[str, list[str]] = {}
    for memory_id, item in sorted(items.items()):
        by_project.setdefault(item.project, []).append(memory_id)
    pairs: dict[Pair, float] = {}
    for ids in by_project.values():
        if len(ids) < 2:
            continue
        matrix = np.vstack([vectors[m] for m in ids])
        cosines = matrix @ matrix.T
        np.fill_diagonal(cosines, -1.0)
        for row, memory_id in enumerate(ids):
            nearest = np.argsort(-cosines[row])[:NEIGHBOURS]
            for column in nearest.tolist():
                value = float(cosines[row, column])
                if value < CANDIDATE_COSINE:
                    break
                other = ids[column]
                pairs[(memory_id, other) if memory_id < other else (other, memory_id)] = value
    return pairs
