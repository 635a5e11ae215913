"""What every verb of the memory model shares: the vault, settings, numbers,
clock, file store, index, linker and filer. The verbs live in one module per
family and take this context; `at(clock)` gives a view on another clock that
shares everything else, so no shared clock is ever swapped.
"""

from __future__ import annotations

import copy
from datetime import datetime
from typing import Self

from indexer.catalog import ManifestRow
from indexer.index import VaultIndex
from indexer.sync import SyncReport
from memory.associate import Linker
from memory.config import MemoryConfig
from memory.decay import effective_stability, strength_at
from memory.filing import Filer
from vault.clock import Clock, parse_time, utc_now
from vault.config import Settings, default_config_text
from vault.errors import VaultError
from vault.layout import Vault
from vault.store import MemoryStore

BULK_LINKING = 100  # more new memories than this in one sync: sweep instead of linking each


class ServiceContext:
    def __init__(
        self,
        vault: Vault,
        settings: Settings,
        clock: Clock = utc_now,
        index: VaultIndex | None = None,
        auto_sync: bool = True,
        embed_on_write: bool = True,
    ) -> None:
        self.vault = vault
        self.settings = settings
        self.config = MemoryConfig.from_settings(settings)
        self.clock = clock
        self.store = MemoryStore(vault)
        self.index = index or VaultIndex(vault, settings)
        self.auto_sync = auto_sync
        self.embed_on_write = embed_on_write
        self.linker = Linker(self.store, self.index, self.config)
        self.filer = Filer(self.store, self.index, self.config)

    def at(self, clock: Clock) -> Self:
        """The same service on another clock (a request's `now`); the index, store,
        linker and filer are shared, and this object's clock is left alone."""
        view = copy.copy(self)
        view.clock = clock
        return view

    def with_config(self, config: MemoryConfig) -> Self:
        """The same service with other numbers (the benchmark's calibration curve)."""
        view = copy.copy(self)
        view.config = config
        return view

    @staticmethod
    def init_vault(vault: Vault) -> bool:
        """Create the folders and a commented config.toml; False if it existed."""
        existed = vault.exists()
        vault.create_folders()
        if not vault.config_path.exists():
            vault.config_path.write_text(default_config_text(), encoding="utf-8")
        return not existed

    def require_vault(self) -> None:
        if not self.vault.exists():
            raise VaultError(f"no vault at {self.vault.root}; run `vault init` first")

    def sync(self) -> SyncReport:
        """Bring the index up to date; memories embedded now for the first time
        (written without vectors, or dropped in by hand) get their topics and links."""
        self.require_vault()
        report = self.index.sync()
        if report.added:
            self.filer.file_new(report.added)
            if len(report.added) > BULK_LINKING:  # a rebuild: one write per changed file
                self.linker.sweep()
            else:
                self.linker.link_new(report.added, only_unlinked=True)
        return report

    def fresh(self) -> None:
        """Sync first, unless the caller keeps the index in sync itself (the daemon)."""
        if self.auto_sync:
            self.sync()

    def stability_of(self, row: ManifestRow) -> float:
        return effective_stability(row.stability, row.tier, self.config)

    def strength_of(self, row: ManifestRow, now: datetime) -> float:
        """A memory's strength at `now`, from its manifest row."""
        return strength_at(parse_time(row.last_access), row.stability, row.tier, now, self.config)
