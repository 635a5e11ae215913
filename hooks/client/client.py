"""The thin client of the warm daemon. Standard library only.

`request` sends one call with a short timeout and raises `DaemonUnavailable`
when nobody answers. `raw_event` (the hooks' fast path) and `hand_off` can also
wait for a daemon that is starting; `DaemonSlow` means the request got there
but its answer did not come in time. `spawn` starts a daemon detached (new
session, no inherited pipes), at most once per 30 seconds per vault while the
one it started lives (its pid is in the `starting` marker).
"""

from __future__ import annotations

import os
import sys
import time

from hooks.client.protocol import (
    UnsafeSocketFolder,
    decode,
    encode,
    pid_path,
    read_line,
    socket_file,
    starting_file,
    starting_path,
    trusted_socket_folder,
)

TYPE_CHECKING = False  # not typing's: on the prompt hook path `import typing` adds ~23 ms
if TYPE_CHECKING:  # the prompt hook loads this module: no pathlib at run time
    import _socket
    from collections.abc import Mapping
    from pathlib import Path
    from typing import Any

SPAWN_GRACE_SECONDS = 30.0


class DaemonUnavailable(Exception):
    """No daemon answered on the vault's socket."""


class DaemonSlow(DaemonUnavailable):
    """The request reached the daemon but no answer came in time. The daemon may
    still do it (a starting one answers once warm): do not redo its effects, and
    never repeat a write elsewhere."""


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
            raise DaemonSlow(f"the daemon at {path} did not answer {op!r}: {exc}") from exc
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


def raw_event(
    root: str,
    op: str,
    event: bytes,
    now: str | None,
    timeout: float,
    wait: float = 0.0,
    overrides: Mapping[str, str] | None = None,
) -> str:
    """Hand a raw hook event (`prompt_event`, `tool_event`) to the daemon; returns
    the line to print. `wait`: seconds to keep trying while the socket is not
    bound yet (a daemon starting); `timeout`: seconds until the answer, both
    counted from now; `overrides`: the hook's VAULT_<KEY> settings (key -> text),
    which the daemon applies to this event.

    Uses the C `_socket` module and builds the request by hand: the `socket`
    and `json` modules would double the hook's start-up time (enum, re). The
    event is already JSON; raw newlines can only be whitespace between its tokens.
    """
    started = time.monotonic()
    stamp = b"null"
    if now and all(c in "0123456789-:.TZ+ " for c in now):
        stamp = b'"' + now.encode() + b'"'
    body = event.strip().replace(b"\r", b" ").replace(b"\n", b" ") or b"null"
    head = b'{"op": "' + op.encode() + b'", "args": {"event": '
    settings = b""
    if overrides:
        pairs = (_json_text(key) + b": " + _json_text(text) for key, text in overrides.items())
        settings = b', "settings": {' + b", ".join(pairs) + b"}"
    line = head + body + b', "now": ' + stamp + settings + b"}}\n"
    answer = exchange(trusted_socket_file(root), line, started + wait, started + timeout)
    # A request the daemon could not parse (a truncated event) gets a JSON error
    # envelope instead; only hook output is ever printed.
    text = answer.decode("utf-8", "replace").strip()
    return text if text.startswith('{"hookSpecificOutput"') else ""


def prompt_event(
    root: str,
    event: bytes,
    now: str | None,
    timeout: float,
    wait: float = 0.0,
    overrides: Mapping[str, str] | None = None,
) -> str:
    """`raw_event` for a UserPromptSubmit event."""
    return raw_event(root, "prompt_event", event, now, timeout, wait, overrides)


def _json_text(text: str) -> bytes:
    """`text` as a JSON string, written by hand like the rest of the hook's request."""
    escaped = (
        "\\" + char if char in '"\\' else f"\\u{ord(char):04x}" if char < " " else char
        for char in text
    )
    return ('"' + "".join(escaped) + '"').encode("utf-8", "replace")


def exchange(path: str, line: bytes, connect_until: float, answer_until: float) -> bytes:
    """Send one request line and read the answer line; deadlines are monotonic times."""

    sock = _connect(path, connect_until)
    try:
        sock.settimeout(max(0.05, min(30.0, answer_until - time.monotonic())))
        try:
            sock.sendall(line)
        except OSError as exc:
            raise DaemonUnavailable(f"the daemon at {path} took no request: {exc}") from exc
        try:
            return read_line(sock)
        except OSError as exc:  # timed out, or reset after the request went in
            raise DaemonSlow(f"no answer in time from the daemon at {path}: {exc}") from exc
    finally:
        sock.close()


