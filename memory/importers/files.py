"""What an import may read: regular files inside the folder the source is about
(links resolved, containment by path components, never a string prefix), never
a folder of the system, UTF-8 text only, and no more bytes than the caller
allows. A refusal is an ImportSourceError naming the file and the problem: one
line on stderr. It never decides what a file means (the format readers do).
"""

from __future__ import annotations

import os
from pathlib import Path

from vault.errors import VaultError
from vault.source_files import SPECIAL_ROOTS, RefusedSourceError, read_source

SYSTEM_FOLDERS = (
    *SPECIAL_ROOTS,
    *("/etc", "/boot", "/usr", "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/run", "/srv"),
    *("/var/lib", "/var/log", "/var/spool", "/var/db", "/private/etc", "/System", "/Library"),
)
MANY_MEMORIES_BYTES = 256 * 2**20  # a file of many memories: a bank, a JSONL, a CLAUDE.md


class ImportSourceError(VaultError):
    """A file or folder an import will not read (the message names it)."""


def source_folder(folder: Path) -> Path:
    """`folder` resolved; refused when it is, holds or lies in a system folder."""
    resolved = Path(os.path.realpath(folder.expanduser()))
    for system in SYSTEM_FOLDERS:
        for candidate in {Path(system), Path(os.path.realpath(system))}:
            if within(resolved, candidate) or within(candidate, resolved):
                raise ImportSourceError(
                    f"{folder}: a folder of the system; imports read only your own files"
                )
    return resolved


def read_text(path: Path, folder: Path | None = None, max_bytes: int = MANY_MEMORIES_BYTES) -> str:
    """The UTF-8 text of a regular file inside `folder` (for a file named on its
    own, None: its own folder), at most `max_bytes` long."""
    resolved = Path(os.path.realpath(path.expanduser()))
    inside = source_folder(resolved.parent if folder is None else folder)
    if not within(resolved, inside):
        raise ImportSourceError(f"{path}: a link to {resolved}, outside {folder}; not read")
    try:
        data = read_source(resolved, None, max_bytes)
    except RefusedSourceError as exc:
        raise ImportSourceError(str(exc).replace(str(resolved), str(path), 1)) from None
    except OSError as exc:
        raise ImportSourceError(f"{path}: cannot be read ({exc.strerror})") from None
    if b"\x00" in data:
        raise ImportSourceError(f"{path}: binary (it holds NUL bytes), not text")
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise ImportSourceError(f"{path}: not UTF-8 text (byte {exc.start})") from None


def within(path: Path, folder: Path) -> bool:
    return path == folder or folder in path.parents
