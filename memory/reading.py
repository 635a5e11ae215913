"""Reading the vault without changing it: one memory with its strength now,
listings (strongest first) and the status (tiers, a strength histogram, the
archive, files with problems, the index)."""

from __future__ import annotations

from collections.abc import Sequence

from memory.consolidation.run import last_run
from memory.context import ServiceContext, listing
from memory.lifecycle.salience import learning
from memory.lifecycle_factors import RecordFields, lifecycle_strength
from memory.results import Listing, Status
from vault.ids import validate_id
from vault.schema import TIERS, MemoryRecord

HISTOGRAM = ((0.0, 0.02), (0.02, 0.1), (0.1, 0.35), (0.35, 0.7), (0.7, 1.01))


def show(service: ServiceContext, memory_id: str) -> tuple[MemoryRecord, float]:
    """A memory's file and its strength now."""
    record = service.store.read(validate_id(memory_id))
    now = service.clock()
    fields = RecordFields(
        path=service.vault.relative(record.path),
        kind=record.kind,
        tier=record.tier,
        stability=record.stability,
        salience=record.salience,
        evergreen=record.extra.get("evergreen") is True,
    )
    return record, lifecycle_strength(fields, now, service.config, record.last_access)


def list_memories(
    service: ServiceContext,
    tier: str | None = None,
    archived: bool = False,
    tags: Sequence[str] = (),
) -> list[Listing]:
    """Memories, strongest first; `tags`: only those carrying any of them."""
    service.fresh()
    now = service.clock()
    rows = [
        r
        for r in service.index.rows(archived=archived)
        if (tier is None or r.tier == tier) and (not tags or any(t in r.tags for t in tags))
    ]
    listings = [listing(service, r, now) for r in rows]
    listings.sort(key=lambda item: item.strength, reverse=True)
    return listings


def status(service: ServiceContext) -> Status:
    report = service.fresh()
    now = service.clock()
    active = service.index.rows(archived=False)
    archived = service.index.rows(archived=True)
    counts = dict.fromkeys(TIERS, 0)
    histogram = {f"{low:.2f}-{min(high, 1.0):.2f}": 0 for low, high in HISTOGRAM}
    for row in active:
        counts[row.tier] = counts.get(row.tier, 0) + 1
        value = service.strength_of(row, now)
        for (low, high), label in zip(HISTOGRAM, histogram, strict=True):
            if low <= value < high:
                histogram[label] += 1
    archive_bytes = sum(f.lstat().st_size for f in service.vault.memory_files(archived=True))
    stats = service.index.stats()
    stats["last_sync"] = report.summary()
    return Status(
        vault=str(service.vault.root),
        active=counts,
        archived=len(archived),
        archive_bytes=archive_bytes,
        histogram=list(histogram.items()),
        problems=service.index.problems(),
        index=stats,
        consolidation={
            "last_run": last_run(service),
            "salience": learning(service.vault, int(service.settings.salience_learn_after)),
        },
    )
