"""The consolidation bonus's input: which periodic levels (weekly, monthly,
quarterly, yearly) link to each memory with an `[[id]]` wikilink.

Cached: a query checks the four folders' mtimes (a new, renamed or atomically
rewritten note changes them) and, at most every RESCAN_SECONDS, every note's
stat (an editor writing in place); only then are the notes read again.
`refresh()` runs once per query; lookups between refreshes cost no system call.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable, Iterable
from pathlib import Path

from vault.layout import Vault
from vault.links import link_targets
from vault.periodic import LEVELS

RESCAN_SECONDS = 5.0
Signature = tuple[tuple[str, int, int], ...]


class PeriodicLinks:
    def __init__(self, vault: Vault, monotonic: Callable[[], float] = time.monotonic):
        self.folders = {level: vault.note_dir(level) for level in LEVELS}
        self.monotonic = monotonic
        self._folders: Signature | None = None
        self._files: Signature | None = None
        self._checked = -RESCAN_SECONDS
        self._levels: dict[str, frozenset[str]] = {}

    def levels(self, memory_id: str) -> frozenset[str]:
        """The periodic levels whose notes link to the memory (as of the last refresh)."""
        return self._levels.get(memory_id, frozenset())

    def linked(self) -> dict[str, frozenset[str]]:
        return dict(self._levels)

    def refresh(self) -> None:
        folders = _stats(self.folders.values())
        now = self.monotonic()
        if folders == self._folders and now - self._checked < RESCAN_SECONDS:
            return
        files = _stats(note for note, _ in self._notes())
        self._folders, self._checked = folders, now
        if files == self._files:
            return
        self._files = files
        self._levels = self._read()

    def _notes(self) -> list[tuple[Path, str]]:
        """(note, its level), sorted."""
        notes = []
        for level, folder in self.folders.items():
            try:
                entries = os.scandir(folder)
            except OSError:
                continue
            with entries:
                notes += [(Path(e.path), level) for e in entries
                          if e.name.endswith(".md") and e.is_file()]  # fmt: skip
        return sorted(notes)

    def _read(self) -> dict[str, frozenset[str]]:
        found: dict[str, set[str]] = {}
        for note, level in self._notes():
            try:
                text = note.read_text(encoding="utf-8", errors="replace")
            except OSError:
                continue  # removed meanwhile: the next check sees it gone
            if "[[" not in text:  # link_targets would take plain text for a bare id
                continue
            for name in link_targets([text]):
                found.setdefault(name.rsplit("/", 1)[-1], set()).add(level)
        return {memory_id: frozenset(levels) for memory_id, levels in found.items()}


def _stats(paths: Iterable[Path]) -> Signature:
    stats = []
    for path in paths:
        try:
            stat = os.stat(path)
        except OSError:
            continue
        stats.append((str(path), stat.st_mtime_ns, stat.st_size))
    return tuple(stats)
