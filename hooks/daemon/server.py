"""`vault serve`: one warm daemon per vault.

Holds the MemoryService, the model, FAISS and the watcher; answers JSON
requests on a unix socket only the owner can use (0600 socket, 0700 folder).
An flock on `.index/run/daemon.lock` guarantees one instance per vault; a stale
socket or pid file never blocks a start. Requests run one at a time (one
encoder thread: two threads on two cores made query p95 far worse). Exits
after `daemon_idle_seconds` without requests, and cleanly on SIGTERM.
"""

from __future__ import annotations

import contextlib
import fcntl
import logging
import logging.handlers
import os
import signal
import socket
import threading
import time
from pathlib import Path
from typing import Any

from hooks.daemon.ops import EXPECTED_ERRORS, UNLOCKED_OPS, Reply, Step, dispatch_reply
from hooks.daemon.protocol import (
    RAW_REPLY_OPS,
    ProtocolError,
    decode,
    encode,
    error_line,
    lock_path,
    log_path,
    make_socket_folder,
    pid_path,
    private_dir,
    read_line,
    run_dir,
    socket_path,
    starting_path,
)
from indexer.watch import Changes, VaultWatcher
from memory.service import MemoryService
from vault.config import Settings
from vault.layout import Vault

log = logging.getLogger("memory_vault.daemon")
Answer = dict[str, Any]  # the reply envelope: {"ok": ..., "result" | "error", "kind"}


class AlreadyRunning(Exception):
    """Another daemon holds this vault's lock."""


