"""Each memory's nearest others among a group (one project's, one topic's), by
exact cosine over their unit vectors (pure). The matrix is computed a block of
rows at a time, so memory stays bounded (a block by the group) whatever the group's
size, and only the `k` best of each row are picked out (no row is sorted).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import numpy as np

Pair = tuple[str, str]
BLOCK = 512  # rows compared at once: 512 x a 200,000-memory group is ~400 MB of float32


def nearest_pairs(
    ids: list[str],
    vectors: dict[str, np.ndarray],
    k: int,
    floor: float,
    advance: Callable[[int], None] | None = None,
) -> dict[Pair, float]:
    """Each id's `k` nearest others with cosine >= `floor`, as pairs keyed with the
    smaller id first (a pair found from both ends once); `advance(rows)` hears as
    each block of rows is done."""
    import numpy as np

    pairs: dict[Pair, float] = {}
    if len(ids) < 2:
        if advance is not None:
            advance(len(ids))
        return pairs
    matrix = np.vstack([vectors[m] for m in ids])
    take = min(k, len(ids) - 1)
    for start in range(0, len(ids), BLOCK):
        block = matrix[start : start + BLOCK] @ matrix.T
        rows = np.arange(len(block))
        block[rows, rows + start] = -1.0  # never one's own neighbour
        best = np.argpartition(-block, take - 1, axis=1)[:, :take]
        values = np.take_along_axis(block, best, axis=1)
        kept_rows, kept = np.nonzero(values >= floor)
        found = zip(
            (kept_rows + start).tolist(),
            best[kept_rows, kept].tolist(),
            values[kept_rows, kept].tolist(),
            strict=True,
        )
        for row, column, value in found:
            first, second = ids[row], ids[column]
            pairs[(first, second) if first < second else (second, first)] = value
        if advance is not None:
            advance(len(block))
    return pairs
