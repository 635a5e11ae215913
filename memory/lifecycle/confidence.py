"""Confidence from validation (seed 004): a person's "this is right" adds 0.1,
"this is wrong" takes 0.05, within 0.3-0.9; 0.5 until validated, 0.9 for a
merged memory. Ranking multiplies a score by 1 + weight x (confidence - 0.5).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from vault.ids import validate_id
from vault.schema import CONFIDENCE_RANGE, DEFAULT_CONFIDENCE, MemoryRecord

if TYPE_CHECKING:  # the keyword fallback imports this module: no index, no numpy
    from memory.context import ServiceContext

STEP_UP = 0.1
STEP_DOWN = 0.05
LOWEST, HIGHEST = CONFIDENCE_RANGE


def validated(confidence: float, up: bool) -> float:
    moved = confidence + STEP_UP if up else confidence - STEP_DOWN
    return round(min(HIGHEST, max(LOWEST, moved)), 3)


def confidence_factor(confidence: float, weight: float) -> float:
    """The score multiplier: 1.0 for an unvalidated memory."""
    return max(0.0, 1.0 + weight * (confidence - DEFAULT_CONFIDENCE))


def validate(service: ServiceContext, memory_id: str, up: bool) -> MemoryRecord:
    """`vault validate ID --up|--down`: move the memory's confidence."""

    def mutate(record: MemoryRecord) -> dict[str, Any]:
        return {"confidence": validated(record.confidence, up)}

    record = service.store.update(validate_id(memory_id), mutate)
    service.index.apply([record.path], allow_embed=False)
    return record
