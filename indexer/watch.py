"""Watchdog events turned into plain change records, debounced.

This module decides only *which paths changed*; `VaultIndex.apply` does the
work. Folders `.index/` and `.state/`, hidden files, and editors' temp and swap
files are ignored. The folders indexed in place are watched too, for their
documents only. A folder moved or deleted asks for a full delta sync. When
the system's inotify limits are reached, it polls instead, with one notice.
"""

from __future__ import annotations

import errno
import logging
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from watchdog.events import FileSystemEvent, FileSystemEventHandler
from watchdog.observers import Observer
from watchdog.observers.api import BaseObserver
from watchdog.observers.polling import PollingObserver

from vault.indexed_folders import IndexedFolders
from vault.layout import Vault

log = logging.getLogger(__name__)
POLL_SECONDS = 30.0  # polling stats every file: slow on a big vault, so not often
_LIMITS = (errno.ENOSPC, errno.EMFILE)  # inotify watch and instance limits
_TEMP_SUFFIXES = (".swp", ".swx", ".swo", ".tmp", ".part", ".crdownload", "~", ".bak")


@dataclass(frozen=True)
class Changes:
    paths: tuple[Path, ...]
    rescan: bool = False


def is_relevant(vault: Vault, path: Path) -> bool:
    """A Markdown file under memories/ or archive/ that is not a temp file."""
    try:
        parts = path.relative_to(vault.root).parts
    except ValueError:
        return False
    if len(parts) < 2 or parts[0] not in ("memories", "archive"):
        return False
    if any(part.startswith((".", "#", "~")) for part in parts):
        return False
    name = parts[-1]
    return name.endswith(".md") and not name.endswith(_TEMP_SUFFIXES)


def event_changes(
    vault: Vault, event: FileSystemEvent, folders: IndexedFolders | None = None
) -> Changes:
    paths = [Path(str(event.src_path))]
    dest = getattr(event, "dest_path", "")
    if dest:
        paths.append(Path(str(dest)))
    if event.is_directory:
        needs = event.event_type in ("moved", "deleted") and any(
            p == vault.memories_dir or vault.memories_dir in p.parents
            or p == vault.archive_dir or vault.archive_dir in p.parents
            or (folders is not None and folders.root_of(p) is not None)
            for p in paths
        )  # fmt: skip
        return Changes((), rescan=needs)
    if event.event_type in ("opened", "closed_no_write"):
        return Changes(())
    return Changes(
        tuple(
            p for p in paths
            if is_relevant(vault, p) or (folders is not None and folders.admits(p))
        )
    )  # fmt: skip


class Debouncer:
    """Collects changes; hands them over once no event came for `quiet` seconds."""

    def __init__(self, quiet: float, clock: Callable[[], float] = time.monotonic) -> None:
        self.quiet = quiet
        self.clock = clock
        self._paths: dict[Path, None] = {}
        self._rescan = False
        self._last = 0.0
        self._lock = threading.Lock()

    def add(self, changes: Changes) -> None:
        if not changes.paths and not changes.rescan:
            return
        with self._lock:
            self._paths.update(dict.fromkeys(changes.paths))
            self._rescan = self._rescan or changes.rescan
            self._last = self.clock()

    def due(self) -> Changes | None:
        with self._lock:
            if not (self._paths or self._rescan) or self.clock() - self._last < self.quiet:
                return None
            ready = Changes(tuple(self._paths), self._rescan)
            self._paths, self._rescan = {}, False
            return ready


class _Handler(FileSystemEventHandler):
    def __init__(self, vault: Vault, debouncer: Debouncer, folders: IndexedFolders | None) -> None:
        self.vault = vault
        self.debouncer = debouncer
        self.folders = folders

    def on_any_event(self, event: FileSystemEvent) -> None:
        self.debouncer.add(event_changes(self.vault, event, self.folders))


class VaultWatcher:
    """A watchdog observer over memories/, archive/ and the folders indexed in
    place, feeding `on_changes`; `polling` is True once the inotify limits made it
    fall back to polling."""

    def __init__(
        self,
        vault: Vault,
        on_changes: Callable[[Changes], None],
        quiet: float = 0.25,
        observer: Callable[[], BaseObserver] = Observer,
        notice: Callable[[str], None] = log.warning,
        poll_seconds: float = POLL_SECONDS,
        folders: IndexedFolders | None = None,
    ) -> None:
        self.vault = vault
        self.folders = folders
        self.on_changes = on_changes
        self.debouncer = Debouncer(quiet)
        self._observer = observer()
        self._notice = notice
        self._poll_seconds = poll_seconds
        self.polling = False
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._pump, name="vault-watch", daemon=True)

    def start(self) -> None:
        handler = _Handler(self.vault, self.debouncer, self.folders)
        try:
            self._watch(handler)
        except OSError as exc:
            if exc.errno not in _LIMITS:
                raise
            self._notice(
                f"{exc.strerror}: watching {self.vault.root} by polling every "
                f"{self._poll_seconds:g} s instead (raise the limit, e.g. "
                "`sudo sysctl fs.inotify.max_user_watches=524288`, and restart the daemon)"
            )
            self._observer = PollingObserver(timeout=self._poll_seconds)
            self.polling = True
            self._watch(handler)
        self._thread.start()

    def _watch(self, handler: _Handler) -> None:
        for folder in (self.vault.memories_dir, self.vault.archive_dir):
            folder.mkdir(parents=True, exist_ok=True)
            self._observer.schedule(handler, str(folder), recursive=True)
        for folder in self.folders.watched() if self.folders else ():
            self._observer.schedule(handler, str(folder), recursive=True)
        self._observer.start()

    def _pump(self) -> None:
        while not self._stop.wait(0.05):
            ready = self.debouncer.due()
            if ready is None:
                continue
            try:
                self.on_changes(ready)
            except Exception:  # the watcher must outlive one bad batch
                log.exception("applying watched changes failed; the next sync will retry")

    def stop(self) -> None:
        self._stop.set()
        self._observer.stop()
        self._observer.join(timeout=5)
        if self._thread.is_alive():
            self._thread.join(timeout=5)
