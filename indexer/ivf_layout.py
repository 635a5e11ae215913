"""Which FAISS structure a vector store of a given size gets, and its IVF maths.

Exact IndexFlatIP up to EXACT_LIMIT vectors (one scan stays within tens of
milliseconds); above it an IVF index whose lists hold half-precision vectors
(IndexIVFScalarQuantizer, fp16): IVF rather than HNSW because the store removes
vectors by id and reconstructs them by id, which HNSW cannot do; fp16 because a
query scans half the lists, and half the bytes scan in about half the time
(measured in README "Scale"), at a cosine error near 1e-4.
Owns only the choice and the building blocks; indexer/faiss_store.py swaps.
"""

from __future__ import annotations

import math
from typing import Any

import faiss
import numpy as np

EXACT_LIMIT = 100_000  # vectors; measured in benchmarks/scale_bench.py (see README)
# Probe half the lists: on the scale bench's bag-of-words vectors with 3-6 word
# queries (200k, 1024 lists) recall@10 was 0.86 / 0.90 / 0.94 / 0.983 probing
# 1/16, 1/8, 1/4, 1/2 of them; tightly clustered vectors reach 1.0 at 1/64.
NPROBE_SHARE = 2
CODEC = faiss.ScalarQuantizer.QT_fp16
TRAIN_POINTS = 40  # training vectors per list (FAISS asks for at least 39)
TRAIN_ITERATIONS = 10


def nlist_for(count: int) -> int:
    """About 2 * sqrt(count) lists, a power of two, with enough vectors to train each
    (4 * sqrt made training at 1M take ~20 min on a busy two-core machine)."""
    ideal = int(2 ** round(math.log2(2 * math.sqrt(max(count, 1)))))
    return max(1, min(ideal, count // TRAIN_POINTS))


def nprobe_for(nlist: int) -> int:
    return max(8, nlist // NPROBE_SHARE)


def wanted_kind(count: int, current: str, exact_limit: int = EXACT_LIMIT) -> str:
    """ "flat" or "ivf<nlist>". An IVF store goes back to flat below half the limit
    and is retrained when its ideal list count doubles, so a store near the limit
    does not flip back and forth; one of an older layout ("ivf<nlist>-flat",
    full-precision lists) is rebuilt in the current one."""
    if current == "flat":
        return "flat" if count <= exact_limit else f"ivf{nlist_for(count)}"
    if count < exact_limit // 2:
        return "flat"
    if not current.removeprefix("ivf").isdigit():
        return f"ivf{nlist_for(count)}"
    nlist = int(current.removeprefix("ivf"))
    ideal = nlist_for(count)
    return f"ivf{ideal}" if ideal >= 2 * nlist or ideal * 4 <= nlist else current


def kind_of(index: Any) -> str:
    """ "ivf<nlist>" for the current layout, "ivf<nlist>-flat" for full-precision lists."""
    return f"ivf{index.nlist}" + ("-flat" if isinstance(index, faiss.IndexIVFFlat) else "")


def new_ivf(dimension: int, nlist: int, vectors: np.ndarray) -> Any:
    """An empty, trained IVF index over inner product with fp16 lists, removable
    and reconstructable by id (hash-table direct map)."""
    quantizer: Any = faiss.IndexFlatIP(dimension)
    index: Any = faiss.IndexIVFScalarQuantizer(
        quantizer, dimension, nlist, CODEC, faiss.METRIC_INNER_PRODUCT, False
    )  # by_residual False: fp16 needs no residuals, and encodes each vector once
    index.own_fields = True  # the IVF index frees its quantizer
    quantizer.this.disown()
    index.cp.niter = TRAIN_ITERATIONS
    rng = np.random.default_rng(0)
    wanted = min(len(vectors), TRAIN_POINTS * nlist)
    sample = vectors[np.sort(rng.choice(len(vectors), wanted, replace=False))]
    index.train(np.ascontiguousarray(sample, dtype=np.float32))
    index.set_direct_map_type(faiss.DirectMap.Hashtable)  # type: ignore[attr-defined]
    index.nprobe = nprobe_for(nlist)
    return index


def ivf_ids(index: Any) -> np.ndarray:
    """Every id stored in an IVF index, list by list."""
    lists = index.invlists
    parts = [np.zeros(0, dtype=np.int64)]
    for number in range(index.nlist):
        size = lists.list_size(number)
        if size:
            parts.append(faiss.rev_swig_ptr(lists.get_ids(number), size).copy())
    return np.concatenate(parts)


def exact_ids(index: Any) -> np.ndarray:
    return np.asarray(faiss.vector_to_array(index.id_map), dtype=np.int64)
