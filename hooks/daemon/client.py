"""The thin client of the warm daemon. Standard library only.

`request` sends one call with a short timeout and raises `DaemonUnavailable`
when nobody answers. `spawn` starts a daemon detached (new session, no
inherited pipes), at most once per 30 seconds per vault.
"""

from __future__ import annotations

import os
import sys
import time

from hooks.daemon.protocol import (
    UnsafeSocketFolder,
    decode,
    encode,
    pid_path,
    read_line,
    socket_file,
    starting_path,
    trusted_socket_folder,
)

TYPE_CHECKING = False  # not typing's: on the prompt hook path `import typing` adds ~23 ms
if TYPE_CHECKING:  # the prompt hook loads this module: no pathlib at run time
    from collections.abc import Mapping
    from pathlib import Path
    from typing import Any

SPAWN_GRACE_SECONDS = 30.0


class DaemonUnavailable(Exception):
    """No daemon answered on the vault's socket."""


class DaemonSilent(DaemonUnavailable):
    """The daemon took the request but sent no answer in time: it may still do it,
    so a write must not be repeated elsewhere."""


class DaemonError(Exception):
    """The daemon answered with an error (bad input, unknown id, ...)."""

    def __init__(self, message: str, kind: str) -> None:
        super().__init__(message)
        self.kind = kind


def request(
    root: Path | str, op: str, args: dict[str, Any] | None = None, timeout: float = 30.0
) -> Any:
    import socket

    path = trusted_socket_file(root)
    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as sock:
        try:
            sock.settimeout(min(timeout, 0.5))
            sock.connect(path)
            sock.settimeout(timeout)
            sock.sendall(encode({"op": op, "args": args or {}}))
        except OSError as exc:  # missing, refused, reset, timed out: nothing was done
            raise DaemonUnavailable(f"no daemon at {path}: {exc}") from exc
        try:
            reply = decode(read_line(sock))
        except OSError as exc:
            raise DaemonSilent(f"the daemon at {path} did not answer {op!r}: {exc}") from exc
    if not reply.get("ok"):
        raise DaemonError(str(reply.get("error", "daemon error")), str(reply.get("kind", "")))
    return reply.get("result")


def trusted_socket_file(root: Path | str) -> str:
    """The daemon's socket, if its folder is safe to talk through (else unavailable)."""
    path = socket_file(root)
    try:
        trusted_socket_folder(path)
    except UnsafeSocketFolder as exc:
        raise DaemonUnavailable(str(exc)) from None
    return path


def prompt_event(root: str, event: bytes, now: str | None, timeout: float) -> str:
    """Hand a raw UserPromptSubmit event to the daemon; returns the line to print.

    Uses the C `_socket` module and builds the request by hand: the `socket`
    and `json` modules would double the hook's start-up time (enum, re). The
    event is already JSON; raw newlines can only be whitespace between its tokens.
    """
    import _socket

    stamp = b"null"
    if now and all(c in "0123456789-:.TZ+ " for c in now):
        stamp = b'"' + now.encode() + b'"'
    body = event.strip().replace(b"\r", b" ").replace(b"\n", b" ") or b"null"
    line = b'{"op": "prompt_event", "args": {"event": ' + body + b', "now": ' + stamp + b"}}\n"
    path = trusted_socket_file(root)
    sock = _socket.socket(_socket.AF_UNIX, _socket.SOCK_STREAM)
    try:
        sock.settimeout(min(timeout, 0.5))
        sock.connect(path)
        sock.settimeout(timeout)
        sock.sendall(line)
        answer = read_line(sock).decode("utf-8", "replace").strip()
    except OSError as exc:  # refused, missing, reset, timed out
        raise DaemonUnavailable(f"no answer from the daemon at {path}: {exc}") from exc
    finally:
        sock.close()
    # A request the daemon could not parse (a truncated event) gets a JSON error
    # envelope instead; only hook output is ever printed.
    return answer if answer.startswith('{"hookSpecificOutput"') else ""


def ping(root: Path, timeout: float = 0.5) -> dict[str, Any] | None:
    try:
        answer = request(root, "ping", timeout=timeout)
    except (DaemonUnavailable, DaemonError):
        return None
    return answer if isinstance(answer, dict) else None


def spawn(root: Path, environ: Mapping[str, str]) -> bool:
    """Start `vault serve` for `root` in the background; False if one is starting."""
    marker = starting_path(root)
    try:
        if time.time() - marker.stat().st_mtime < SPAWN_GRACE_SECONDS:
            return False
    except FileNotFoundError:
        pass
    marker.parent.mkdir(parents=True, exist_ok=True)
    os.chmod(marker.parent, 0o700)
    marker.touch()
    # The daemon serves every clock; each request carries its own `now`.
    run_detached(root, ["serve"], {k: v for k, v in environ.items() if k != "VAULT_NOW"})
    return True


def run_detached(root: Path, args: list[str], environ: Mapping[str, str]) -> None:
    """Run `vault --vault ROOT ARGS` in the background: new session, no inherited pipes."""
    import subprocess

    subprocess.Popen(
        [sys.executable, "-m", "hooks.cli", "--vault", str(root), *args],
        stdin=subprocess.DEVNULL,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        start_new_session=True,
        close_fds=True,
        env=dict(environ),
        cwd=str(root),
    )


def starting_path_clear(root: Path) -> None:
    """Forget an earlier spawn attempt, so `spawn` starts one now."""
    starting_path(root).unlink(missing_ok=True)


def wait_until_up(root: Path, timeout: float) -> dict[str, Any] | None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        answer = ping(root)
        if answer is not None:
            return answer
        time.sleep(0.1)
    return None


def daemon_pid(root: Path) -> int | None:
    try:
        pid = int(pid_path(root).read_text().strip())
        os.kill(pid, 0)
    except (FileNotFoundError, ValueError, ProcessLookupError, PermissionError):
        return None
    try:
        with open(f"/proc/{pid}/stat") as stat:
            if stat.read().rsplit(")", 1)[1].split()[0] == "Z":
                return None  # a zombie is dead, whatever kill(0) says
    except (OSError, IndexError):
        pass
    return pid