class Daemon:
    def __init__(self, vault: Vault, settings: Settings, idle_seconds: float | None = None) -> None:
        self.vault = vault
        self.settings = settings
        self.idle_seconds = float(idle_seconds or settings["daemon_idle_seconds"])
        self.service = MemoryService(vault, settings, auto_sync=False, embed_on_write=True)
        self.started = time.time()
        self.last_request = time.monotonic()
        self.requests = 0
        self._stop = threading.Event()
        self._work = threading.Lock()  # one request (one encoder thread) at a time
        self.service.turn = self._work  # long work (a rebuild) takes it step by step
        self._active: set[int] = set()  # threads answering a request: never idle meanwhile
        self._lock_fd: int | None = None
        self._watcher: VaultWatcher | None = None

    # Life cycle ----------------------------------------------------------------

    def acquire(self) -> None:
        private_dir(run_dir(self.vault.root))
        fd = os.open(lock_path(self.vault.root), os.O_RDWR | os.O_CREAT, 0o600)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            os.close(fd)
            raise AlreadyRunning(f"a daemon already serves {self.vault.root}") from None
        self._lock_fd = fd
        pid_path(self.vault.root).write_text(f"{os.getpid()}\n")

    def warm_up(self) -> None:
        self.service.require_vault()
        self.service.index.embedder.encode(["warm up"])
        report = self.service.on_files_changed()
        log.info("index synced: %s", report.summary())
        self._watcher = VaultWatcher(self.vault, self._apply_changes)
        self._watcher.start()

    def _apply_changes(self, changes: Changes) -> None:
        """A file written by an editor, dropped in or pulled: the same path as a jot."""
        with self._work:
            report = self.service.on_files_changed(None if changes.rescan else changes.paths)
        if report.changed or report.problems:
            log.info("watcher: %s", report.summary())

    def serve_forever(self) -> None:
        path = socket_path(self.vault.root)
        make_socket_folder(path)
        with contextlib.suppress(FileNotFoundError):
            path.unlink()  # stale: we hold the lock, so nobody else listens here
        server = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        old_umask = os.umask(0o177)
        try:
            server.bind(str(path))
        finally:
            os.umask(old_umask)
        os.chmod(path, 0o600)
        server.listen(64)
        server.settimeout(0.5)
        starting_path(self.vault.root).unlink(missing_ok=True)
        log.info("listening on %s (pid %d)", path, os.getpid())
        try:
            while not self._stop.is_set():
                idle = time.monotonic() - self.last_request > self.idle_seconds
                if idle and not self._active:
                    log.info("idle for %.0f s; exiting", self.idle_seconds)
                    break
                try:
                    conn, _ = server.accept()
                except TimeoutError:
                    continue
                threading.Thread(target=self._handle, args=(conn,), daemon=True).start()
        finally:
            server.close()
            with contextlib.suppress(FileNotFoundError):
                path.unlink()

    def shutdown(self) -> None:
        if self._watcher is not None:
            self._watcher.stop()
        with self._work:
            self.service.index.close()
        pid_path(self.vault.root).unlink(missing_ok=True)
        if self._lock_fd is not None:
            os.close(self._lock_fd)
            self._lock_fd = None
        log.info("stopped")

    def stop(self, *_: object) -> None:
        self._stop.set()

    # Requests ------------------------------------------------------------------

    def _handle(self, conn: socket.socket) -> None:
        self._active.add(threading.get_ident())
        try:
            with conn:
                self._serve(conn)
        finally:
            self._active.discard(threading.get_ident())
            self.last_request = time.monotonic()

    def _serve(self, conn: socket.socket) -> None:
        conn.settimeout(30)
        try:
            message = decode(read_line(conn))
        except (OSError, ProtocolError) as exc:
            message = {"op": "", "error": f"bad request: {exc}"}
        if message.get("op") in ("ping", "shutdown"):  # never wait behind work
            reply, steps = self._answer(message)
            self._send(conn, reply)
            return
        if message.get("op") in UNLOCKED_OPS:  # takes the work lock in turns itself
            reply, steps = self._answer(message)
            self._send(conn, reply, message.get("op"))
            return
        with self._work:  # one request at a time
            reply, steps = self._answer(message)
            self._send(conn, reply, message.get("op"))
            if steps:
                self._run_step(message, steps[0])
        for step in steps[1:]:
            time.sleep(0.002)  # a request waiting for the lock goes first
            with self._work:
                self._run_step(message, step)

    @staticmethod
    def _send(conn: socket.socket, reply: Answer, op: object = None) -> None:
        if op in RAW_REPLY_OPS:  # the line to print, or an empty line
            result = reply.get("result") if reply.get("ok") else None
            text = result.get("output", "") if isinstance(result, dict) else ""
            data = str(text).replace("\n", " ").encode() + b"\n"
        else:
            data = encode(reply)
        with contextlib.suppress(OSError):
            conn.sendall(data)
            conn.shutdown(socket.SHUT_WR)

    def _run_step(self, message: dict[str, Any], step: Step) -> None:
        try:
            step()
        except EXPECTED_ERRORS as exc:
            log.info("follow-up of %s failed: %s", message.get("op"), exc)
        except Exception:  # a bug must not kill the daemon; it is logged in full
            log.exception("follow-up of %s crashed", message.get("op"))

    def _answer(self, message: dict[str, Any]) -> tuple[Answer, tuple[Step, ...]]:
        if "error" in message:
            return {"ok": False, "error": message["error"], "kind": "protocol"}, ()
        return self._reply(message)

    def _reply(self, message: dict[str, Any]) -> tuple[Answer, tuple[Step, ...]]:
        op = str(message.get("op", ""))
        args = message.get("args") or {}
        if not isinstance(args, dict):
            return {"ok": False, "error": "args must be an object", "kind": "protocol"}, ()
        self.last_request = time.monotonic()
        if op == "ping":
            return {"ok": True, "result": self.describe()}, ()
        if op == "shutdown":
            self.stop()
            return {"ok": True, "result": {"pid": os.getpid(), "stopping": True}}, ()
        started = time.perf_counter()
        try:
            self.requests += 1
            reply: Reply = dispatch_reply(self.service, op, args)
        except EXPECTED_ERRORS as exc:  # the request's fault, not ours: no traceback
            log.info("%s failed: %s", op, exc)
            error = error_line(exc)
            kind = "protocol" if isinstance(exc, ProtocolError) else type(exc).__name__
            return {"ok": False, "error": error, "kind": kind}, ()
        except Exception as exc:  # a bug: logged in full, and the daemon lives on
            log.exception("%s crashed", op)
            return {"ok": False, "error": f"internal error: {exc}", "kind": "internal"}, ()
        log.debug("%s in %.1f ms", op, (time.perf_counter() - started) * 1000)
        return {"ok": True, "result": reply.result}, reply.steps

    def describe(self) -> dict[str, Any]:
        return {
            "pid": os.getpid(),
            "vault": str(self.vault.root),
            "uptime_seconds": round(time.time() - self.started, 1),
            "requests": self.requests,
            "idle_limit_seconds": self.idle_seconds,
            "rss_bytes": _rss_bytes(),
            "memories": self.service.index.stats()["memories"],
        }


def _rss_bytes() -> int:
    with contextlib.suppress(OSError, ValueError, IndexError):
        for line in Path("/proc/self/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) * 1024
    return 0


def setup_logging(root: Path) -> None:
    path = log_path(root)
    private_dir(path.parent)
    handler = logging.handlers.RotatingFileHandler(path, maxBytes=1_000_000, backupCount=3)
    handler.setFormatter(logging.Formatter("%(asctime)s %(levelname)s %(name)s: %(message)s"))
    root_logger = logging.getLogger()
    root_logger.addHandler(handler)
    root_logger.setLevel(logging.INFO)


def run(vault: Vault, settings: Settings, idle_seconds: float | None = None) -> int:
    """Run a daemon in the foreground until idle, SIGTERM or a shutdown request."""
    setup_logging(vault.root)
    daemon = Daemon(vault, settings, idle_seconds)
    try:
        daemon.acquire()
    except AlreadyRunning as exc:
        log.info("%s", exc)
        return 0
    previous = {sig: signal.signal(sig, daemon.stop) for sig in (signal.SIGTERM, signal.SIGINT)}
    try:
        daemon.warm_up()
        daemon.serve_forever()
    finally:
        daemon.shutdown()
        for sig, handler in previous.items():
            signal.signal(sig, _restore(handler))
    return 0


def _restore(handler: Any) -> Any:
    return handler if handler is not None else signal.SIG_DFL
