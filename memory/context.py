"""What every verb of the memory model shares: the vault, settings, clock, file
store and index, a memory's strength now, and the one path every new or changed
memory takes (`on_files_changed`: index, then `organise`: file and link, which
the service supplies). The verbs live in one module per stage and import this,
never the service; `at(clock)` gives a view on another clock that shares
everything else.
"""

from __future__ import annotations

import contextlib
import copy
import math
from collections.abc import Iterable
from contextlib import AbstractContextManager
from datetime import datetime
from pathlib import Path
from typing import Self

from indexer.catalog import ManifestRow
from indexer.folder_scan import FULL_EVERY, Scan
from indexer.index import VaultIndex
from indexer.sync import Progress, SyncReport
from memory.config import MemoryConfig
from memory.decay import effective_stability
from memory.lifecycle_factors import lifecycle_strength
from memory.results import Listing
from vault.appearances import AppearanceLog
from vault.clock import Clock, parse_time, utc_now
from vault.config import Settings
from vault.creation import create_vault
from vault.errors import VaultError
from vault.layout import Vault
from vault.periodic_links import PeriodicLinks
from vault.store import MemoryStore


class ServiceContext:
    def __init__(
        self,
        vault: Vault,
        settings: Settings,
        clock: Clock = utc_now,
        index: VaultIndex | None = None,
        auto_sync: bool = True,
        embed_on_write: bool = True,
        share_index_work: bool = False,
    ) -> None:
        vault = vault.configured(settings)  # the note folders the settings name
        self.vault = vault
        self.settings = settings
        self.config = MemoryConfig.from_settings(settings)
        self.clock = clock
        self.store = MemoryStore(vault)
        self.index = index or VaultIndex(vault, settings)
        self.auto_sync = auto_sync
        self.embed_on_write = embed_on_write
        # Writers in separate processes (the CLI without a daemon): VaultIndex.sync_shared.
        self.share_index_work = share_index_work
        # A daemon's watcher has seen every change since the last full scan (the daemon
        # sets it once its catch-up scan is done): a delta sync looks only into the
        # folders whose mtime changed, and never waits for a full scan of its own.
        self.watched = False
        self.appearances = AppearanceLog(vault.state_dir)  # retrieval strengthening
        self.periodic_links = PeriodicLinks(vault)  # consolidation bonus
        # What a long job (a rebuild) holds for each short step; the daemon sets its
        # work lock here, so requests are answered between the steps.
        self.turn: AbstractContextManager[object] = contextlib.nullcontext()

    def at(self, clock: Clock) -> Self:
        """The same service on another clock (a request's `now`); the index, store
        and everything else are shared, and this object's clock is left alone."""
        view = copy.copy(self)
        view.clock = clock
        return view

    def with_settings(self, settings: Settings) -> Self:
        """The same service with other settings (a request's VAULT_* overrides): the
        numbers follow them; the index keeps its own, read at start."""
        view = self.with_config(MemoryConfig.from_settings(settings))
        view.settings = settings
        return view

    def with_config(self, config: MemoryConfig) -> Self:
        """The same service with other numbers (the benchmark's calibration curve)."""
        view = copy.copy(self)
        view.config = config
        return view

    @staticmethod
    def init_vault(vault: Vault) -> bool:
        """Create the folders and a commented config.toml; False if it existed."""
        return create_vault(vault)

    def require_vault(self) -> None:
        if not self.vault.exists():
            raise VaultError(f"no vault at {self.vault.root}; run `vault init` first")

    def on_files_changed(
        self,
        paths: Iterable[Path] | None = None,
        wait: bool = True,
        progress: Progress | None = None,
        quick: bool = False,
        full_every: float = FULL_EVERY,
    ) -> SyncReport:
        """The one path for "memories appeared or changed", whatever brought them (jot,
        ingest, capture, MCP, an editor, a dropped or pulled file, the watcher, a
        rebuild): index the files (None: the whole vault, a delta sync; `quick`: only
        folders whose mtime changed, a full scan once the last is `full_every` seconds
        old), then file and link the memories that were embedded now."""
        self.require_vault()
        if paths is not None and self.share_index_work:  # never queue behind other writers
            report = self.index.sync_shared(self.embed_on_write, progress)
        elif paths is None:
            if self.watched:
                quick, full_every = True, math.inf
            report = self.index.sync(
                wait=wait, progress=progress, quick=quick, full_every=full_every
            )
        else:
            report = self.index.apply(paths, self.embed_on_write, progress)
        self.organise(report)
        return report

    def on_scan(self, scan: Scan) -> SyncReport:
        """A full scan made without the index lock (VaultIndex.scan): reconcile what it
        found and record it, then file and link as for any change."""
        self.require_vault()
        report = self.index.apply_scan(scan, self.embed_on_write)
        self.organise(report)
        return report

    def organise(self, report: SyncReport) -> None:
        """File and link the memories a sync embedded (memory/organising.py, which
        the service plugs in here); a bare context only indexes."""

    def rebuild(self, progress: Progress | None = None) -> SyncReport:
        """Re-embed every file into a new generation (readers keep the old one until
        it is published), then file and link as for any new memory."""
        self.require_vault()
        report = self.index.rebuild(progress, turn=self.turn)
        with self.turn:
            self.organise(report)
        return report

    def sync(self) -> SyncReport:
        """Bring the index up to date, waiting for another writer if one is busy."""
        return self.on_files_changed()

    def fresh(self, wait: bool = False) -> SyncReport:
        """Sync before reading, unless the index is kept in sync elsewhere (the daemon
        owns it). A reader does not wait for a busy writer (`wait` False): it reads
        the published index; verbs that write wait."""
        if not self.auto_sync:
            return SyncReport()
        return self.on_files_changed(wait=wait)

    def stability_of(self, row: ManifestRow) -> float:
        return effective_stability(row.stability, row.tier, self.config)

    def strength_of(self, row: ManifestRow, now: datetime) -> float:
        """A memory's strength at `now`, from its manifest row."""
        return lifecycle_strength(row, now, self.config, parse_time(row.last_access))


def listing(service: ServiceContext, row: ManifestRow, now: datetime) -> Listing:
    body = " ".join(service.index.body(row.id).split())
    return Listing(
        id=row.id,
        path=row.path,
        tier=row.tier,
        kind=row.kind,
        topic=row.topic,
        project=row.project,
        archived=row.archived,
        strength=service.strength_of(row, now),
        stability=service.stability_of(row),
        last_access=row.last_access,
        preview=body[:100],
    )
