"""Files read from outside the vault (notes to ingest, transcripts to capture):
only regular files, never the kernel's special ones (/proc, /sys, /dev, FIFOs,
sockets, devices), inside the folders the person allowed when the caller gives
any, and under a size cap. A refused file is never opened for reading.
"""

from __future__ import annotations

import os
import stat as stat_mode
from collections.abc import Sequence
from pathlib import Path

from vault.errors import VaultError

SPECIAL_ROOTS = ("/proc", "/sys", "/dev")


class RefusedSourceError(VaultError):
    """A path memory-vault will not read as a note or a transcript."""


def check_source(
    path: Path, allowed: Sequence[Path] | None, setting: str = "ingest_allowed"
) -> Path:
    """`path` resolved (symbolic links followed), refused unless it is a regular
    file inside one of `allowed` (any folder when `allowed` is None); the
    refusal names the config.toml `setting` that widens `allowed`."""
    resolved = Path(os.path.realpath(path.expanduser()))
    if any(_within(resolved, Path(root)) for root in SPECIAL_ROOTS):
        raise RefusedSourceError(f"{path}: a special file of the system; not read")
    if allowed is not None and not any(
        _within(resolved, Path(os.path.realpath(folder))) for folder in allowed
    ):
        folders = ", ".join(str(folder) for folder in allowed) or "none"
        raise RefusedSourceError(
            f"{path}: outside the folders memory-vault may read ({folders}); "
            f"add its folder to {setting} in config.toml to allow it"
        )
    try:
        found = os.stat(resolved)
    except FileNotFoundError:
        raise RefusedSourceError(f"{path}: no such file") from None
    except OSError as exc:
        raise RefusedSourceError(f"{path}: cannot be read ({exc.strerror})") from None
    if not stat_mode.S_ISREG(found.st_mode):
        raise RefusedSourceError(f"{path}: not a regular file; not read")
    return resolved


def read_source(path: Path, allowed: Sequence[Path] | None, max_bytes: int) -> bytes:
    """The bytes of a file that passes `check_source` and is at most `max_bytes`."""
    resolved = check_source(path, allowed)
    flags = os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC
    try:
        fd = os.open(resolved, flags)
    except OSError as exc:  # swapped for a link or removed since the check
        raise RefusedSourceError(f"{path}: cannot be read ({exc.strerror})") from None
    with os.fdopen(fd, "rb") as handle:
        opened = os.fstat(handle.fileno())
        if not stat_mode.S_ISREG(opened.st_mode):
            raise RefusedSourceError(f"{path}: not a regular file; not read")
        if opened.st_size > max_bytes:
            raise RefusedSourceError(f"{path}: larger than {max_bytes} bytes; not read")
        data = handle.read(max_bytes + 1)
    if len(data) > max_bytes:
        raise RefusedSourceError(f"{path}: larger than {max_bytes} bytes; not read")
    return data


def _within(path: Path, folder: Path) -> bool:
    return path == folder or folder in path.parents
