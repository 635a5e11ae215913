"""The vault's structure as a whole: links (memory/encode/associate.py) and topics
(memory/encode/filing.py), swept and read over a fresh index."""

from __future__ import annotations

from indexer.catalog import ManifestRow
from indexer.sync import Progress
from memory.context import ServiceContext
from memory.encode.associate import Edge, LinkReport
from memory.encode.filing import FilingReport, TopicCount
from vault.ids import validate_id


def sweep_links(
    service: ServiceContext, dry_run: bool = False, progress: Progress | None = None
) -> LinkReport:
    """Recompute every memory's links (after edits, purges, consolidation)."""
    service.fresh(wait=True)
    return service.linker.sweep(dry_run=dry_run, progress=progress)


def links(
    service: ServiceContext, memory_id: str
) -> tuple[list[ManifestRow | str], list[ManifestRow]]:
    """A memory's links and backlinks."""
    service.fresh()
    return service.linker.links_of(validate_id(memory_id))


def graph(service: ServiceContext) -> tuple[list[ManifestRow], list[Edge]]:
    service.fresh()
    return service.linker.edges()


def sweep_topics(
    service: ServiceContext, dry_run: bool = False, progress: Progress | None = None
) -> FilingReport:
    """Reclassify auto-filed and unfiled memories against the current labels."""
    service.fresh(wait=True)
    return service.filer.sweep(dry_run=dry_run, progress=progress)


def topics(service: ServiceContext) -> list[TopicCount]:
    service.fresh()
    return service.filer.counts()
