"""Reinforcement: what a recall hit does (stability x1.5) and what a person's
"yes, still true" does to a hedged memory (x2.5), both capped at 10x the
tier's base; an episodic memory that reaches its cap consolidates
(memory/decay.py). Last access becomes now either way.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from memory.context import ServiceContext
from memory.decay import reinforce as grown_stability
from memory.lifecycle.salience import record_signal
from memory.results import Hit
from vault.ids import validate_id
from vault.indexed_folders import ReadOnlyDocumentError, is_document_path
from vault.schema import MemoryRecord


def reinforce(service: ServiceContext, memory_id: str) -> MemoryRecord:
    """What a recall hit does: stability x1.5 (capped), last access now."""
    record = _grow(service, memory_id, service.config.reinforce_factor, "recalls")
    service.index.apply([record.path], allow_embed=False)
    record_signal(service, "reinforce", [record])
    return record


def confirm_activation(service: ServiceContext, memory_id: str) -> MemoryRecord:
    """The person confirmed a hedged memory: stability x2.5 (capped)."""
    record = _grow(service, memory_id, service.config.confirm_factor, "confirmations")
    service.index.apply([record.path], allow_embed=False)
    record_signal(service, "confirm", [record])
    return record


def reinforce_hits(service: ServiceContext, hits: list[Hit]) -> list[Hit]:
    """Reinforce recall hits (x1.5 each); returns them with their new stability.
    A folder document is returned as it is: it is never written."""
    done = []
    records = []
    for hit in hits:
        if hit.document:
            done.append(hit)
            continue
        record = _grow(service, hit.id, service.config.reinforce_factor, "recalls")
        records.append(record)
        done.append(
            replace(hit, reinforced=True, stability=record.stability or 0.0, tier=record.tier)
        )
    if records:
        service.index.apply([r.path for r in records], allow_embed=False)
        record_signal(service, "reinforce", records)
    return done


def _grow(service: ServiceContext, memory_id: str, factor: float, counter: str) -> MemoryRecord:
    now = service.clock()
    row = service.index.row(validate_id(memory_id))
    if row is not None and is_document_path(row.path):
        raise ReadOnlyDocumentError(
            f"{memory_id} is a document of a folder indexed in place ({row.path}); "
            "documents are read, never strengthened or written"
        )

    def mutate(record: MemoryRecord) -> dict[str, Any]:
        grown = grown_stability(record.stability, record.tier, factor, service.config)
        return {
            "last_access": now,
            "stability": grown.stability,
            "tier": grown.tier,
            counter: getattr(record, counter) + 1,
        }

    return service.store.update(validate_id(memory_id), mutate)
