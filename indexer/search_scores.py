"""The two kinds of evidence hybrid search weighs for a query: keywords (FTS5
BM25 over a memory's body, tags and the words said around it, normalised) and
meaning (a memory's cosine to the query, by its best chunk). Read-only.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from indexer.catalog import Catalog
from indexer.fusion import normalise_bm25
from indexer.keywords import or_terms, query_phrases, query_terms

if TYPE_CHECKING:
    import numpy as np

    from indexer.faiss_store import VectorStore


def keyword_scores(
    catalog: Catalog, query: str, limit: int, context_weight: float, saturation: float
) -> dict[str, float]:
    """Normalised BM25 of the memories matching the query's selective words
    and the word pairs they form."""
    terms = catalog.selective_terms(query_terms(query))
    match = or_terms(terms + query_phrases(query, terms))
    found = catalog.keyword_search(match, limit, context_weight)
    return {memory_id: normalise_bm25(score, saturation) for memory_id, score in found}


def memory_cosines(
    catalog: Catalog, vectors: VectorStore, memory_ids: list[str], query: np.ndarray
) -> dict[str, float]:
    """Each memory's cosine to the query vector: its best chunk's."""
    import numpy as np

    if not memory_ids or not vectors.count:  # no vectors: a stale index answers from keywords
        return {}
    chunk_owner = catalog.vector_ids_for(memory_ids)
    if not chunk_owner:
        return {}
    ids = list(chunk_owner)
    scores = vectors.vectors_for(ids) @ np.asarray(query)
    best: dict[str, float] = {}
    for vec_id, score in zip(ids, scores.tolist(), strict=True):
        memory_id = chunk_owner[vec_id]
        best[memory_id] = max(best.get(memory_id, -1.0), score)
    return best
