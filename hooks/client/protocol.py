"""Where a vault's daemon listens, and the wire format. Standard library only.

One JSON object per line each way: `{"op": ..., "args": {...}}` and
`{"ok": true, "result": ...}` or `{"ok": false, "error": ..., "kind": ...}`.
Two exceptions: `prompt_event` and `tool_event` (the prompt and tool hooks) are
answered with the raw line the hook prints (empty when there is nothing to say),
so those hooks never import json.
The socket lives in `.index/run/` (0700), or, when that path is too long for
a unix socket, in a 0700 folder of the user's under the temp directory, used
only when it is ours alone.
"""

from __future__ import annotations

import os

TYPE_CHECKING = False  # not typing's: on the prompt hook path `import typing` adds ~23 ms
if TYPE_CHECKING:
    import _socket
    from pathlib import Path
    from typing import Any

MAX_SOCKET_PATH = 100  # sun_path is 108 bytes on Linux, 104 on macOS
MAX_MESSAGE = 8 * 1024 * 1024
RAW_REPLY_OPS = frozenset({"prompt_event", "tool_event"})
MAX_PROMPT_CHARS = 4000  # of a prompt used as a recall query
IN_VAULT_SOCKET = os.path.join(".index", "run", "daemon.sock")


class ProtocolError(Exception):
    """A message that breaks the wire format: not JSON, not an object, too
    large, or an operation the daemon does not know."""


class InvalidRequest(ValueError):
    """A well-formed request whose arguments are missing or of the wrong kind
    (the message names the argument)."""


def run_dir(root: Path) -> Path:
    return root / ".index" / "run"


class UnsafeSocketFolder(OSError):
    """The shared temp folder for sockets is not ours alone: a symlink, another
    user's folder, or one that others may enter."""


def socket_file(root: str | os.PathLike[str]) -> str:
    """The socket's path as a string (the prompt hook never imports pathlib). The
    vault path is resolved first, so every spelling of it finds the same socket."""
    root = os.path.realpath(os.fspath(root))
    candidate = os.path.join(root, IN_VAULT_SOCKET)
    if len(candidate.encode()) <= MAX_SOCKET_PATH:
        return candidate
    import hashlib

    digest = hashlib.sha1(root.encode()).hexdigest()[:16]
    return os.path.join(shared_socket_folder(), f"{digest}.sock")


def shared_socket_folder() -> str:
    """Where sockets go when the vault's own path is too long: one folder per user
    under the temp directory."""
    import tempfile

    return os.path.join(tempfile.gettempdir(), f"memory-vault-{os.getuid()}")


def trusted_socket_folder(socket: str) -> None:
    """Refuse a socket in the shared temp folder unless that folder is a real
    directory owned by us that nobody else may enter (UnsafeSocketFolder)."""
    if socket.endswith(IN_VAULT_SOCKET):
        return  # the vault's own .index/run (0700); no tempfile import on the hook path
    folder = os.path.dirname(socket)
    try:
        info = os.lstat(folder)
    except FileNotFoundError:
        return  # nothing there yet: no daemon to talk to, nothing to trust
    import stat  # loaded with os already

    problem = ""
    if not stat.S_ISDIR(info.st_mode):
        problem = "is not a directory (a symlink?)"
    elif info.st_uid != os.getuid():
        problem = f"belongs to uid {info.st_uid}, not to us"
    elif info.st_mode & 0o077:
        problem = f"is open to other users (mode {info.st_mode & 0o777:o})"
    if problem:
        raise UnsafeSocketFolder(f"refusing the socket folder {folder}: it {problem}; remove it")


def make_socket_folder(socket: Path) -> None:
    """Create the socket's folder 0700; a shared one that is not safe is refused."""
    import contextlib

    if str(socket.parent) == shared_socket_folder():
        with contextlib.suppress(FileExistsError):
            os.mkdir(socket.parent, 0o700)
        trusted_socket_folder(str(socket))
    else:
        private_dir(socket.parent)


def socket_path(root: Path) -> Path:
    from pathlib import Path

    return Path(socket_file(root))


def pid_path(root: Path) -> Path:
    return run_dir(root) / "daemon.pid"


def lock_path(root: Path) -> Path:
    return run_dir(root) / "daemon.lock"


def starting_path(root: Path) -> Path:
    """Touched by whoever spawns a daemon; removed by the daemon once it is ready."""
    return run_dir(root) / "starting"


def starting_file(root: str | os.PathLike[str]) -> str:
    """`starting_path` as a string (the prompt hook never imports pathlib)."""
    return os.path.join(os.fspath(root), ".index", "run", "starting")


def log_path(root: Path) -> Path:
    return root / ".state" / "daemon.log"


def error_line(exc: BaseException) -> str:
    """An error as one line for a person: its message's first line, or its type."""
    text = str(exc)
    return text.splitlines()[0] if text else type(exc).__name__


def private_dir(folder: Path) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    os.chmod(folder, 0o700)
    return folder


def encode(message: dict[str, Any]) -> bytes:
    import json  # not at module level: the prompt hook's fast path never needs it

    return json.dumps(message, ensure_ascii=False, default=str).encode() + b"\n"


def decode(line: bytes) -> dict[str, Any]:
    import json

    try:
        message = json.loads(line.decode())
    except ValueError as exc:  # not UTF-8, or not JSON
        raise ProtocolError(f"not a JSON message ({exc})") from None
    if not isinstance(message, dict):
        raise ProtocolError("a message must be a JSON object")
    return message


def read_line(sock: _socket.socket, limit: int = MAX_MESSAGE) -> bytes:
    """One message from `sock`: the bytes up to the newline that ends it.
    ConnectionResetError if the peer closes first; ProtocolError past `limit`."""
    chunks: list[bytes] = []
    size = 0
    while not (chunks and chunks[-1].endswith(b"\n")):
        chunk = sock.recv(65536)
        if not chunk:
            raise ConnectionResetError("the connection closed before the message ended")
        chunks.append(chunk)
        size += len(chunk)
        if size > limit:
            raise ProtocolError(f"a message is larger than {limit} bytes")
    return b"".join(chunks)
