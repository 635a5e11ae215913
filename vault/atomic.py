"""Atomic file writes and inter-process locks. A write fills a unique temp file
in the target's folder, fsyncs it, renames it over the target and fsyncs the
folder: a reader sees the old file or the new one, and the rename survives a
crash. A new file gets the mode the umask gives; a replaced one keeps its mode.
Locks are advisory `flock`s shared by every memory-vault process.
"""

from __future__ import annotations

import contextlib
import fcntl
import os
from collections.abc import Callable, Iterator
from pathlib import Path


def atomic_replace(path: Path, write: Callable[[str], None], mode: int | None = None) -> None:
    """Replace `path` with what `write(temp_path)` puts in a temp file beside it
    (for writers that want a file name: FAISS, numpy), fsynced, then renamed;
    the folder is fsynced too. `mode` defaults to the old file's, else to what
    the umask leaves of 0666 (the kernel applies it when the temp file is made)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = _new_temp_file(path)
    try:
        write(tmp)
        fsync_path(tmp)
        if mode is None:
            with contextlib.suppress(FileNotFoundError):
                mode = os.stat(path).st_mode & 0o7777
        if mode is not None:
            os.chmod(tmp, mode)
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(tmp)
        raise
    fsync_path(path.parent)


def _new_temp_file(path: Path) -> str:
    """A new empty file beside `path`, created 0666 minus the umask (mkstemp
    would force 0600, and reading the umask back is not thread-safe)."""
    while True:
        tmp = os.path.join(path.parent, f".{path.name}.{os.urandom(6).hex()}.tmp")
        try:
            os.close(os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_CLOEXEC, 0o666))
        except FileExistsError:
            continue
        return tmp


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
