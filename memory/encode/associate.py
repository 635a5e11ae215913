"""Association: links between similar memories, as Obsidian wikilinks.

A memory links to its nearest other memories whose cosine clears the link bar
(`links_max` of them) and every link is mirrored, so the graph in the files is
the symmetric nearest-neighbour graph. Encoding links the new memory at once;
the sweep recomputes the whole graph (after edits, merges, purges). Archived
memories stay in the graph: archive/ is inside the vault, so Obsidian still
resolves their links. Only our `links` field is ever written.
"""

from __future__ import annotations

import logging
from collections import defaultdict
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from indexer.catalog import ManifestRow
from indexer.index import VaultIndex
from indexer.sync import Progress
from memory.config import MemoryConfig
from vault.errors import BrokenFileError, MemoryNotFoundError, VaultError
from vault.links import link_targets, wikilink
from vault.schema import MemoryRecord
from vault.store import MemoryStore

log = logging.getLogger(__name__)


@dataclass
class LinkReport:
    memories: int = 0
    edges: int = 0  # undirected pairs after the sweep
    changed: list[str] = field(default_factory=list)  # memories whose links changed
    skipped: list[str] = field(default_factory=list)  # files vanished or broken meanwhile

    def to_dict(self) -> dict[str, Any]:
        return {
            "memories": self.memories,
            "edges": self.edges,
            "changed": len(self.changed),
            "changed_ids": self.changed[:50],
            "skipped": self.skipped,
        }


@dataclass(frozen=True)
class Edge:
    source: str
    target: str
    mutual: bool


class Linker:
    def __init__(self, store: MemoryStore, index: VaultIndex, config: MemoryConfig) -> None:
        self.store = store
        self.index = index
        self.config = config

    def link_new(self, memory_ids: list[str], only_unlinked: bool = False) -> dict[str, list[str]]:
        """Link just-encoded memories to their neighbours, both ways.

        `only_unlinked` skips memories that already carry links (after a sync
        that embedded memories written without vectors, or a rebuild)."""
        if self.config.links_max < 1 or not memory_ids:
            return {}
        if only_unlinked:
            rows = self.index.rows_for(memory_ids)
            memory_ids = [m for m in memory_ids if m in rows and not rows[m].links]
        found = self.index.neighbours(memory_ids, self.config.links_max, self.config.link_bar)
        paths = []
        done: dict[str, list[str]] = {}
        for memory_id in memory_ids:
            linked = []
            for target, _ in found.get(memory_id, []):
                record = self._add_link(target, memory_id)
                if record is not None:
                    paths.append(record.path)
                    linked.append(target)
            if linked:
                record = self._set_links(memory_id, _merge(self._current(memory_id), linked))
                if record is not None:
                    paths.append(record.path)
                    done[memory_id] = linked
        if paths:
            self.index.apply(paths, allow_embed=False)
        return done

    def sweep(self, dry_run: bool = False, progress: Progress | None = None) -> LinkReport:
        """Recompute every memory's links from the current index; `progress(done,
        total)` hears after each memory."""
        rows = {row.id: row for row in self.index.rows(archived=None)}
        report = LinkReport(memories=len(rows))
        wanted = self.graph_targets(set(rows))
        report.edges = sum(len(v) for v in wanted.values()) // 2
        paths = []
        for done, (memory_id, row) in enumerate(sorted(rows.items()), 1):
            if progress is not None:
                progress(done, len(rows))
            target = wanted.get(memory_id, [])
            if set(link_targets(row.links)) == set(target) and len(row.links) == len(target):
                continue
            report.changed.append(memory_id)
            if dry_run:
                continue
            record = self._set_links(memory_id, target)
            if record is None:
                report.skipped.append(memory_id)
            else:
                paths.append(record.path)
        if paths:
            self.index.apply(paths, allow_embed=False)
        return report

    def graph_targets(self, known: set[str]) -> dict[str, list[str]]:
        """The symmetric k-nearest-neighbour graph over `known`, best link first."""
        found = self.index.neighbours(
            None, self.config.links_max, self.config.link_bar, allowed=known
        )
        similarity: dict[str, dict[str, float]] = defaultdict(dict)
        for source, pairs in found.items():
            if source not in known:
                continue
            for other, cosine in pairs:
                similarity[source][other] = max(cosine, similarity[source].get(other, -1.0))
                similarity[other][source] = max(cosine, similarity[other].get(source, -1.0))
        return {
            memory: sorted(others, key=lambda o: (-others[o], o))
            for memory, others in similarity.items()
        }

    # Reading ------------------------------------------------------------

    def links_of(self, memory_id: str) -> tuple[list[ManifestRow | str], list[ManifestRow]]:
        """(links, backlinks): a link to a memory that no longer exists stays a bare id."""
        row = self.index.row(memory_id)
        if row is None:
            raise VaultError(f"{memory_id} is not in the vault")
        rows = {r.id: r for r in self.index.rows(archived=None)}
        links: list[ManifestRow | str] = [rows.get(t, t) for t in link_targets(row.links)]
        backlinks = [
            r for r in rows.values() if r.id != memory_id and memory_id in link_targets(r.links)
        ]
        backlinks.sort(key=lambda r: r.id)
        return links, backlinks

    def edges(self) -> tuple[list[ManifestRow], list[Edge]]:
        rows = sorted(self.index.rows(archived=None), key=lambda r: r.id)
        known = {r.id for r in rows}
        written = {(r.id, t) for r in rows for t in link_targets(r.links) if t in known}
        edges = []
        for source, target in sorted(written):
            mutual = (target, source) in written
            if mutual and target < source:
                continue  # a mutual pair is one edge
            edges.append(Edge(source, target, mutual))
        return rows, edges

    # Files --------------------------------------------------------------

    def _current(self, memory_id: str) -> list[str]:
        row = self.index.row(memory_id)
        return link_targets(row.links) if row else []

    def _add_link(self, memory_id: str, other: str) -> MemoryRecord | None:
        def mutate(record: MemoryRecord) -> dict[str, Any]:
            current = link_targets(record.links)
            if other in current:
                return {}
            return {"links": [wikilink(t) for t in [*current, other]]}

        return self._update(memory_id, mutate)

    def _set_links(self, memory_id: str, targets: list[str]) -> MemoryRecord | None:
        rendered = [wikilink(t) for t in targets]

        def mutate(record: MemoryRecord) -> dict[str, Any]:
            return {} if list(record.links) == rendered else {"links": rendered}

        return self._update(memory_id, mutate)

    def _update(
        self, memory_id: str, mutate: Callable[[MemoryRecord], dict[str, Any]]
    ) -> MemoryRecord | None:
        row = self.index.row(memory_id)  # where the index saw it: no walk of every folder
        hint = self.store.vault.root / row.path if row else None
        try:
            return self.store.update(memory_id, mutate, hint)
        except (MemoryNotFoundError, BrokenFileError) as exc:  # vanished or broken: left alone
            log.warning("links of %s not updated: %s", memory_id, exc)
            return None


def _merge(current: list[str], new: list[str]) -> list[str]:
    return current + [t for t in new if t not in current]
