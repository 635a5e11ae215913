"""The daemon's side of retrieval strengthening: which memories a reply showed
are noted in .state/ as work after the reply (never on the prompt's critical
path), and the `access_stats` operation the CLI and MCP read them with.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from memory.results import Hit
from memory.service import MemoryService


def note_later(
    service: MemoryService, hits: list[Hit], counted: bool = True
) -> tuple[Callable[[], object], ...]:
    """A step noting each shown memory's appearance (`--no-reinforce`, a look that
    strengthens nothing, is not counted). Folder documents are not counted: no
    lifecycle state is kept for them."""
    ids = [h.id for h in hits if not h.document]
    return (lambda: service.note_appearances(ids),) if counted and ids else ()


def op_access_stats(service: MemoryService, args: Mapping[str, object]) -> list[dict[str, Any]]:
    return [stats.to_dict() for stats in service.access_stats()]
