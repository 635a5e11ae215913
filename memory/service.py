"""MemoryService: the memory model over one vault, the API every adapter (CLI,
hooks, MCP, daemon) calls. It is the shared context (memory/context.py) with
one method per verb, each defined in the module of its family.
"""

from __future__ import annotations

import copy
from typing import Self

from indexer.index import VaultIndex
from indexer.sync import SyncReport
from memory import organising, reading
from memory.config import MemoryConfig
from memory.consolidation import run as consolidation
from memory.context import ServiceContext
from memory.encode import encoding
from memory.encode.associate import Linker
from memory.encode.filing import Filer
from memory.lifecycle import access_stats as usage, confidence, forgetting, reinforcement
from memory.recall import ranking as recalling
from vault.clock import Clock, utc_now
from vault.config import Settings
from vault.layout import Vault


class MemoryService(ServiceContext):
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
        super().__init__(vault, settings, clock, index, auto_sync, embed_on_write, share_index_work)
        self.linker = Linker(self.store, self.index, self.config)
        self.filer = Filer(self.store, self.index, self.config)  # keeps its topic model warm

    def organise(self, report: SyncReport) -> None:
        organising.organise(self, self.linker, self.filer, report)

    def with_config(self, config: MemoryConfig) -> Self:
        """The same service with other numbers; its linker and filer take them too."""
        view = super().with_config(config)
        view.linker, view.filer = copy.copy(self.linker), copy.copy(self.filer)
        view.linker.config = view.filer.config = config
        return view

    # Encoding: a memory enters the vault.
    jot = encoding.jot
    ingest = encoding.ingest
    append_changelog = encoding.append_changelog
    # Recall: ordinary, associative (confident and activated tiers), cold.
    recall = recalling.recall
    recall_associative = recalling.recall_associative
    recall_cold = recalling.recall_cold
    # Usage: appearances in results (retrieval strengthening) and periodic-note links.
    note_appearances = usage.note_appearances
    access_stats = usage.access_stats
    # Reinforcement: recall hits and confirmed hedges make a memory last longer.
    reinforce = reinforcement.reinforce
    confirm_activation = reinforcement.confirm_activation
    reinforce_hits = reinforcement.reinforce_hits
    # Forgetting: archive (prune, forget), bring back (revive), delete (purge).
    prune = forgetting.prune
    forget = forgetting.forget
    revive_from_cold = forgetting.revive_from_cold
    purge = forgetting.purge
    # Reading: one memory, listings, status.
    show = reading.show
    list_memories = reading.list_memories
    status = reading.status
    # Organising: links and topics across the vault.
    sweep_links = organising.sweep_links
    links = organising.links
    graph = organising.graph
    sweep_topics = organising.sweep_topics
    topics = organising.topics
    # Consolidation: merge, supersede, gist, generalise (journaled, reversible); validation.
    consolidate = consolidation.consolidate
    undo_consolidation = consolidation.undo_run
    consolidation_runs = consolidation.runs
    validate = confidence.validate
