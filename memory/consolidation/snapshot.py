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


def take_snapshot(service: ServiceContext) -> Snapshot:
    rows = {row.id: row for row in service.index.rows(archived=False) if eligible(row)}
    items = {}
    for memory_id, row in rows.items():
        text = " ".join(service.index.body(memory_id).split())
        created = row.created
        items[memory_id] = Item(
            memory_id, row.project, row.kind, row.topic, created, text, analyse(text)
        )
    vectors = _core_vectors(service, items)
    items = {m: item for m, item in items.items() if m in vectors}
    weights = WordWeights(item.facts.tokens for item in items.values())
    cosines = _candidate_pairs(items, vectors)
    similarities = {
        pair: similarity(cos, items[pair[0]].facts, items[pair[1]].facts, weights)
        for pair, cos in cosines.items()
    }
    return Snapshot(items, {m: rows[m] for m in items}, vectors, cosines, similarities, weights)


def _core_vectors(service: ServiceContext, items: dict[str, Item]) -> dict[str, np.ndarray]:
    """Stored vectors; a long memory is compared by its gist, embedded now."""
    vectors = service.index.memory_vectors(items)
    long = [m for m, item in items.items() if item.facts.core != item.text and m in vectors]
    if long:
        encoded = service.index.embedder.encode([items[m].facts.core for m in long])
        vectors.update(zip(long, encoded, strict=True))
    return vectors


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
