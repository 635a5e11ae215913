"""Progress heard every hundredth step, so a long loop (a prune's moved paths, a
consolidation's pairs, the sessions an index update refreshes) tells its pace
without a call per step."""

from __future__ import annotations

from collections.abc import Callable


def counter(progress: Callable[[int, int], None] | None, total: int) -> Callable[[], None]:
    """A step of `total`: `progress(done, total)` hears every hundredth and the last."""
    every = max(1, total // 100)
    done = 0

    def step() -> None:
        nonlocal done
        done += 1
        if progress is not None and (done % every == 0 or done == total):
            progress(done, total)

    return step
