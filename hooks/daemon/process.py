"""The daemon process's surroundings: its log file, its resident memory, and
handing freed memory back to the system after the warm-up, and removing temp
files that writers killed mid-write left behind."""

from __future__ import annotations

import contextlib
import logging
import logging.handlers
from pathlib import Path

from hooks.client.protocol import log_path, private_dir
from vault.atomic import remove_orphan_temp_files


def release_free_memory() -> None:
    """Hand the allocator's free pages back after the warm-up (glibc's malloc_trim)."""
    import ctypes

    with contextlib.suppress(OSError, AttributeError):
        ctypes.CDLL("libc.so.6").malloc_trim(0)


def rss_bytes() -> int:
    with contextlib.suppress(OSError, ValueError, IndexError):
        for line in Path("/proc/self/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) * 1024
    return 0


def setup_logging(root: Path) -> None:
    path = log_path(root)
    private_dir(path.parent)
    handler = logging.handlers.RotatingFileHandler(path, maxBytes=1_000_000, backupCount=3)
    handler.setFormatter(logging.Formatter("%(asctime)s %(levelname)s %(name)s: %(message)s"))
    root_logger = logging.getLogger()
    root_logger.addHandler(handler)
    root_logger.setLevel(logging.INFO)


def clean_temp_files(root: Path) -> None:
    """At start: temp files of writers killed mid-write (their flock is free)."""
    removed = remove_orphan_temp_files(root)
    if removed:
        logging.getLogger("memory_vault.daemon").info("removed %d orphan temp files", removed)
