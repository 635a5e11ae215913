"""The vector store picks its FAISS structure by size: exact, then IVF (real FAISS)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from indexer import ivf_layout
from indexer.faiss_store import VectorStore
from indexer.index import VaultIndex
from memory.service import MemoryService
from vault.config import load_settings

DIM = 64


def clustered(count: int, seed: int = 3) -> np.ndarray:
    """Unit vectors around 200 centres, as embeddings of related texts are."""
    rng = np.random.default_rng(seed)
    centres = rng.standard_normal((200, DIM)).astype(np.float32)
    points = centres[rng.integers(0, 200, count)]
    points += 0.6 * rng.standard_normal((count, DIM)).astype(np.float32)
    return points / np.linalg.norm(points, axis=1, keepdims=True)


def exact_top10(vectors: np.ndarray, ids: np.ndarray, queries: np.ndarray) -> list[set[int]]:
    best = np.argsort(-(queries @ vectors.T), axis=1)[:, :10]
    return [set(ids[row].tolist()) for row in best]


@pytest.fixture
def big_store() -> tuple[VectorStore, np.ndarray, np.ndarray]:
    vectors = clustered(20_000)
    ids = np.arange(1000, 21_000, dtype=np.int64)
    store = VectorStore(DIM)
    store.add(ids.tolist(), vectors)
    return store, vectors, ids


def test_store_stays_exact_up_to_the_limit_then_turns_ivf(big_store) -> None:
    store, _, _ = big_store
    assert store.fit(exact_limit=20_000) is False
    assert store.kind == "flat"
    assert store.fit(exact_limit=5_000) is True
    assert store.kind == f"ivf{ivf_layout.nlist_for(20_000)}"
    assert store.count == 20_000


def test_ivf_store_finds_what_exact_search_finds(big_store) -> None:
    store, vectors, ids = big_store
    store.fit(exact_limit=5_000)
    queries = clustered(200, seed=9)
    _, found = store.search_many(queries, 10)
    exact = exact_top10(vectors, ids, queries)
    recall = sum(len(exact[i] & set(found[i].tolist())) for i in range(200)) / 2000
    assert recall >= 0.98


def test_ivf_store_removes_reconstructs_filters_and_reloads(big_store, tmp_path: Path) -> None:
    store, vectors, ids = big_store
    store.fit(exact_limit=5_000)
    store.remove([1000, 1001])
    assert store.count == 19_998
    assert 1000 not in store.ids()
    assert np.allclose(store.vectors_for([1005])[0], vectors[5], atol=1e-3)  # fp16 lists
    assert [i for i, _ in store.search(vectors[7], 1, allowed=[1007, 1008])] == [1007]
    assert store.search(vectors[7], 3, allowed=[1000]) == []  # removed: nothing to find
    store.save(tmp_path / "v.faiss")
    loaded = VectorStore.load(tmp_path / "v.faiss", DIM)
    assert loaded.kind == store.kind
    assert loaded.ids() == store.ids()
    assert loaded.search(vectors[7], 1)[0][0] == 1007


def test_an_ivf_store_of_the_older_full_precision_layout_is_rebuilt_in_fp16(big_store) -> None:
    import faiss

    store, vectors, ids = big_store
    old = faiss.IndexIVFFlat(faiss.IndexFlatIP(DIM), DIM, 64, faiss.METRIC_INNER_PRODUCT)
    old.train(vectors)
    old.set_direct_map_type(faiss.DirectMap.Hashtable)
    old.add_with_ids(vectors, ids)
    store.index = old
    assert store.kind == "ivf64-flat"
    assert store.fit(exact_limit=5_000) is True
    assert store.kind == f"ivf{ivf_layout.nlist_for(20_000)}"
    assert isinstance(store.index, faiss.IndexIVFScalarQuantizer)
    assert store.ids() == set(ids.tolist())
    assert store.search(vectors[7], 1)[0][0] == 1007


def test_shrunk_ivf_store_goes_back_to_exact(big_store) -> None:
    store, _, ids = big_store
    store.fit(exact_limit=5_000)
    store.remove(ids[:18_000].tolist())
    assert store.fit(exact_limit=5_000) is True
    assert store.kind == "flat"
    assert store.count == 2_000


def test_index_crossing_the_limit_publishes_a_whole_ivf_store(
    service: MemoryService, monkeypatch: pytest.MonkeyPatch, embedder
) -> None:
    monkeypatch.setattr(ivf_layout, "EXACT_LIMIT", 100)
    for number in range(130):
        service.jot(f"Service number {number} pins dependency version {number * 7}.")
    index = VaultIndex(service.vault, load_settings(service.vault.config_path, {}), embedder)
    index.sync()
    with index.published.reading() as snapshot:
        assert snapshot.vectors.kind.startswith("ivf")
        assert snapshot.vectors.count >= 130
    index.close()
    reopened = VaultIndex(service.vault, load_settings(service.vault.config_path, {}), embedder)
    hits = reopened.search("Service number 42 pins dependency version 294", k=3)
    assert hits
    assert "42" in reopened.body(hits[0].row.id)
    with reopened.published.reading() as snapshot:
        assert snapshot.vectors.kind.startswith("ivf")
    reopened.close()
