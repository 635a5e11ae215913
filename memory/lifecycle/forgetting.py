"""Forgetting: prune archives what faded under the archive floor, forget
archives one memory now, revive brings one back, purge is the only true
deletion. Archived files keep their format in archive/ (never deleted).
"""

from __future__ import annotations

from pathlib import Path

from indexer.sync import Stages
from memory.context import ServiceContext, listing
from memory.lifecycle.salience import record_signal
from memory.results import Listing
from vault import tombstones
from vault.errors import MemoryNotFoundError, VaultError
from vault.ids import validate_id
from vault.schema import MemoryRecord


def prune(
    service: ServiceContext, dry_run: bool = False, stages: Stages | None = None
) -> list[Listing]:
    """Archive every active memory weaker than the archive floor. A memory another
    process archived or deleted meanwhile is skipped; the rest are still archived.
    `stages` hears "Archiving" (the moves), then "Indexing" (both paths of each)."""
    service.fresh(wait=True)
    now = service.clock()
    config = service.config
    due = [
        row
        for row in service.index.rows(archived=False)
        if service.strength_of(row, now) < config.archive_floor
        and (row.tier != "curated" or config.prune_curated)
    ]
    if dry_run:
        return [listing(service, row, now) for row in due]
    archived = []
    progress = stages("Archiving") if stages else None
    for done, row in enumerate(due, 1):
        archived.append((row, _archive(service, row.id, service.vault.root / row.path)))
        if progress is not None:
            progress(done, len(due))
    records = [record for _, record in archived if record is not None]
    listings = [listing(service, row, now) for row, record in archived if record is not None]
    old = [service.vault.root / row.path for row in due]
    moved = old + [service.vault.counterpart(path) for path in old]
    service.on_files_changed(moved, progress=stages("Indexing") if stages and due else None)
    record_signal(service, "prune", records)
    return listings


def _archive(service: ServiceContext, memory_id: str, hint: Path) -> MemoryRecord | None:
    """Move one memory to the archive (`hint`: where the index saw it); None if it
    is no longer active."""
    try:
        return service.store.move(memory_id, to_archive=True, hint=hint)
    except VaultError:
        try:
            still_active = not service.vault.is_archived(service.vault.locate(memory_id))
        except MemoryNotFoundError:
            still_active = False
        if still_active:
            raise
        return None


def forget(service: ServiceContext, memory_id: str) -> MemoryRecord:
    """Archive a memory now (reversible with revive)."""
    record = service.store.move(validate_id(memory_id), to_archive=True)
    _moved(service, memory_id, record)
    record_signal(service, "forget", [record])
    return record


def revive_from_cold(service: ServiceContext, memory_id: str) -> MemoryRecord:
    """Bring an archived memory back; it counts as accessed now."""
    now = service.clock()
    record = service.store.move(
        validate_id(memory_id), to_archive=False, mutate=lambda _: {"last_access": now}
    )
    _moved(service, memory_id, record)
    return record


def purge(service: ServiceContext, memory_id: str) -> Path:
    """Delete a memory for good: the only true deletion. The purge list (synced
    with the vault) keeps it deleted when another machine edits it meanwhile."""
    located = service.vault.locate(validate_id(memory_id))
    try:
        created = tombstones.created_of(located.read_text(encoding="utf-8", errors="replace"))
    except OSError:
        created = ""
    tombstones.record(service.vault.root, memory_id, created, service.clock())
    path = service.store.delete(memory_id)
    service.on_files_changed([path])
    return path


def _moved(service: ServiceContext, memory_id: str, record: MemoryRecord) -> None:
    row = service.index.row(memory_id)
    old = [service.vault.root / row.path] if row else []
    service.on_files_changed([record.path, *old])
