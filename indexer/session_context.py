"""A memory among the words said around it, in the order they were said: the
FTS5 `context` column holds the bodies of the CONTEXT_WINDOW memories before and
after it in its session (keywords), and `session_order` its immediate
neighbours (their cosine joins its own; see-also walks it). Only the index holds this; the files
and the `body` column stay as they are.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

from indexer.catalog import Catalog
from indexer.progress_steps import counter

CONTEXT_WINDOW = 2  # memories either side whose words join a memory's context
NEIGHBOUR_CHARS = 1000  # a long neighbour adds only its opening


def window_texts(bodies: list[str], window: int = CONTEXT_WINDOW) -> list[str]:
    """For each body of a session (in order), the text of its neighbours."""
    shown = [" ".join(body[:NEIGHBOUR_CHARS].split()) for body in bodies]
    last = len(shown) - 1
    return [
        " ".join(shown[j] for j in range(max(0, i - window), min(last, i + window) + 1) if j != i)
        for i in range(len(shown))
    ]


def refresh_sessions(
    catalog: Catalog,
    sessions: Iterable[str],
    progress: Callable[[int, int], None] | None = None,
) -> int:
    """Recompute the context and order of every memory of `sessions`; returns
    how many contexts changed. `progress(done, total)` hears every hundredth
    session (a consolidation of a big vault touches a hundred thousand)."""
    changed = 0
    ordered = sorted({s for s in sessions if s})
    step = counter(progress, len(ordered))
    for session in ordered:
        rows = catalog.session_texts(session)
        ids = [memory_id for memory_id, _, _ in rows]
        contexts = window_texts([body for _, body, _ in rows])
        for (memory_id, _, old), new in zip(rows, contexts, strict=True):
            if old != new:
                catalog.set_context(memory_id, new)
                changed += 1
        before, after = [""] + ids[:-1], ids[1:] + [""]
        catalog.set_session_order(list(zip(ids, before, after, strict=True)))
        step()
    return changed


def blend(cosine: float, neighbour: float, share: float) -> float:
    """A memory's cosine closes `share` of the gap to its neighbour's when the
    neighbour is closer to the query; it never drops because of its context."""
    return cosine + share * max(0.0, neighbour - cosine)


def neighbour_cosines(
    catalog: Catalog,
    cosines: dict[str, float],
    cosines_of: Callable[[list[str]], dict[str, float]],
) -> dict[str, float]:
    """For each memory of `cosines`, the best cosine of the memories said just
    before and after it; `cosines_of` scores the neighbours not yet scored."""
    order = catalog.session_order(cosines)
    unscored = {n for pair in order.values() for n in pair if n and n not in cosines}
    known = {**cosines, **cosines_of(sorted(unscored))} if unscored else cosines
    return {
        memory_id: max((known.get(n, 0.0) for n in pair if n), default=0.0)
        for memory_id, pair in order.items()
    }


def session_neighbours(
    catalog: Catalog, memory_ids: Iterable[str], window: int
) -> dict[str, list[tuple[str, int]]]:
    """For each memory, those of its session up to `window` places before or
    after it, with their offset (-1: just before, 1: just after), in the order
    they were said: a walk along `session_order`, one query per step."""
    found: dict[str, list[tuple[str, int]]] = {m: [] for m in memory_ids}
    ends = {m: (m, m) for m in found}  # the walk's current first and last memory
    for step in range(1, window + 1):
        order = catalog.session_order({e for pair in ends.values() for e in pair if e})
        for memory_id, (first, last) in ends.items():
            before = order.get(first, ("", ""))[0] if first else ""
            after = order.get(last, ("", ""))[1] if last else ""
            if before:
                found[memory_id].insert(0, (before, -step))
            if after:
                found[memory_id].append((after, step))
            ends[memory_id] = (before, after)
    return found
