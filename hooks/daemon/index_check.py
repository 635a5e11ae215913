"""The daemon's look for changes its watcher missed (an event lost, a polling gap):
a delta sync every `daemon_index_check_seconds` of quiet, one at a time, taking
the daemon's work lock like any request. On a vault past `daemon_quick_sync_files`
memories it looks only into folders whose mtime changed, with a full scan once
the last is an hour old (indexer/folder_scan.py); it decides when, not what.
"""

from __future__ import annotations

import logging
import math
import threading
import time
from contextlib import AbstractContextManager

from indexer.sync import SyncReport
from memory.service import MemoryService
from vault.config import Settings

log = logging.getLogger("memory_vault.daemon")


class IndexCheck:
    def __init__(
        self,
        service: MemoryService,
        settings: Settings,
        work: AbstractContextManager[object],
        quiet_seconds: float,
    ) -> None:
        self.service = service
        self.quiet_seconds = quiet_seconds  # no request for this long before a check
        self.every = float(settings.daemon_index_check_seconds)
        self.quick_above = int(settings.daemon_quick_sync_files)
        self.work = work
        self.checked_at = time.monotonic()
        self._thread: threading.Thread | None = None

    def quick(self) -> bool:
        """Whether syncs look only into changed folders: stating every file of a
        large vault takes seconds, and a start or a check must not."""
        memories = self.service.index.stats()["memories"]
        return isinstance(memories, int) and memories > self.quick_above

    def at_start(self) -> SyncReport:
        """The daemon's first sync: a start never waits for a full scan of a large
        vault (the checks run it once it is due); a small one is scanned in full."""
        quick = self.quick()
        report = self.service.on_files_changed(quick=quick, full_every=math.inf)
        log.info("index synced (%s): %s", "changed folders" if quick else "all", report.summary())
        return report

    def due(self, now: float, last_request: float) -> bool:
        running = self._thread is not None and self._thread.is_alive()
        quiet = now - last_request >= self.quiet_seconds
        return bool(self.every) and now - self.checked_at >= self.every and quiet and not running

    def start_if_due(self, now: float, last_request: float) -> None:
        if self.due(now, last_request):
            self.checked_at = now
            self._thread = threading.Thread(target=self.run, name="index-check", daemon=True)
            self._thread.start()

    def run(self) -> None:
        try:
            with self.work:
                report = self.service.on_files_changed(quick=self.quick())
        except Exception:  # a failed check must not stop the daemon; the next one retries
            log.exception("index check failed")
            return
        if report.changed or report.problems:
            log.info("index check: %s", report.summary())
