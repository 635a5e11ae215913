"""The index's side of the folders indexed in place: which documents changed
(by stat, like memory files), the manifest row of a document, and what
embedding needs of a memory or a document. Reading a document is
vault/indexed_folders.py's; reconciling it is indexer/sync.py's.
"""

from __future__ import annotations

import os
from datetime import UTC, datetime
from pathlib import Path
from typing import Protocol

from indexer.catalog import Catalog, ManifestRow
from vault.clock import format_time
from vault.indexed_folders import (
    DOCUMENT_KIND,
    FOLDER_SOURCE,
    Document,
    IndexedFolders,
    is_document_path,
    path_key,
)


class Embeddable(Protocol):
    """What embedding needs of a memory or a document."""

    @property
    def id(self) -> str: ...
    @property
    def body(self) -> str: ...
    @property
    def tags(self) -> tuple[str, ...]: ...


Pending = tuple[Embeddable, ManifestRow, bool]  # (text, its row, whether it is new)


def changed_documents(catalog: Catalog, folders: IndexedFolders | None) -> list[Path]:
    """Documents of the indexed folders whose stat differs from the manifest, and
    indexed ones no longer there or no longer in a configured folder (the setting
    changed): those are listed to be removed."""
    known = catalog.stats_under("", nested=True)  # the documents' rows only, by index
    known_problems = document_keys(catalog.problem_stats())
    changed: list[Path] = []
    seen: set[str] = set()
    for path in folders.documents() if folders else ():
        key = path_key(path)
        seen.add(key)
        try:
            stat = os.stat(path, follow_symlinks=False)
        except FileNotFoundError:
            continue
        signature = (stat.st_mtime_ns, stat.st_size)
        if known.get(key) != signature and known_problems.get(key) != signature:
            changed.append(path)
    changed.extend(Path(key) for key in (set(known) | set(known_problems)) - seen)
    return changed


def vault_keys(stats: dict[str, tuple[int, int]]) -> dict[str, tuple[int, int]]:
    return {key: value for key, value in stats.items() if not is_document_path(key)}


def document_keys(stats: dict[str, tuple[int, int]]) -> dict[str, tuple[int, int]]:
    """Documents are keyed by absolute path; memories by vault-relative path."""
    return {key: value for key, value in stats.items() if is_document_path(key)}


def document_row(document: Document, key: str, stat: os.stat_result, digest: str) -> ManifestRow:
    """A folder document's manifest row: curated, evergreen (it never fades, so no
    lifecycle step ever has a reason to write it), dated by its mtime."""
    dated = format_time(datetime.fromtimestamp(stat.st_mtime, UTC))
    return ManifestRow(
        id=document.id, path=key, archived=False, mtime_ns=stat.st_mtime_ns,
        size=stat.st_size, body_hash=digest, created=dated, last_access=dated,
        stability=None, tier="curated", kind=DOCUMENT_KIND, topic="", tags=(), project="",
        session="", source=FOLDER_SOURCE, recalls=0, confirmations=0, salience=1.0, links=(),
        evergreen=True,
    )  # fmt: skip
