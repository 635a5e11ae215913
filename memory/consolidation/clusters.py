"""Groups of memories that state one fact (pure): average-linkage clustering
over the candidate pairs, best pair first. Two groups join only when their
mean similarity clears the bar, no pair falls under the floor, and no pair is
vetoed (different values, an update, a rule and its exception...). Pairs that
were never candidates count as similarity 0, so loose chains do not form.
"""

from __future__ import annotations

from collections.abc import Callable

from indexer.progress_steps import counter

Pair = tuple[str, str]
FLOOR = 0.25  # no two memories of a group may be less similar than this


def _key(a: str, b: str) -> Pair:
    return (a, b) if a < b else (b, a)


def cluster(
    similarities: dict[Pair, float],
    bar: float,
    vetoed: Callable[[str, str], bool],
    floor: float = FLOOR,
    coherent: Callable[[list[str]], bool] = lambda group: True,
    progress: Callable[[int, int], None] | None = None,
) -> list[list[str]]:
    """Groups of two or more ids, each sorted; `similarities` holds the candidate
    pairs (keyed with the smaller id first); `coherent(group)` may refuse a join;
    `progress(done, total)` counts the pairs considered, every hundredth."""
    group_of: dict[str, int] = {}
    groups: dict[int, list[str]] = {}
    ordered = sorted(similarities, key=lambda pair: (-similarities[pair], pair))
    step = counter(progress, len(ordered))
    for a, b in ordered:
        step()
        for memory in (a, b):
            if memory not in group_of:
                group_of[memory] = len(group_of)
                groups[group_of[memory]] = [memory]
        left, right = group_of[a], group_of[b]
        if left == right or not _joinable(groups[left], groups[right], similarities, bar, floor):
            continue
        if any(vetoed(x, y) for x in groups[left] for y in groups[right]):
            continue
        if not coherent(groups[left] + groups[right]):
            continue
        for memory in groups[right]:
            group_of[memory] = left
        groups[left] += groups.pop(right)
    return sorted(sorted(g) for g in groups.values() if len(g) > 1)


def _joinable(
    left: list[str], right: list[str], similarities: dict[Pair, float], bar: float, floor: float
) -> bool:
    values = [similarities.get(_key(x, y), 0.0) for x in left for y in right]
    return min(values) >= floor and sum(values) / len(values) >= bar
