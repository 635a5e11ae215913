"""Reading and writing memory files safely.

Every read-modify-write (`update`, `rewrite`) holds the memory's lock, re-reads
the file, applies only the fields we own, and replaces the file atomically,
starting over if an editor saved it in between (checked just before the rename).
A file we cannot use (bad YAML, not text, empty, over 1 MiB, a symbolic link) is
reported (`BrokenFileError`) and never rewritten."""

from __future__ import annotations

import contextlib
import errno
import os
import stat as stat_mode
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from vault import frontmatter
from vault.atomic import ChangedMeanwhile, atomic_write, file_lock, fsync_path
from vault.conflicts import MARKERS_REASON, conflict_copy_of, copy_reason, has_conflict_markers
from vault.errors import BrokenFileError, ConcurrentEditError, MemoryNotFoundError, VaultError
from vault.layout import Vault, symlink_refused
from vault.schema import MemoryRecord, check_values, default_tier, to_record

Mutation = Callable[[MemoryRecord], dict[str, Any]]
_RETRIES = 8
MAX_MEMORY_BYTES = 1024 * 1024  # a memory is a note; a larger file is reported, not embedded


class MemoryStore:
    def __init__(self, vault: Vault) -> None:
        self.vault = vault

    def read_path(self, path: Path) -> MemoryRecord:
        raw, stat = read_memory_file(path)
        return self._parse(path, raw, stat.st_mtime)[0]

    def read(self, memory_id: str, hint: Path | None = None) -> MemoryRecord:
        return self.read_path(self.vault.locate(memory_id, hint))

    def _parse(
        self, path: Path, raw: bytes, mtime: float
    ) -> tuple[MemoryRecord, frontmatter.ParsedFile]:
        try:
            text = raw.decode("utf-8")
            parsed = frontmatter.parse(text)
        except UnicodeDecodeError as exc:
            raise BrokenFileError(path, "not UTF-8 text", "remove it or save it as text") from exc
        except frontmatter.FrontmatterError as exc:
            if has_conflict_markers(text):
                raise BrokenFileError(path, *MARKERS_REASON) from exc
            raise BrokenFileError(path, str(exc)) from exc
        if "\x00" in text:
            raise BrokenFileError(path, "binary data (NUL bytes)", "remove it or save it as text")
        if has_conflict_markers(text):
            raise BrokenFileError(path, *MARKERS_REASON)
        original = conflict_copy_of(path, parsed.meta)
        if original is not None:
            raise BrokenFileError(path, *copy_reason(original))
        if not parsed.body.strip():
            raise BrokenFileError(path, "empty: no text to remember", "write a note or remove it")
        modified = datetime.fromtimestamp(mtime, UTC).replace(microsecond=0)
        record = to_record(parsed.meta, parsed.body, path, self.vault.is_archived(path), modified)
        return record, parsed

    def create(self, memory_id: str, meta: dict[str, Any], body: str) -> Path:
        """Write a new memory; raises FileExistsError if the id is taken (by a
        file or by a link: a link is never written through)."""
        check_values(meta)
        path = self.vault.new_memory_path(memory_id)
        with file_lock(self.vault.lock_path(memory_id)):
            if os.path.lexists(path) or os.path.lexists(self.vault.archive_dir / path.name):
                raise FileExistsError(path)
            atomic_write(path, frontmatter.render(meta, body).encode("utf-8"))
        return path

    def update(self, memory_id: str, mutate: Mutation, hint: Path | None = None) -> MemoryRecord:
        """Apply `mutate(current) -> changed fields` under the memory's lock."""
        return self._read_modify_write(memory_id, mutate, None, hint)

    def rewrite(self, memory_id: str, changes: dict[str, Any], body: str) -> MemoryRecord:
        """Replace a memory's body and set fields we own (re-ingesting a note)."""
        return self._read_modify_write(memory_id, lambda _: changes, body)

    def append_body(self, memory_id: str, entry: str, changes: dict[str, Any]) -> MemoryRecord:
        """Add `entry` as the body's last line (a changelog) and set `changes`; an
        editor's save meanwhile is kept, the entry going after it."""

        def appended(body: str) -> str:
            return body.rstrip("\n") + "\n" + entry.strip("\n") + "\n"

        return self._read_modify_write(memory_id, lambda _: changes, appended)

    def _read_modify_write(
        self,
        memory_id: str,
        mutate: Mutation,
        body: str | Callable[[str], str] | None,
        hint: Path | None = None,
    ) -> MemoryRecord:
        """Under the memory's lock: read, change, and replace the file unless an
        editor saved it in between (then start over on the editor's version)."""
        with file_lock(self.vault.lock_path(memory_id)):
            for _ in range(_RETRIES):
                path = self.vault.locate(memory_id, hint)
                raw, before = read_memory_file(path)
                record, parsed = self._parse(path, raw, before.st_mtime)
                changes = mutate(record)
                if not changes and body is None:
                    return record
                new_text = _updated(path, raw.decode("utf-8"), record, parsed, changes)
                if body is not None:
                    new_body = body(parsed.body) if callable(body) else body
                    new_text = new_text[: len(new_text) - len(parsed.body)] + new_body
                try:
                    atomic_write(path, new_text.encode("utf-8"), unchanged=before)
                except ChangedMeanwhile:
                    continue
                return self.read_path(path)
        raise ConcurrentEditError(f"{memory_id}: the file kept changing; try again")

    def move(
        self,
        memory_id: str,
        to_archive: bool,
        mutate: Mutation | None = None,
        hint: Path | None = None,
    ) -> MemoryRecord:
        """Move a memory between memories/ and archive/, optionally updating fields;
        `hint`: where it probably is (found without walking the vault's folders)."""
        with file_lock(self.vault.lock_path(memory_id)):
            path = self.vault.locate(memory_id, hint=hint)
            if self.vault.is_archived(path) == to_archive:
                where = "archive/" if to_archive else "memories/"
                raise VaultError(f"{memory_id} is already in {where}")
            target = self.vault.counterpart(path)
            if os.path.lexists(target):
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