def _connect(path: str, until: float) -> _socket.socket:
    """A connected socket; while the daemon's socket is not there yet (it is
    starting), try again every 20 ms until `until`."""
    import _socket

    while True:
        sock = _socket.socket(_socket.AF_UNIX, _socket.SOCK_STREAM)
        try:
            sock.settimeout(0.5)
            sock.connect(path)
            return sock
        except (FileNotFoundError, ConnectionRefusedError) as exc:
            sock.close()
            if time.monotonic() >= until:
                raise DaemonUnavailable(f"no daemon at {path}") from exc
            time.sleep(0.02)
        except OSError as exc:
            sock.close()
            raise DaemonUnavailable(f"no answer from the daemon at {path}: {exc}") from exc


def hand_off(root: Path | str, op: str, args: dict[str, Any], wait: float) -> bool:
    """Give a ready or starting daemon a request whose work follows its reply
    (capture, sweep); True once it is there. `wait`: seconds to wait for a
    starting daemon's socket."""
    started = time.monotonic()
    line = encode({"op": op, "args": args})
    try:
        exchange(trusted_socket_file(root), line, started + wait, started + wait + 0.5)
    except DaemonSlow:
        return True  # queued behind the warm-up or other work
    except DaemonUnavailable:
        return False
    return True


def daemon_starting(root: str | Path) -> bool:
    """Whether a daemon was spawned for `root` moments ago, is not ready yet and
    is still alive (one killed while warming up leaves its marker behind)."""
    path = starting_file(root)
    try:
        if time.time() - os.stat(path).st_mtime >= SPAWN_GRACE_SECONDS:
            return False
        with open(path) as marker:
            spawned = marker.read().strip()
    except OSError:
        return False
    return not spawned.isdigit() or _alive(int(spawned))  # no pid yet: just spawned


def ping(root: Path, timeout: float = 0.5) -> dict[str, Any] | None:
    try:
        answer = request(root, "ping", timeout=timeout)
    except (DaemonUnavailable, DaemonError):
        return None
    return answer if isinstance(answer, dict) else None


def spawn(root: Path, environ: Mapping[str, str], first: dict[str, Any] | None = None) -> bool:
    """Start a daemon for `root` in the background; False if one is starting.
    `first`: a request (`{"op", "args"}`) it does as soon as it is warm."""
    marker = starting_path(root)
    if daemon_starting(root):
        return False
    marker.parent.mkdir(parents=True, exist_ok=True)
    os.chmod(marker.parent, 0o700)
    marker.write_text("")  # a fresh mtime; the pid follows once it runs
    # The daemon serves every clock; each request carries its own `now`. It starts
    # without the CLI (`python -m hooks.daemon`): no click, so it binds sooner.
    clockless = {k: v for k, v in environ.items() if k != "VAULT_NOW"}
    then = ["--then", encode(first).decode().strip()] if first else []
    pid = _detached(root, ["-m", "hooks.daemon", "--vault", str(root), *then], clockless)
    marker.write_text(f"{pid}\n")
    return True


def run_detached(root: Path, args: list[str], environ: Mapping[str, str]) -> None:
    """Run `vault --vault ROOT ARGS` in the background: new session, no inherited pipes."""
    _detached(root, ["-m", "hooks.cli", "--vault", str(root), *args], environ)


def _detached(root: Path, python_args: list[str], environ: Mapping[str, str]) -> int:
    import subprocess

    return subprocess.Popen(
        [sys.executable, *python_args],
        stdin=subprocess.DEVNULL,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        start_new_session=True,
        close_fds=True,
        env=dict(environ),
        cwd=str(root),
    ).pid


def starting_path_clear(root: Path) -> None:
    """Forget an earlier spawn attempt, so `spawn` starts one now."""
    starting_path(root).unlink(missing_ok=True)


def wait_until_up(root: Path, timeout: float) -> dict[str, Any] | None:
    """The daemon's ping once it is ready to answer, or None after `timeout`."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        answer = ping(root)
        if answer is not None and answer.get("ready", True):
            return answer
        time.sleep(0.1)
    return None


def daemon_pid(root: Path) -> int | None:
    try:
        pid = int(pid_path(root).read_text().strip())
    except (FileNotFoundError, ValueError):
        return None
    return pid if _alive(pid) else None


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except (ProcessLookupError, PermissionError):
        return False
    try:
        with open(f"/proc/{pid}/stat") as stat:
            if stat.read().rsplit(")", 1)[1].split()[0] == "Z":
                return False  # a zombie is dead, whatever kill(0) says
    except (OSError, IndexError):
        pass
    return True
