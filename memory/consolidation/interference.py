"""Proactive interference at encoding: when a new memory updates an older one
(the supersession rule of relations.py, over the new memory's nearest
neighbours), the older one's salience is damped at once (x0.7 by default),
so it fades faster before consolidation retires it. Each (older, newer) pair
damps once on every machine: the older memory's `damped_by` lists the newer
ones (synced with it, merged as a list), so a machine that pulls both never
damps again. .state/interference.json holds pairs damped before that field.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from indexer.catalog import ManifestRow
from indexer.index import Candidate
from memory.consolidation.relations import Item, supersedes
from memory.consolidation.text import analyse
from memory.context import ServiceContext
from vault.links import link_targets, wikilink
from vault.schema import MemoryRecord
from vault.state import JsonState

NEIGHBOURS = 10  # older memories a new one is compared with


def as_item(row: ManifestRow, text: str) -> Item:
    return Item(row.id, row.project, row.kind, row.topic, row.created, text, analyse(text))


def updates(
    service: ServiceContext, new: Item, neighbours: Iterable[tuple[ManifestRow, float]]
) -> list[tuple[str, str]]:
    """(older id, why) for each neighbour the new memory updates."""
    bar = float(service.settings["contradiction_cosine"])
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
    """Damp the salience of every older memory the new ones update, once per pair;
    returns new id -> the older ids damped now."""
    legacy = JsonState(service.vault.state_dir / "interference.json").read()
    factor = float(service.settings["interference_factor"])
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
            if f"{older}|{memory_id}" in legacy:
                continue
            record = _damp(service, older, memory_id, factor)
            if record is not None:
                paths.append(record.path)
                damped.setdefault(memory_id, []).append(older)
    if paths:
        service.index.apply(paths, allow_embed=False)
    return damped


def _damp(
    service: ServiceContext, memory_id: str, newer: str, factor: float
) -> MemoryRecord | None:
    """Damp `memory_id` for `newer`; None when that pair damped it already
    (on this machine or on the one the files came from)."""
    done = False

    def mutate(record: MemoryRecord) -> dict[str, Any]:
        nonlocal done
        if newer in link_targets(record.damped_by):
            done = True
            return {}
        return {
            "salience": round(record.salience * factor, 4),
            "damped_by": [*record.damped_by, wikilink(newer)],
        }

    record = service.store.update(memory_id, mutate)
    return None if done else record
