"""The memory model: encode, decay, reinforce, recall tiers, consolidate, forget.

`MemoryService` is the API every adapter (CLI, hooks, MCP, daemon) calls; the
pure functions in `decay` and `recall_tiers` take plain values and a `now`.
"""

from memory.config import MemoryConfig
from memory.decay import days_between, days_until, reinforce, strength
from memory.errors import RecallError
from memory.recall_tiers import classify, score
from memory.redact import redact
from memory.results import Associative, Hit, Listing, Status
from memory.service import MemoryService, RecallOptions

__all__ = [
    "Associative",
    "Hit",
    "Listing",
    "MemoryConfig",
    "MemoryService",
    "RecallError",
    "RecallOptions",
    "Status",
    "classify",
    "days_between",
    "days_until",
    "reinforce",
    "redact",
    "score",
    "strength",
]
