"""Retrieval strengthening's bookkeeping: when each memory appeared in results.

`.state/appearances.log` holds one line per appearance, `<unix seconds> <id>`,
appended by the one writer (the daemon when it runs) after its reply; past
MAX_LINES it is rewritten to the window. Appearances never touch a memory's
file: they are not reinforcement. `refresh()` (once per query) re-reads the
file only when it changed; the lookups between refreshes cost no system call.
"""

from __future__ import annotations

import os
from bisect import bisect_right
from collections.abc import Iterable
from datetime import datetime
from pathlib import Path

from vault.atomic import atomic_write

LOG_NAME = "appearances.log"
MAX_LINES = 20_000  # ~0.7 MB; compaction keeps only the window's lines
SECONDS_PER_DAY = 86_400.0


class AppearanceLog:
    def __init__(self, state_dir: Path) -> None:
        self.path = state_dir / LOG_NAME
        self._stamp: tuple[int, int] | None = None
        self._times: dict[str, list[float]] = {}
        self._lines = 0

    def count(self, memory_id: str, now: datetime, window_days: float) -> int:
        """Appearances in (now - window, now]; later ones (a simulated past) do not count."""
        times = self._times.get(memory_id)
        if not times:
            return 0
        end = now.timestamp()
        return bisect_right(times, end) - bisect_right(times, end - window_days * SECONDS_PER_DAY)

    def summary(self, memory_id: str) -> tuple[int, float | None]:
        """All appearances on record for a memory, and the latest (unix seconds)."""
        times = self._times.get(memory_id) or []
        return len(times), (times[-1] if times else None)

    def ids(self) -> list[str]:
        return sorted(self._times)

    def record(self, memory_ids: Iterable[str], now: datetime, window_days: float) -> None:
        """Append one line per id (each id once per call); compact past MAX_LINES."""
        unique = list(dict.fromkeys(memory_ids))
        if not unique:
            return
        seconds = now.timestamp()
        lines = "".join(f"{seconds:.0f} {memory_id}\n" for memory_id in unique)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        handle = os.open(self.path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o600)
        try:
            os.write(handle, lines.encode("utf-8"))
        finally:
            os.close(handle)
        self.refresh()
        if self._lines > MAX_LINES:
            self._compact(seconds - window_days * SECONDS_PER_DAY)

    def _compact(self, since: float) -> None:
        kept = [
            f"{t:.0f} {memory_id}\n"
            for memory_id, times in self._times.items()
            for t in times
            if t >= since
        ]
        atomic_write(self.path, "".join(sorted(kept)).encode("utf-8"), mode=0o600)
        self._stamp = None
        self.refresh()

    def refresh(self) -> None:
        """Re-read the log if it changed since the last look (one stat when not)."""
        try:
            stat = self.path.stat()
        except FileNotFoundError:
            self._stamp, self._times, self._lines = None, {}, 0
            return
        stamp = (stat.st_mtime_ns, stat.st_size)
        if stamp == self._stamp:
            return
        times: dict[str, list[float]] = {}
        lines = 0
        for line in self.path.read_text(encoding="utf-8", errors="replace").splitlines():
            seconds, _, memory_id = line.partition(" ")
            try:
                value = float(seconds)
            except ValueError:
                continue  # a torn or hand-edited line
            if memory_id:
                times.setdefault(memory_id, []).append(value)
                lines += 1
        for values in times.values():
            values.sort()
        self._stamp, self._times, self._lines = stamp, times, lines
