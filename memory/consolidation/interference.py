"""Proactive interference at encoding: when a new memory updates an older one
(the supersession rule of relations.py, over the new memory's nearest
neighbours), the older one's salience is damped at once (x0.7 by default),
so it fades faster before consolidation retires it. Each (older, newer) pair
damps once: .state/interference.json remembers the pairs, across reindexing.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from indexer.catalog import ManifestRow
from indexer.index import Candidate
from memory.consolidation.relations import Item, supersedes
from memory.consolidation.text import analyse
from memory.context import ServiceContext
from vault.clock import format_time
from vault.schema import MemoryRecord
from vault.state import JsonState

NEIGHBOURS = 10  # older memories a new one is compared with


def as_item(row: ManifestRow, text: str) -> Item:
    return Item(row.id, row.project, row.kind, row.topic, row.created, text, analyse(text))


def updates(
    service: ServiceContext, new: Item, neighbours: Iterable[tuple[ManifestRow, float]]
) -> list[tuple[str, str]]:
    """(older id, why) for each neighbour the new memory updates."""
    bar = float(service.settings.contradiction_cosine)
    found = []
    for row, cosine in neighbours:
        if row.id == new.id or row.archived or row.tier == "curated" or row.superseded_by:
            continue
        older = as_item(row, " ".join(service.index.body(row.id).split()))
        reason = supersedes(older, new, cosine, bar)
        if reason:
            found.append((row.id, reason))
    return found


def updates_of_text(
    service: ServiceContext, text: str, project: str, kind: str, created: str,
    candidates: list[Candidate],
) -> list[tuple[str, str]]:  # fmt: skip
    """What a statement about to be captured would update (its prediction error)."""
    new = Item("", project, kind, "", created, text, analyse(text))
    return updates(service, new, [(c.row, c.cosine) for c in candidates])


def interfere(service: ServiceContext, memory_ids: list[str]) -> dict[str, list[str]]:
    """Damp the salience of every older memory the new ones update; returns
    new id -> the older ids damped now."""
    state = JsonState(service.vault.state_dir / "interference.json")
    seen = state.read()
    factor = float(service.settings.interference_factor)
    damped: dict[str, list[str]] = {}
    paths = []
    for memory_id in memory_ids:
        row = service.index.row(memory_id)
        if row is None:
            continue
        new = as_item(row, " ".join(service.index.body(memory_id).split()))
        found = service.index.neighbours([memory_id], NEIGHBOURS, 0.0).get(memory_id, [])
        rows = service.index.rows_for(other for other, _ in found)
        pairs = [(rows[other], cosine) for other, cosine in found if other in rows]
        for older, _ in updates(service, new, pairs):
            if f"{older}|{memory_id}" in seen:
                continue
            paths.append(_damp(service, older, factor).path)
            damped.setdefault(memory_id, []).append(older)
            seen[f"{older}|{memory_id}"] = format_time(service.clock())
    if paths:
        service.index.apply(paths, allow_embed=False)
        state.update(lambda data: data.update({k: v for k, v in seen.items() if k not in data}))
    return damped


def _damp(service: ServiceContext, memory_id: str, factor: float) -> MemoryRecord:
    def mutate(record: MemoryRecord) -> dict[str, Any]:
        return {"salience": round(record.salience * factor, 4)}

    return service.store.update(memory_id, mutate)
