"""The vault's structure as a whole: links (memory/encode/associate.py) and topics
(memory/encode/filing.py), made for new memories, swept and read over a fresh
index. The service holds one linker and one filer (the filer keeps its topic
model warm) and hands itself in as an `Organised`."""

from __future__ import annotations

from typing import Protocol

from indexer.catalog import ManifestRow
from indexer.sync import Progress, SyncReport
from memory.consolidation.interference import interfere
from memory.context import ServiceContext
from memory.encode.associate import Edge, Linker, LinkReport
from memory.encode.filing import Filer, FilingReport, TopicCount
from vault.ids import validate_id

BULK_LINKING = 100  # more new memories than this at once: sweep instead of linking each


class Organised(Protocol):
    """What the organising verbs need of the service."""

    @property
    def linker(self) -> Linker: ...

    @property
    def filer(self) -> Filer: ...

    def fresh(self, wait: bool = False) -> SyncReport: ...


def organise(service: ServiceContext, linker: Linker, filer: Filer, report: SyncReport) -> None:
    """File the embedded memories that have no topic and link those without links;
    a large batch (a rebuild, a big pull) gets one sweep of the whole graph."""
    embedded = report.added + report.reembedded
    if not embedded:
        return
    filer.file_new(embedded)
    if len(report.added) > BULK_LINKING:  # one write per changed file, not per pair
        linker.sweep()
    else:
        linker.link_new(embedded, only_unlinked=True)
        interfere(service, report.added)  # each (older, newer) pair damps once


def sweep_links(
    service: Organised, dry_run: bool = False, progress: Progress | None = None
) -> LinkReport:
    """Recompute every memory's links (after edits, purges, consolidation)."""
    service.fresh(wait=True)
    return service.linker.sweep(dry_run=dry_run, progress=progress)


def links(service: Organised, memory_id: str) -> tuple[list[ManifestRow | str], list[ManifestRow]]:
    """A memory's links and backlinks."""
    service.fresh()
    return service.linker.links_of(validate_id(memory_id))


def graph(service: Organised) -> tuple[list[ManifestRow], list[Edge]]:
    service.fresh()
    return service.linker.edges()


def sweep_topics(
    service: Organised, dry_run: bool = False, progress: Progress | None = None
) -> FilingReport:
    """Reclassify auto-filed and unfiled memories against the current labels."""
    service.fresh(wait=True)
    return service.filer.sweep(dry_run=dry_run, progress=progress)


def topics(service: Organised) -> list[TopicCount]:
    service.fresh()
    return service.filer.counts()
