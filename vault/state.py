"""Small JSON bookkeeping files under .state/ (transcript cursors, last prune,
memories shown to a session). Updated under a lock, written atomically; losing
one loses no memory.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

from vault.atomic import atomic_write, file_lock

Data = dict[str, Any]


class JsonState:
    def __init__(self, path: Path) -> None:
        self.path = path
        self.lock = path.with_name(f".{path.name}.lock")

    def read(self) -> Data:
        try:
            data = json.loads(self.path.read_text(encoding="utf-8"))
        except (FileNotFoundError, ValueError, UnicodeDecodeError):
            return {}
        return data if isinstance(data, dict) else {}

    def update(self, change: Callable[[Data], Any]) -> Data:
        """Apply `change` to the current data in place, under the lock, and save it."""
        with file_lock(self.lock):
            data = self.read()
            change(data)
            self.path.parent.mkdir(parents=True, exist_ok=True)
            atomic_write(
                self.path, (json.dumps(data, indent=1, sort_keys=True) + "\n").encode(), 0o600
            )
            return data
