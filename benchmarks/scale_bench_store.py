"""The vector store alone at sizes the file pipeline cannot reach here in time:
N clustered synthetic unit vectors, the store's own size rule (`fit`), then
single-query latency (wall and CPU), recall@10 against exact search, file
size and the resident memory of a fresh process that loads the file and searches.

    .venv/bin/python -m benchmarks.scale_bench_store --vectors 1000000 [--words] [--json]

Vectors: 1,600 topic centres (200 projects x 8 topics) plus Gaussian noise,
cosine ~0.5 to their centre; with --words the scale vault's bag-of-words texts
(scale_bench_vectors.bag_of_words_corpus), whose neighbours spread over most
lists. Measures structure only, no files or catalog.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

from benchmarks.scale_bench import exact_top, percentile
from benchmarks.scale_bench_vectors import bag_of_words_corpus
from indexer import ivf_layout
from indexer.faiss_store import VectorStore

DIMENSION = 384
CENTRES = 1600


def clustered(count: int, seed: int) -> np.ndarray:
    rng = np.random.default_rng(seed)
    centres = np.random.default_rng(0).standard_normal((CENTRES, DIMENSION)).astype(np.float32)
    centres /= np.linalg.norm(centres, axis=1, keepdims=True)
    out = np.empty((count, DIMENSION), dtype=np.float32)
    for start in range(0, count, 100_000):
        size = min(100_000, count - start)
        block = centres[rng.integers(0, CENTRES, size)]
        block += rng.standard_normal((size, DIMENSION)).astype(np.float32) / np.sqrt(DIMENSION)
        out[start : start + size] = block / np.linalg.norm(block, axis=1, keepdims=True)
    return out


def probe(path: str) -> dict[str, float]:
    """In a fresh process: load the file, search 20 times, report RSS."""
    from hooks.daemon.process import rss_bytes

    start = time.perf_counter()
    store = VectorStore.load(Path(path), DIMENSION)
    loaded = time.perf_counter() - start
    for query in clustered(20, seed=99):
        store.search(query, 50)
    return {"load_s": loaded, "rss_mb": rss_bytes() / 2**20}


def probe_figures(
    store: VectorStore, asked: np.ndarray, exact: list[set[int]]
) -> tuple[list[float], float, list[float]]:
    """Single-query latencies (ms, pool of 50 as the index asks), recall@10, and
    each query's CPU time (ms; on a busy machine the wall time is mostly waiting)."""
    times, cpu = [], []
    for query in asked:
        begun, begun_cpu = time.perf_counter(), time.process_time()
        store.search(query, 50)
        times.append((time.perf_counter() - begun) * 1000)
        cpu.append((time.process_time() - begun_cpu) * 1000)
    _, found = store.search_many(asked, 10)
    hits = sum(len(exact[i] & set(found[i].tolist())) for i in range(len(asked)))
    return times, round(hits / (10 * len(asked)), 4), cpu


def measure(count: int, queries: int, words: bool = False) -> dict[str, object]:
    if words:
        vectors, asked = bag_of_words_corpus(count, queries)
    else:
        vectors, asked = clustered(count, seed=1), clustered(queries, seed=7)
    store = VectorStore(DIMENSION)
    for first in range(0, count, 100_000):
        store.add(list(range(first, min(first + 100_000, count))), vectors[first : first + 100_000])
    del vectors
    begun, begun_cpu = time.perf_counter(), time.process_time()
    store.fit()
    fit_s, fit_cpu_s, kind = (
        time.perf_counter() - begun,
        time.process_time() - begun_cpu,
        store.kind,
    )
    exact = exact_top(store, asked, 10)
    sweep = {}
    if store.shortlist is not None:  # the shortlist reading fewer and more lists
        nlist = store.shortlist.nlist
        for probes in (nlist // 2, ivf_layout.shortlist_probes(nlist), nlist):
            store.shortlist.nprobe = probes
            sweep[probes] = probe_figures(store, asked, exact)
        store.shortlist.nprobe = ivf_layout.shortlist_probes(nlist)
    times, recall, cpu = probe_figures(store, asked, exact)
    with tempfile.TemporaryDirectory(prefix="scale-store-") as folder:
        path = Path(folder) / "vectors.faiss"
        store.save(path)
        size_mb = path.stat().st_size / 2**20
        del store
        code = "import json,sys;from benchmarks.scale_bench_store import probe;"
        code += "print(json.dumps(probe(sys.argv[1])))"
        done = subprocess.run([sys.executable, "-c", code, str(path)], capture_output=True,
                              text=True, check=True)  # fmt: skip
        served = json.loads(done.stdout.strip().splitlines()[-1])
    return {
        "vectors": count, "words": words, "fit_s": round(fit_s, 1),
        "fit_cpu_s": round(fit_cpu_s, 1), "search_p50_ms": round(statistics.median(times), 2),
        "search_p95_ms": round(percentile(times, 0.95), 2), "recall_at_10": round(recall, 4),
        "search_cpu_p50_ms": round(statistics.median(cpu), 2),
        "search_cpu_p95_ms": round(percentile(cpu, 0.95), 2), "kind": kind,
        "file_mb": round(size_mb, 1), "load_s": round(served["load_s"], 2),
        "rss_mb": round(served["rss_mb"], 1), "load": os.getloadavg()[0],
        "shortlist_sweep": {
            p: {"p50_ms": round(statistics.median(t), 2), "recall_at_10": r,
                "cpu_p50_ms": round(statistics.median(c), 2)}
            for p, (t, r, c) in sweep.items()
        },
    }  # fmt: skip


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--vectors", type=int, default=200_000)
    parser.add_argument("--queries", type=int, default=200)
    parser.add_argument("--words", action="store_true", help="bag-of-words vectors")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    figures = measure(args.vectors, args.queries, args.words)
    if args.json:
        print(json.dumps(figures))
        return
    for key, value in figures.items():
        print(f"{key:16} {value}")


if __name__ == "__main__":
    main()
