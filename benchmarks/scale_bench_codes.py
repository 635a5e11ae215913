"""Full-precision against compressed IVF lists on one trained quantizer: CPU
milliseconds per query (on a busy machine the wall time is mostly waiting) and
recall@10 against exact search, for each number of lists probed.

    .venv/bin/python -m benchmarks.scale_bench_codes 200000 1024 flat,fp16,sq8 64,256,512

Vectors are scale_bench_store's clustered ones; one thread. Prints JSON lines.
"""

from __future__ import annotations

import json
import os
import statistics
import sys
import time
from typing import Any

import faiss
import numpy as np

from benchmarks.scale_bench_store import DIMENSION, clustered

CODES = {"fp16": faiss.ScalarQuantizer.QT_fp16, "sq8": faiss.ScalarQuantizer.QT_8bit}


def built(name: str, centroids: np.ndarray, sample: np.ndarray, vectors: np.ndarray) -> Any:
    quantizer = faiss.IndexFlatIP(DIMENSION)
    quantizer.add(centroids)
    nlist, metric = len(centroids), faiss.METRIC_INNER_PRODUCT
    if name == "flat":
        index = faiss.IndexIVFFlat(quantizer, DIMENSION, nlist, metric)
    else:
        codes = CODES[name]
        index = faiss.IndexIVFScalarQuantizer(quantizer, DIMENSION, nlist, codes, metric, False)
        index.train(sample)  # the quantizer holds its centroids: this trains the codes only
    index.add_with_ids(vectors, np.arange(len(vectors), dtype=np.int64))
    return index


def main() -> None:
    count, nlist = int(sys.argv[1]), int(sys.argv[2])
    names, probes = sys.argv[3].split(","), [int(p) for p in sys.argv[4].split(",")]
    faiss.omp_set_num_threads(1)
    vectors, queries = clustered(count, 1), clustered(200, 7)
    exact = [set(np.argpartition(-row, 10)[:10].tolist()) for row in queries @ vectors.T]
    rng = np.random.default_rng(0)
    sample = vectors[np.sort(rng.choice(count, 40 * nlist, replace=False))]
    kmeans = faiss.Kmeans(DIMENSION, nlist, niter=10, seed=1)
    kmeans.train(sample)
    for name in names:
        index: Any = built(name, kmeans.centroids, sample, vectors)
        for nprobe in probes:
            index.nprobe = nprobe
            cpu, wall = [], []
            for row in queries:
                begun, begun_cpu = time.perf_counter(), time.process_time()
                index.search(row.reshape(1, -1), 50)
                cpu.append((time.process_time() - begun_cpu) * 1000)
                wall.append((time.perf_counter() - begun) * 1000)
            _, found = index.search(queries, 10)
            hits = sum(len(exact[i] & set(found[i].tolist())) for i in range(len(queries)))
            print(json.dumps({"codes": name, "vectors": count, "nlist": nlist, "nprobe": nprobe,
                              "cpu_p50_ms": round(statistics.median(cpu), 2),
                              "wall_p50_ms": round(statistics.median(wall), 2),
                              "recall_at_10": hits / (10 * len(queries)),
                              "load": os.getloadavg()[0]}), flush=True)  # fmt: skip


if __name__ == "__main__":
    main()
