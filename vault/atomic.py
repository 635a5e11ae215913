"""Atomic file writes and inter-process locks. A write fills a unique temp file
in the target's folder, fsyncs it, renames it over the target and fsyncs the
folder: a reader sees the old file or the new one, and the rename survives a
crash. Locks are advisory `flock`s shared by every memory-vault process.
"""

from __future__ import annotations

import contextlib
import fcntl
import os
import tempfile
from collections.abc import Callable, Iterator
from pathlib import Path


def atomic_replace(path: Path, write: Callable[[str], None], mode: int | None = None) -> None:
    """Replace `path` with what `write(temp_path)` puts in a temp file beside it
    (for writers that want a file name: FAISS, numpy), fsynced, then renamed;
    the folder is fsynced too. `mode` defaults to the old file's, else 0644."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    os.close(fd)
    try:
        write(tmp)
        fsync_path(tmp)
        if mode is not None:
            os.chmod(tmp, mode)
        elif path.exists():
            os.chmod(tmp, path.stat().st_mode & 0o7777)
        else:
            os.chmod(tmp, 0o644)
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(tmp)
        raise
    fsync_path(path.parent)


def atomic_write(path: Path, data: bytes, mode: int | None = None) -> None:
    """Replace `path` with `data` (see atomic_replace)."""

    def write(tmp: str) -> None:
        with open(tmp, "wb") as handle:
            handle.write(data)

    atomic_replace(path, write, mode)


def fsync_path(path: Path | str) -> None:
    """Flush a file's data to disk, or a folder's entries (a rename in it)."""
    fd = os.open(path, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


@contextlib.contextmanager
def file_lock(lock_path: Path, shared: bool = False) -> Iterator[None]:
    """Hold an exclusive (or shared) flock on `lock_path` for the block."""
    lock_path.parent.mkdir(parents=True, exist_ok=True)
    fd = os.open(lock_path, os.O_RDWR | os.O_CREAT, 0o600)
    try:
        fcntl.flock(fd, fcntl.LOCK_SH if shared else fcntl.LOCK_EX)
        yield
    finally:
        fcntl.flock(fd, fcntl.LOCK_UN)
        os.close(fd)
