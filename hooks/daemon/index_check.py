"""The daemon's look for changes its watcher missed (an event lost, a polling gap):
a delta sync every `daemon_index_check_seconds` of quiet, one at a time, taking
the daemon's work lock like any request. On a vault past `daemon_quick_sync_files`
memories the start looks only into folders whose mtime changed, then a catch-up
scan states every file (reading none) without holding the work lock, which finds
what was edited in place while no daemon ran; from then on the watcher sees
every change, so delta syncs look only into changed folders, and the checks run
the same lock-free full scan once the last is an hour old (indexer/folder_scan.py).
It decides when, not what.
"""

from __future__ import annotations

import logging
import math
import threading
import time
from collections.abc import Callable
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
        vault (`catch_up` follows it); a small one is scanned in full."""
        quick = self.quick()
        report = self.service.on_files_changed(quick=quick, full_every=math.inf)
        log.info("index synced (%s): %s", "changed folders" if quick else "all", report.summary())
        return report

    def start_catch_up(self) -> None:
        """After the start of a large vault, once the watcher runs: `catch_up` in the
        background, whatever the quiet (it holds no request up while it states)."""
        if self.quick():
            self._thread = threading.Thread(target=self._checked(self.catch_up), daemon=True)
            self._thread.name = "index-catch-up"
            self._thread.start()

    def catch_up(self) -> SyncReport:
        """A full scan holding no lock while it states the files, then what it found
        reconciled under the work lock. Started after the watcher, so from then on
        every change is seen: the daemon's delta syncs need only the changed folders."""
        started = time.perf_counter()
        scan = self.service.index.scan()
        with self.work:
            report = self.service.on_scan(scan)
            self.service.watched = True
        seconds = time.perf_counter() - started
        log.info("full scan (every file stated) in %.1f s: %s", seconds, report.summary())
        return report

    def due(self, now: float, last_request: float) -> bool:
        running = self._thread is not None and self._thread.is_alive()
        quiet = now - last_request >= self.quiet_seconds
        return bool(self.every) and now - self.checked_at >= self.every and quiet and not running

    def start_if_due(self, now: float, last_request: float) -> None:
        if self.due(now, last_request):
            self.checked_at = now
            self._thread = threading.Thread(target=self._checked(self.run), name="index-check")
            self._thread.daemon = True
            self._thread.start()

    def run(self) -> SyncReport:
        if self.quick() and self.service.index.full_scan_due(time.time()):
            return self.catch_up()  # the hourly full scan, without holding requests up
        with self.work:
            return self.service.on_files_changed(quick=self.quick())

    @staticmethod
    def _checked(check: Callable[[], SyncReport]) -> Callable[[], None]:
        def guarded() -> None:
            try:
                report = check()
            except Exception:  # a failed check must not stop the daemon; the next one retries
                log.exception("index check failed")
                return
            if report.changed or report.problems:
                log.info("index check: %s", report.summary())

        return guarded
