"""The daemon process's surroundings: its log file, its resident memory, and
handing freed memory back to the system after the warm-up."""

from __future__ import annotations

import contextlib
import logging
import logging.handlers
from pathlib import Path

from hooks.daemon.protocol import log_path, private_dir


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
