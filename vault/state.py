"""Small JSON bookkeeping files under .state/ (transcript cursors, last prune,
memories shown to a session). Updated under a lock, written atomically; losing
one loses no memory. A file that does not parse is never silently replaced: it
is renamed aside (`<name>.corrupt-<time>`), logged, and the data is rebuilt by
the owner's `recover(corrupt bytes)` (empty when there is none).
"""

from __future__ import annotations

import json
import logging
import os
from collections.abc import Callable
from pathlib import Path
from typing import Any

from vault.atomic import atomic_write, file_lock
from vault.clock import utc_now

Data = dict[str, Any]
log = logging.getLogger(__name__)


class JsonState:
    def __init__(self, path: Path, recover: Callable[[bytes], Data] | None = None) -> None:
        self.path = path
        self.lock = path.with_name(f".{path.name}.lock")
        self.recover = recover

    def read(self) -> Data:
        data = self._load()
        if data is not None:
            return data
        with file_lock(self.lock):
            return self._read_locked()

    def update(self, change: Callable[[Data], Any]) -> Data:
        """Apply `change` to the current data in place, under the lock, and save it."""
        with file_lock(self.lock):
            data = self._read_locked()
            change(data)
            self._save(data)
            return data

    def _load(self) -> Data | None:
        """The data, {} when there is no file, None when the file does not parse."""
        try:
            data = json.loads(self.path.read_bytes().decode("utf-8"))
        except FileNotFoundError:
            return {}
        except (ValueError, UnicodeDecodeError):
            return None
        return data if isinstance(data, dict) else None

    def _read_locked(self) -> Data:
        data = self._load()
        if data is not None:
            return data
        aside = self.path.with_name(f"{self.path.name}.corrupt-{utc_now():%Y%m%dT%H%M%S}")
        while aside.exists():
            aside = aside.with_name(aside.name + "-1")
        os.replace(self.path, aside)
        recovered = self.recover(aside.read_bytes()) if self.recover is not None else {}
        log.warning(
            "%s did not parse; kept it as %s and %s",
            self.path,
            aside.name,
            "rebuilt it" if self.recover is not None else "started it afresh",
        )
        if self.recover is not None:
            self._save(recovered)
        return recovered

    def _save(self, data: Data) -> None:
        self.path.parent.mkdir(parents=True, exist_ok=True)
        atomic_write(self.path, (json.dumps(data, indent=1, sort_keys=True) + "\n").encode())
