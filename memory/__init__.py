"""The memory model: encode, decay, reinforce, recall tiers, consolidate, forget.

`MemoryService` is the API every adapter (CLI, hooks, MCP, daemon) calls; the
pure functions in `decay` and `recall_tiers` take plain values and a `now`.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from memory.capture import CaptureReport as CaptureReport
    from memory.config import (
        MemoryConfig as MemoryConfig,
    )
    from memory.decay import (
        days_between as days_between,
        days_until as days_until,
        reinforce as reinforce,
        strength as strength,
    )
    from memory.errors import (
        RecallError as RecallError,
    )
    from memory.extract import Statement as Statement
    from memory.recall_tiers import (
        classify as classify,
        score as score,
    )
    from memory.results import (
        Associative as Associative,
        Hit as Hit,
        Listing as Listing,
        Status as Status,
    )
    from memory.service import (
        MemoryService as MemoryService,
        RecallOptions as RecallOptions,
    )

# Public names and the module that defines each; loaded on first use, so that
# importing one light submodule (the hook fast path does) loads nothing else.
_EXPORTS = {
    "Associative": "memory.results",
    "Hit": "memory.results",
    "Listing": "memory.results",
    "MemoryConfig": "memory.config",
    "CaptureReport": "memory.capture",
    "Statement": "memory.extract",
    "MemoryService": "memory.service",
    "RecallError": "memory.errors",
    "RecallOptions": "memory.service",
    "Status": "memory.results",
    "classify": "memory.recall_tiers",
    "days_between": "memory.decay",
    "days_until": "memory.decay",
    "reinforce": "memory.decay",
    "score": "memory.recall_tiers",
    "strength": "memory.decay",
}
__all__ = sorted(_EXPORTS)


def __getattr__(name: str) -> Any:
    if name in _EXPORTS:
        return getattr(importlib.import_module(_EXPORTS[name]), name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
