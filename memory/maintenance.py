"""Daily maintenance: prune what faded, refile auto topics, recompute links.

Run as separate steps so the daemon can answer prompts between them; the
last step records the day in .state/maintenance.json, and nothing is due
again until a day has passed.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import timedelta

from memory.service import MemoryService
from vault.clock import format_time
from vault.state import JsonState

EVERY = timedelta(days=1)
LAST_RUN = "last_prune"


def _state(service: MemoryService) -> JsonState:
    return JsonState(service.vault.state_dir / "maintenance.json")


def last_run(service: MemoryService) -> str | None:
    """When maintenance last ran (a vault timestamp), or None."""
    last = _state(service).read().get(LAST_RUN)
    return last if isinstance(last, str) else None


def maintenance_steps(service: MemoryService) -> list[Callable[[], object]]:
    """The steps due now (none when maintenance ran within a day): prune, refile
    auto topics (labels may have changed), recompute links (pruning and
    consolidation change the graph), then mark it done."""
    now = service.clock()
    last = last_run(service)
    if last is not None and last > format_time(now - EVERY):
        return []
    return [
        lambda: len(service.prune()),
        lambda: service.sweep_topics(),
        lambda: service.sweep_links(),
        lambda: _state(service).update(lambda data: data.__setitem__(LAST_RUN, format_time(now))),
    ]


def prune_if_due(service: MemoryService) -> int | None:
    """Daily maintenance now, all steps at once: how many memories were pruned,
    or None if it was not due."""
    results = [step() for step in maintenance_steps(service)]
    pruned = results[0] if results else None
    return pruned if isinstance(pruned, int) else None
