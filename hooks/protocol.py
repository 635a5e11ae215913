"""Where a vault's daemon listens, and the wire format. Standard library only.

One JSON object per line each way: `{"op": ..., "args": {...}}` and
`{"ok": true, "result": ...}` or `{"ok": false, "error": ..., "kind": ...}`.
The socket lives in `.index/run/` (0700), or, when that path is too long for
a unix socket, in a 0700 folder of the user's under the temp directory.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

MAX_SOCKET_PATH = 100  # sun_path is 108 bytes on Linux, 104 on macOS
MAX_MESSAGE = 8 * 1024 * 1024


def run_dir(root: Path) -> Path:
    return root / ".index" / "run"


def socket_path(root: Path) -> Path:
    candidate = run_dir(root) / "daemon.sock"
    if len(str(candidate).encode()) <= MAX_SOCKET_PATH:
        return candidate
    import hashlib
    import tempfile

    digest = hashlib.sha1(str(root).encode()).hexdigest()[:16]
    return Path(tempfile.gettempdir()) / f"memory-vault-{os.getuid()}" / f"{digest}.sock"


def pid_path(root: Path) -> Path:
    return run_dir(root) / "daemon.pid"


def lock_path(root: Path) -> Path:
    return run_dir(root) / "daemon.lock"


def starting_path(root: Path) -> Path:
    return run_dir(root) / "starting"


def log_path(root: Path) -> Path:
    return root / ".state" / "daemon.log"


def private_dir(folder: Path) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    os.chmod(folder, 0o700)
    return folder


def encode(message: dict[str, Any]) -> bytes:
    return json.dumps(message, ensure_ascii=False, default=str).encode() + b"\n"


def decode(line: bytes) -> dict[str, Any]:
    message = json.loads(line.decode())
    if not isinstance(message, dict):
        raise ValueError("a message must be a JSON object")
    return message