def read_memory_file(path: Path) -> tuple[bytes, os.stat_result]:
    """A memory file's bytes and stat, never through a symbolic link, never
    blocking on a FIFO, and refusing anything over MAX_MEMORY_BYTES."""
    flags = os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC
    try:
        fd = os.open(path, flags)
    except FileNotFoundError as exc:
        raise MemoryNotFoundError(f"{path} no longer exists") from exc
    except OSError as exc:
        if exc.errno == errno.ELOOP:
            raise symlink_refused(path) from None
        raise
    try:
        stat = os.fstat(fd)
        if not stat_mode.S_ISREG(stat.st_mode):
            raise BrokenFileError(path, "not a regular file", "remove it")
        if stat.st_size > MAX_MEMORY_BYTES:
            raise BrokenFileError(
                path, f"larger than {MAX_MEMORY_BYTES // 2**20} MB", "split it into smaller notes"
            )
        with os.fdopen(os.dup(fd), "rb") as handle:
            raw = handle.read(MAX_MEMORY_BYTES + 1)
    finally:
        os.close(fd)
    if len(raw) > MAX_MEMORY_BYTES:
        raise BrokenFileError(path, "grew while being read", "try again")
    return raw, stat


def _updated(
    path: Path,
    text: str,
    record: MemoryRecord,
    parsed: frontmatter.ParsedFile,
    changes: dict[str, Any],
) -> str:
    """`text` with `changes`. A note without `created` gets the one it was read
    with (its mtime), so a rewrite never moves it to "now"; a note without a
    `tier` gets the one it was read with when the fields we add would change
    what `default_tier` says (a curated note never turns episodic)."""
    check_values(changes)
    pinned: dict[str, Any] = {} if parsed.meta.get("created") else {"created": record.created}
    if not parsed.meta.get("tier") and default_tier({**parsed.meta, **changes}) != record.tier:
        pinned["tier"] = record.tier
    try:
        return frontmatter.update(text, {**pinned, **changes})
    except frontmatter.FrontmatterError as exc:
        raise BrokenFileError(path, str(exc)) from exc
