"""Reading and writing memory files safely.

Every read-modify-write holds the memory's lock, re-reads the file, applies
only the fields we own, and replaces the file atomically, retrying if an editor
changed it in between. A file whose frontmatter is broken is reported
(`BrokenFileError`) and never rewritten.
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from vault import frontmatter
from vault.atomic import atomic_write, file_lock, fsync_path
from vault.conflicts import MARKERS_REASON, conflict_copy_of, copy_reason, has_conflict_markers
from vault.errors import BrokenFileError, ConcurrentEditError, MemoryNotFoundError, VaultError
from vault.layout import Vault
from vault.schema import MemoryRecord, to_record

Mutation = Callable[[MemoryRecord], dict[str, Any]]
_RETRIES = 8


class MemoryStore:
    def __init__(self, vault: Vault) -> None:
        self.vault = vault

    def read_path(self, path: Path) -> MemoryRecord:
        try:
            raw = path.read_bytes()
            stat = os.stat(path)
        except FileNotFoundError as exc:
            raise MemoryNotFoundError(f"{path} no longer exists") from exc
        return self._record(path, raw, stat.st_mtime)

    def read(self, memory_id: str, hint: Path | None = None) -> MemoryRecord:
        return self.read_path(self.vault.locate(memory_id, hint))

    def _record(self, path: Path, raw: bytes, mtime: float) -> MemoryRecord:
        try:
            text = raw.decode("utf-8")
            parsed = frontmatter.parse(text)
        except UnicodeDecodeError as exc:
            raise BrokenFileError(path, "not UTF-8 text") from exc
        except frontmatter.FrontmatterError as exc:
            if has_conflict_markers(text):
                raise BrokenFileError(path, MARKERS_REASON) from exc
            raise BrokenFileError(path, str(exc)) from exc
        if has_conflict_markers(text):
            raise BrokenFileError(path, MARKERS_REASON)
        original = conflict_copy_of(path, parsed.meta)
        if original is not None:
            raise BrokenFileError(path, copy_reason(original))
        modified = datetime.fromtimestamp(mtime, UTC).replace(microsecond=0)
        return to_record(parsed.meta, parsed.body, path, self.vault.is_archived(path), modified)

    def create(self, memory_id: str, meta: dict[str, Any], body: str) -> Path:
        """Write a new memory; raises FileExistsError if the id is taken."""
        path = self.vault.new_memory_path(memory_id)
        with file_lock(self.vault.lock_path(memory_id)):
            if path.exists() or (self.vault.archive_dir / path.name).exists():
                raise FileExistsError(path)
            atomic_write(path, frontmatter.render(meta, body).encode("utf-8"))
        return path

    def update(self, memory_id: str, mutate: Mutation, hint: Path | None = None) -> MemoryRecord:
        """Apply `mutate(current) -> changed fields` under the memory's lock."""
        with file_lock(self.vault.lock_path(memory_id)):
            for _ in range(_RETRIES):
                path = self.vault.locate(memory_id, hint)
                raw = path.read_bytes()
                before = os.stat(path)
                record = self._record(path, raw, before.st_mtime)
                changes = mutate(record)
                if not changes:
                    return record
                try:
                    new_text = frontmatter.update(raw.decode("utf-8"), changes)
                except frontmatter.FrontmatterError as exc:
                    raise BrokenFileError(path, str(exc)) from exc
                if _signature(os.stat(path)) != _signature(before):
                    continue  # an editor saved in between: start over on its version
                atomic_write(path, new_text.encode("utf-8"))
                return self._record(path, new_text.encode("utf-8"), os.stat(path).st_mtime)
        raise ConcurrentEditError(f"{memory_id}: the file kept changing; try again")

    def rewrite(self, memory_id: str, changes: dict[str, Any], body: str) -> MemoryRecord:
        """Replace a memory's body and set fields we own (re-ingesting a note)."""
        with file_lock(self.vault.lock_path(memory_id)):
            path = self.vault.locate(memory_id)
            raw = path.read_text(encoding="utf-8")
            try:
                parsed = frontmatter.parse(raw)
                updated = frontmatter.update(raw, changes)
            except frontmatter.FrontmatterError as exc:
                raise BrokenFileError(path, str(exc)) from exc
            head = updated[: len(updated) - len(parsed.body)] if parsed.has_frontmatter else ""
            new_text = head + body
            atomic_write(path, new_text.encode("utf-8"))
            return self._record(path, new_text.encode("utf-8"), os.stat(path).st_mtime)

    def move(
        self, memory_id: str, to_archive: bool, mutate: Mutation | None = None
    ) -> MemoryRecord:
        """Move a memory between memories/ and archive/, optionally updating fields."""
        with file_lock(self.vault.lock_path(memory_id)):
            path = self.vault.locate(memory_id)
            if self.vault.is_archived(path) == to_archive:
                where = "archive/" if to_archive else "memories/"
                raise VaultError(f"{memory_id} is already in {where}")
            target = self.vault.counterpart(path)
            if target.exists():
                raise VaultError(f"{target} already exists; rename one of the two files")
            target.parent.mkdir(parents=True, exist_ok=True)
            os.replace(path, target)
            fsync_path(target.parent)
            fsync_path(path.parent)
        if mutate is not None:
            return self.update(memory_id, mutate, hint=target)
        return self.read_path(target)

    def delete(self, memory_id: str) -> Path:
        with file_lock(self.vault.lock_path(memory_id)):
            path = self.vault.locate(memory_id)
            with contextlib.suppress(FileNotFoundError):
                path.unlink()
            fsync_path(path.parent)
        return path


def _signature(stat: os.stat_result) -> tuple[int, int, int]:
    return (stat.st_mtime_ns, stat.st_size, stat.st_ino)
