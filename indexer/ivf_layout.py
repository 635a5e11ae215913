"""Which FAISS structure a vector store of a given size gets, and its IVF maths.

Exact IndexFlatIP up to EXACT_LIMIT vectors (one scan stays within tens of
milliseconds); above it an IVF index whose lists hold half-precision vectors
(IndexIVFScalarQuantizer, fp16): IVF rather than HNSW because the store removes
vectors by id and reconstructs them by id, which HNSW cannot do; fp16 at a
cosine error near 1e-4. A query does not scan those lists: a shortlist index
over the same lists (IVF-PQ fast scan, a 4-bit code per 2 dimensions)
proposes SHORTLIST candidates, re-ranked exactly from the fp16 vectors. The
fp16 scan cost ~0.15 us a vector whatever its code size (8- and 4-bit codes
were no faster), so recall@10 0.98 on bag-of-words vectors, whose neighbours
spread over most lists, cost ~70 ms at 1M; the fast scan reads every probed
list at a fraction of that (README "Scale").
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
# The shortlist: how many candidates the fast scan passes to the exact re-rank, and
# the share of lists it reads (measured in README "Scale": 1M bag-of-words vectors).
SHORTLIST = 400
SHORTLIST_PROBE_SHARE = 4  # the shortlist reads 3 of every 4 lists
# One 4-bit code (16 centroids) per 2 dimensions: with 4 dimensions a code, 64-d
# noisy clusters kept only 0.85 of the true top 10 among 400 candidates (0.998 with 2).
DIMENSIONS_PER_CODE = 2
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
    index.train(training_sample(vectors, nlist))
    index.set_direct_map_type(faiss.DirectMap.Hashtable)  # type: ignore[attr-defined]
    index.nprobe = nprobe_for(nlist)
    return index


def training_sample(vectors: np.ndarray, nlist: int) -> np.ndarray:
    rng = np.random.default_rng(0)
    wanted = min(len(vectors), TRAIN_POINTS * nlist)
    sample = vectors[np.sort(rng.choice(len(vectors), wanted, replace=False))]
    return np.ascontiguousarray(sample, dtype=np.float32)


def new_shortlist(ivf: Any, vectors: np.ndarray) -> Any:
    """An empty, trained IVF-PQ fast-scan index over the lists of `ivf` (the same
    centroids, so a vector sits in the same list in both): a 4-bit code for each
    DIMENSIONS_PER_CODE dimensions (one per dimension when they do not divide)."""
    dimension, nlist = ivf.d, ivf.nlist
    quantizer: Any = faiss.IndexFlatIP(dimension)
    quantizer.add(ivf.quantizer.reconstruct_n(0, nlist))
    parts = dimension // DIMENSIONS_PER_CODE if dimension % DIMENSIONS_PER_CODE == 0 else dimension
    index: Any = faiss.IndexIVFPQFastScan(
        quantizer, dimension, nlist, parts, 4, faiss.METRIC_INNER_PRODUCT
    )
    index.own_fields = True
    quantizer.this.disown()
    index.by_residual = False  # inner product on unit vectors: codes of the vectors
    index.train(training_sample(vectors, nlist))  # the centroids are set: trains the codes
    index.nprobe = shortlist_probes(nlist)
    return index


def shortlist_probes(nlist: int) -> int:
    return max(1, nlist - nlist // SHORTLIST_PROBE_SHARE)


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
