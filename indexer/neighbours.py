"""Nearest memories of memories: the similarity behind links (association).

Two memories are as similar as their most similar pair of chunks (cosine of
the stored, normalised vectors). One batched FAISS search covers the whole
vault, so a sweep over 10,000 memories takes seconds, not minutes.
"""

from __future__ import annotations

from collections.abc import Iterable

from indexer.catalog import Catalog
from indexer.faiss_store import VectorStore

Neighbours = dict[str, list[tuple[str, float]]]
_BATCH = 1024


def nearest_memories(
    vectors: VectorStore,
    catalog: Catalog,
    memory_ids: Iterable[str] | None,
    k: int,
    bar: float,
    allowed: set[str] | None = None,
    exclude: frozenset[str] | set[str] = frozenset(),
) -> Neighbours:
    """For each memory (every memory when `memory_ids` is None): up to `k`
    other memories with cosine >= `bar`, best first. `allowed` limits which
    memories may be neighbours; those in `exclude` neither have nor are any."""
    if memory_ids is None:
        owner = catalog.all_chunks()
        queries = {v: m for v, m in owner.items() if m not in exclude}
    else:  # a few memories (an edit, a jot): their chunks only, not every row (1 s at 200k)
        owner = catalog.vector_ids_for(set(memory_ids) - exclude)
        queries = dict(owner)
    found: dict[str, dict[str, float]] = {m: {} for m in queries.values()}
    if not queries or k <= 0 or vectors.count == 0:  # no vectors: a stale index
        return {m: [] for m in found}
    # Room for the memory's own chunks and for other memories' extra chunks.
    depth = min(vectors.count, 4 * k + 8)
    vec_ids = list(queries)
    for start in range(0, len(vec_ids), _BATCH):
        part = vec_ids[start : start + _BATCH]
        scores, ids = vectors.search_many(vectors.vectors_for(part), depth)
        if memory_ids is not None:  # the owners of what was found, read for these only
            owner.update(catalog.memory_of_vectors(set(ids.ravel().tolist()) - owner.keys()))
        for row, vec_id in enumerate(part):
            source = queries[vec_id]
            best = found[source]
            for other_vec, score in zip(ids[row].tolist(), scores[row].tolist(), strict=True):
                other = owner.get(other_vec)
                if other is None or other == source or score < bar or other in exclude:
                    continue
                if allowed is not None and other not in allowed:
                    continue
                if score > best.get(other, -1.0):
                    best[other] = score
    return {
        memory: sorted(best.items(), key=lambda item: (-item[1], item[0]))[:k]
        for memory, best in found.items()
    }
