"""Automatic git sync inside the warm daemon: every `sync_interval_minutes`
(0, the default, turns it off), and only once no request came for
`sync_quiet_seconds` and none is being answered, so it never runs during a
prompt. Git works outside the request lock; the daemon then brings the index
up to date with what came in. Also how git reaches our merge driver.
"""

from __future__ import annotations

import logging
import shlex
import socket
import sys
import threading
import time
from collections.abc import Callable

from vault import git_sync
from vault.clock import Clock, utc_now
from vault.config import Settings
from vault.errors import VaultError
from vault.layout import Vault

log = logging.getLogger("memory_vault.auto_sync")


def driver_command() -> str:
    """How git runs our merge driver: this environment's Python, by absolute path,
    on the light entry (hooks/cli/merge_driver.py: one process per merged file, so
    its start is the cost); `-P` keeps the vault folder (git's working directory)
    off the import path."""
    return f"{shlex.quote(sys.executable)} -P -m hooks.cli.merge_driver %O %A %B %P"


def machine() -> str:
    return socket.gethostname() or "this machine"


class AutoSync:
    def __init__(
        self,
        vault: Vault,
        settings: Settings,
        monotonic: Callable[[], float] = time.monotonic,
        clock: Clock = utc_now,
    ) -> None:
        self.vault = vault
        self.interval = float(settings.sync_interval_minutes) * 60
        self.quiet = float(settings.sync_quiet_seconds)
        self.monotonic = monotonic
        self.clock = clock
        self.last_attempt = monotonic()  # the first sync comes one interval after start
        self._running = threading.Lock()

    @property
    def enabled(self) -> bool:
        return self.interval > 0

    def due(self, last_request: float, busy: bool) -> bool:
        """Whether to sync now: on, an interval since the last attempt, the daemon
        quiet for a while and answering nothing, no sync already running."""
        now = self.monotonic()
        return (
            self.enabled
            and not busy
            and not self._running.locked()
            and now - self.last_attempt >= self.interval
            and now - last_request >= self.quiet
        )

    def start_if_due(self, last_request: float, busy: bool, after_pull: Callable[[], None]) -> None:
        """When `due`, sync in a thread; `after_pull` runs when the sync brought changes."""
        if self.due(last_request, busy):

            def sync_then_index() -> None:
                result = self.run()
                if result is not None and result.pulled:
                    after_pull()

            threading.Thread(target=sync_then_index, name="vault-auto-sync", daemon=True).start()

    def run(self) -> git_sync.SyncResult | None:
        """One sync; None when another is running, the vault is not a repository,
        or git failed (logged; the next interval retries)."""
        if not self._running.acquire(blocking=False):
            return None
        try:
            self.last_attempt = self.monotonic()
            if not git_sync.is_repository(self.vault.root):
                return None
            result = git_sync.sync(self.vault, driver_command(), machine(), self.clock())
            log.info("automatic sync: %s", git_sync.describe(result))
            for note in result.notes:
                log.info("automatic sync: %s", note)
            return result
        except VaultError as exc:
            log.warning("automatic sync failed: %s", exc)
            return None
        finally:
            self._running.release()
