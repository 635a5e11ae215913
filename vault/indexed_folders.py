"""Folders indexed in place (the `index_paths` setting): which files in them are
documents, and their text. Documents are only ever read: nothing here opens a
file for writing. Walking never follows a symbolic link (to a folder or a
file), never enters hidden or skipped folders, and stays within the depth;
a file is read only if it is still a regular file when opened. Anything inside
the vault itself is left to the vault's own indexing.
"""

from __future__ import annotations

import hashlib
import os
import re
import stat as stat_mode
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from vault.config import Settings
from vault.errors import MemoryNotFoundError, VaultError

FOLDER_SOURCE = "folder"  # the `source` of every indexed document
DOCUMENT_KIND = "document"
MAX_DOCUMENT_BYTES = 2_000_000  # a larger file is reported once and skipped
_TEMP = (".swp", ".swx", ".swo", ".tmp", ".part", ".crdownload", "~", ".bak")


class DocumentError(VaultError):
    """A document that cannot be indexed (unreadable, not text, too large)."""


class ReadOnlyDocumentError(MemoryNotFoundError):
    """An id of a folder document where a memory to write was meant: documents are
    read, never written (no reinforcement, no confirmation, no archive)."""


@dataclass(frozen=True)
class Document:
    """A document's text as the index stores it: `id` derived from its path."""

    id: str
    path: Path
    body: str
    tags: tuple[str, ...] = ()


@dataclass(frozen=True)
class IndexedFolders:
    roots: tuple[Path, ...]  # absolute, symbolic links of the folders themselves resolved
    extensions: tuple[str, ...]
    max_depth: int
    skip_dirs: frozenset[str]
    vault_root: Path | None = None  # never indexed as documents

    @classmethod
    def from_settings(cls, settings: Settings, vault_root: Path | None = None) -> IndexedFolders:
        roots = tuple(
            dict.fromkeys(
                Path(os.path.realpath(os.path.expanduser(p))) for p in settings.index_paths if p
            )
        )
        extensions = tuple(e.lower() if e.startswith(".") else f".{e.lower()}"
                           for e in settings.index_extensions if e)  # fmt: skip
        vault = Path(os.path.realpath(vault_root)) if vault_root is not None else None
        return cls(roots, extensions, settings.index_max_depth,
                   frozenset(settings.index_skip_dirs), vault)  # fmt: skip

    def __bool__(self) -> bool:
        return bool(self.roots)

    def root_of(self, path: Path) -> Path | None:
        """The configured folder `path` lies in (the deepest, when they nest)."""
        found = [root for root in self.roots if root in path.parents]
        return max(found, key=lambda root: len(root.parts)) if found else None

    def admits(self, path: Path) -> bool:
        """Whether `path` (absolute) is a document by name and place alone: in a
        configured folder, within the depth, outside hidden and skipped folders and
        the vault, with an indexed ending, not an editor's temporary file."""
        root = self.root_of(path)
        if root is None or self._in_vault(path):
            return False
        parts = path.relative_to(root).parts
        if len(parts) - 1 > self.max_depth:
            return False
        if any(part.startswith(".") or part in self.skip_dirs for part in parts[:-1]):
            return False
        return self._named_as_document(parts[-1])

    def _named_as_document(self, name: str) -> bool:
        lowered = name.lower()
        return (
            not name.startswith((".", "#", "~"))
            and lowered.endswith(self.extensions)
            and not lowered.endswith(_TEMP)
        )

    def _in_vault(self, path: Path) -> bool:
        return self.vault_root is not None and (
            path == self.vault_root or self.vault_root in path.parents
        )

    def documents(self) -> Iterator[Path]:
        """Every document in the configured folders (regular files, no links)."""
        seen: set[Path] = set()
        for root in self.roots:
            stack = [(root, 0)]
            while stack:
                folder, depth = stack.pop()
                if folder in seen or self._in_vault(folder):
                    continue
                seen.add(folder)
                try:
                    entries = list(os.scandir(folder))
                except OSError:
                    continue  # missing or unreadable folder: nothing to index there
                for entry in entries:
                    if entry.is_dir(follow_symlinks=False):
                        if (
                            depth < self.max_depth
                            and not entry.name.startswith(".")
                            and (entry.name not in self.skip_dirs)
                        ):
                            stack.append((Path(entry.path), depth + 1))
                    elif entry.is_file(follow_symlinks=False) and self._named_as_document(
                        entry.name
                    ):
                        yield Path(entry.path)

    def watched(self) -> tuple[Path, ...]:
        """The configured folders that exist (what a watcher observes)."""
        return tuple(root for root in self.roots if root.is_dir())


def is_document_path(key: str) -> bool:
    """Whether an index path names a document (absolute) or a memory (vault-relative)."""
    return key.startswith("/")


def path_key(path: Path) -> str:
    """How the index names a document: its absolute POSIX path."""
    return path.as_posix()


def document_id(path: Path) -> str:
    """A stable id from the path: readable stem, and a digest that keeps two
    files of the same name apart."""
    digest = hashlib.sha256(path_key(path).encode("utf-8", "surrogateescape")).hexdigest()[:10]
    stem = re.sub(r"[^a-z0-9]+", "-", path.stem.lower()).strip("-")[:40] or "file"
    return f"folder-{stem}-{digest}"


def read_document(path: Path, max_bytes: int = MAX_DOCUMENT_BYTES) -> Document:
    """The text of a document, opened read-only without following a link; a
    file that is not regular, too large or not UTF-8 text is a DocumentError."""
    flags = os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC
    try:
        fd = os.open(path, flags)
    except OSError as exc:
        raise DocumentError(f"cannot be read ({exc.strerror})") from None
    with os.fdopen(fd, "rb") as handle:
        opened = os.fstat(handle.fileno())
        if not stat_mode.S_ISREG(opened.st_mode):
            raise DocumentError("not a regular file; not read")
        if opened.st_size > max_bytes:
            raise DocumentError(f"larger than {max_bytes} bytes; not indexed")
        data = handle.read(max_bytes + 1)
    if len(data) > max_bytes:
        raise DocumentError(f"larger than {max_bytes} bytes; not indexed")
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise DocumentError(f"not UTF-8 text (byte {exc.start}); not indexed") from None
    if "\x00" in text:
        raise DocumentError("binary (holds NUL bytes); not indexed")
    return Document(document_id(path), path, text)
