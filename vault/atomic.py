"""Atomic file writes and inter-process locks. A write fills a unique temp file
in the target's folder, fsyncs it, renames it over the target and fsyncs the
folder: a reader sees the old file or the new one, and the rename survives a
crash. A writer holds a flock on its temp file, so the next start removes the
temp files of killed writers and never a live one's. A new file gets the mode
the umask gives; a replaced one keeps its mode. Locks are advisory `flock`s.
A read-modify-write passes the stat it read with (`unchanged`): an editor's save
since then is seen just before the rename (`ChangedMeanwhile`) and never lost.
"""

from __future__ import annotations

import contextlib
import fcntl
import os
import re
from collections.abc import Callable, Iterator
from pathlib import Path

TEMP_NAME = re.compile(r"^\..+\.[0-9a-f]{12}\.tmp$")


class ChangedMeanwhile(Exception):
    """The file is no longer the version the caller read: nothing was written."""


def version(stat: os.stat_result) -> tuple[int, int, int]:
    """What tells two versions of a file apart (an atomic save makes a new inode)."""
    return (stat.st_mtime_ns, stat.st_size, stat.st_ino)


def _same_version(path: Path, unchanged: os.stat_result) -> bool:
    try:
        return version(os.lstat(path)) == version(unchanged)
    except FileNotFoundError:
        return False


def atomic_replace(
    path: Path,
    write: Callable[[str], None],
    mode: int | None = None,
    unchanged: os.stat_result | None = None,
) -> None:
    """Replace `path` with what `write(temp_path)` puts in a temp file beside it
    (for writers that want a file name: FAISS, numpy), fsynced, then renamed;
    the folder is fsynced too. `mode` defaults to the old file's, else to what
    the umask leaves of 0666 (the kernel applies it when the temp file is made).
    `unchanged`: the stat the new content was made from; ChangedMeanwhile when
    the file differs from it just before the rename."""
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp, held = _new_temp_file(path)
    try:
        write(tmp)
        fsync_path(tmp)
        if mode is None:
            with contextlib.suppress(FileNotFoundError):
                mode = os.stat(path).st_mode & 0o7777
        if mode is not None:
            os.chmod(tmp, mode)
        if unchanged is not None and not _same_version(path, unchanged):
            raise ChangedMeanwhile(path)
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(tmp)
        raise
    finally:
        os.close(held)  # releases the temp file's flock
    fsync_path(path.parent)


def _new_temp_file(path: Path) -> tuple[str, int]:
    """A new empty file beside `path`, created 0666 minus the umask (mkstemp
    would force 0600, and reading the umask back is not thread-safe), and an
    open descriptor holding its flock while the write lasts."""
    while True:
        tmp = os.path.join(path.parent, f".{path.name}.{os.urandom(6).hex()}.tmp")
        try:
            fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_CLOEXEC, 0o666)
        except FileExistsError:
            continue
        fcntl.flock(fd, fcntl.LOCK_EX)
        if os.fstat(fd).st_nlink > 0:  # not removed by a cleaner before the lock
            return tmp, fd
        os.close(fd)


def remove_orphan_temp_files(root: Path) -> int:
    """Delete our temp files (any depth under `root`, outside .git) whose writer
    is gone: one whose flock can be taken has no live writer. Returns the count."""
    removed = 0
    for dirpath, folders, names in os.walk(root):
        folders[:] = [name for name in folders if name != ".git"]
        for name in names:
            if TEMP_NAME.match(name):
                removed += _remove_if_unlocked(os.path.join(dirpath, name))
    return removed


def _remove_if_unlocked(path: str) -> int:
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC)
    except OSError:
        return 0
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        os.close(fd)
        return 0
    try:
        os.unlink(path)
    except FileNotFoundError:
        return 0
    finally:
        os.close(fd)
    return 1


def atomic_write(
    path: Path, data: bytes, mode: int | None = None, unchanged: os.stat_result | None = None
) -> None:
    """Replace `path` with `data` (see atomic_replace)."""

    def write(tmp: str) -> None:
        with open(tmp, "wb") as handle:
            handle.write(data)

    atomic_replace(path, write, mode, unchanged)


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
