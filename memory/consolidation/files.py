"""Journaled writes of memory files for a consolidation run: each write holds
the memory's lock, checks the body is still the one the plan saw, records the
previous text in the journal first, then writes atomically. Only our own
frontmatter fields change; every other line of a file stays as it was.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from indexer.sync import body_hash
from memory.consolidation.journal import Journal, exists_in_vault
from vault import frontmatter
from vault.atomic import atomic_write, file_lock, fsync_path
from vault.errors import VaultError
from vault.layout import Vault
from vault.schema import MemoryRecord, to_record

Changes = Callable[[MemoryRecord], dict[str, Any]]


class StaleMemory(Exception):
    """A memory changed (or vanished) since the plan was made; its action is skipped."""


class JournaledFiles:
    def __init__(
        self, vault: Vault, journal: Journal, where: dict[str, Path] | None = None
    ) -> None:
        self.vault = vault
        self.journal = journal
        self.touched: list[Path] = []
        # Where each memory was last seen (the index's paths, then this run's writes):
        # a memory in a subfolder is found without walking the whole vault.
        self.where = dict(where or {})

    def locate(self, memory_id: str) -> Path:
        path = self.vault.locate(memory_id, hint=self.where.get(memory_id))
        self.where[memory_id] = path
        return path

    def read(self, memory_id: str, expect_hash: str | None = None) -> tuple[MemoryRecord, str]:
        """The memory's record and file text, checked against the planned body."""
        try:
            path = self.locate(memory_id)
            text = path.read_bytes().decode("utf-8")
            parsed = frontmatter.parse(text)
        except (VaultError, OSError, UnicodeDecodeError, frontmatter.FrontmatterError) as exc:
            raise StaleMemory(f"{memory_id}: {exc}") from None
        if expect_hash is not None and body_hash(parsed.body) != expect_hash:
            raise StaleMemory(f"{memory_id} was edited since the plan was made")
        mtime = datetime.fromtimestamp(os.stat(path).st_mtime, UTC)
        archived = self.vault.is_archived(path)
        return to_record(parsed.meta, parsed.body, path, archived, mtime), text

    def update(
        self,
        memory_id: str,
        changes: Changes,
        body: str | None = None,
        to_archive: bool | None = None,
        expect_hash: str | None = None,
    ) -> Path:
        """Set our fields (and the body), optionally moving the file between
        memories/ and archive/; returns where it now lives."""
        with file_lock(self.vault.lock_path(memory_id)):
            record, text = self.read(memory_id, expect_hash)
            new_text = frontmatter.update(text, changes(record))
            if body is not None:
                old_body = frontmatter.parse(text).body
                new_text = new_text[: len(new_text) - len(old_body)] + body
            path = record.path
            target = path
            if to_archive is not None and record.archived != to_archive:
                target = self.vault.counterpart(path)
                if target.exists():
                    raise StaleMemory(f"{target} already exists")
            self._write(path, target, new_text.encode("utf-8"))
            self.where[memory_id] = target
        return target

    def create(self, memory_id: str, text: str, archived: bool = False) -> Path:
        folder = self.vault.archive_dir if archived else self.vault.memories_dir
        path = folder / f"{memory_id}.md"
        with file_lock(self.vault.lock_path(memory_id)):
            if exists_in_vault(self.vault, memory_id):
                raise StaleMemory(f"a memory {memory_id} already exists")
            self._write(None, path, text.encode("utf-8"))
            self.where[memory_id] = path
        return path

    def _write(self, source: Path | None, target: Path, data: bytes) -> None:
        paths = [p for p in (source, target) if p is not None]
        self.journal.remember(paths)
        moving = source is not None and source != target
        self.journal.intend({**({source: None} if moving and source else {}), target: data})
        target.parent.mkdir(parents=True, exist_ok=True)
        atomic_write(target, data)
        if moving and source is not None:
            source.unlink()
            fsync_path(source.parent)
        self.touched += paths
