"""An IVF store answers from its shortlist (fast-scan candidates re-ranked exactly
from the fp16 vectors): recall where neighbours spread over most lists, removal,
addition, and the file that keeps both (real FAISS)."""

from __future__ import annotations

from pathlib import Path

import faiss
import numpy as np
import pytest

from indexer import ivf_layout
from indexer.faiss_store import VectorStore

DIM = 128
COMMON, PROJECTS, PROJECT_WORDS = 60, 40, 60


def unit(rows: np.ndarray) -> np.ndarray:
    return (rows / np.linalg.norm(rows, axis=1, keepdims=True)).astype(np.float32)


def bag_of_words(count: int, queries: int) -> tuple[np.ndarray, np.ndarray]:
    """Texts as sums of word directions, most words shared by every project (as in
    the scale bench): a 3-6 word query's neighbours sit in many lists."""
    rng = np.random.default_rng(5)
    words = unit(rng.standard_normal((COMMON + PROJECTS * PROJECT_WORDS, DIM)))
    project = rng.integers(0, PROJECTS, count)
    texts = np.zeros((count, DIM), dtype=np.float32)
    picked = []
    for row in range(count):
        length = int(np.clip(rng.lognormal(3.3, 0.6), 8, 200))
        own = COMMON + project[row] * PROJECT_WORDS + rng.integers(0, PROJECT_WORDS, length)
        chosen = np.where(rng.random(length) < 0.6, rng.integers(0, COMMON, length), own)
        texts[row] = words[chosen].sum(axis=0)
        if row < queries:
            picked.append(words[chosen[: rng.integers(3, 7)]].sum(axis=0))
    return unit(texts), unit(np.asarray(picked))


@pytest.fixture(scope="module")
def corpus() -> tuple[np.ndarray, np.ndarray]:
    return bag_of_words(20_000, 200)


def fitted(vectors: np.ndarray) -> VectorStore:
    store = VectorStore(DIM)
    store.add(list(range(len(vectors))), vectors)
    store.fit(exact_limit=5_000)
    return store


def recall_at_10(found: np.ndarray, vectors: np.ndarray, queries: np.ndarray) -> float:
    exact = np.argsort(-(queries @ vectors.T), axis=1)[:, :10]
    hits = sum(len(set(exact[i].tolist()) & set(found[i].tolist())) for i in range(len(queries)))
    return hits / (10 * len(queries))


def test_spread_neighbours_are_found_through_the_shortlist(corpus) -> None:
    vectors, queries = corpus
    store = fitted(vectors)
    assert store.kind == f"ivf{ivf_layout.nlist_for(len(vectors))}"
    store.index.nprobe = 1  # the fp16 lists are read back, never scanned: no effect
    _, found = store.search_many(queries, 10)
    assert recall_at_10(found, vectors, queries) >= 0.98
    _, scanned = store.index.search(queries, 10)  # what scanning one fp16 list finds
    assert recall_at_10(scanned, vectors, queries) < 0.6
    hits = store.search(queries[0], 5)
    best = int(np.argmax(vectors @ queries[0]))
    assert hits[0][0] == best
    assert hits[0][1] == pytest.approx(float(vectors[best] @ queries[0]), abs=1e-3)  # exact


def test_removed_vectors_leave_the_shortlist_and_added_ones_join_it(corpus) -> None:
    vectors, _ = corpus
    store = fitted(vectors)
    store.remove(range(10))
    for row in range(10):
        assert row not in {key for key, _ in store.search(vectors[row], 10)}
    store.add([50_000], vectors[3:4])
    assert store.search(vectors[3], 1)[0] == (50_000, pytest.approx(1.0, abs=1e-3))
    _, many = store.search_many(vectors[:2], 10)
    assert not set(many.ravel().tolist()) & set(range(10))


def test_the_file_keeps_the_shortlist_and_an_older_file_gets_one(corpus, tmp_path: Path) -> None:
    vectors, queries = corpus
    store = fitted(vectors)
    store.save(tmp_path / "v.faiss")
    loaded = VectorStore.load(tmp_path / "v.faiss", DIM)
    assert isinstance(loaded.shortlist, faiss.IndexIVFPQFastScan)
    assert loaded.kind == store.kind
    assert loaded.search(queries[1], 10) == store.search(queries[1], 10)
    faiss.write_index(store.index, str(tmp_path / "old.faiss"))  # before shortlists
    older = VectorStore.load(tmp_path / "old.faiss", DIM)
    assert older.kind == f"{store.kind}-noshortlist"
    assert older.search(vectors[4], 1)[0][0] == 4  # still searched, from the fp16 lists
    assert older.fit(exact_limit=5_000) is True
    assert older.kind == store.kind
    assert older.ids() == store.ids()
    _, found = older.search_many(queries, 10)
    assert recall_at_10(found, vectors, queries) >= 0.98
