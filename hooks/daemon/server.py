"""`vault serve`: one warm daemon per vault.

Holds the MemoryService, the model, FAISS and the watcher; answers JSON
requests on a unix socket only the owner can use (0600 socket, 0700 folder).
An flock on `.index/run/daemon.lock` guarantees one instance per vault; a stale
socket or pid file never blocks a start. The socket is bound before the warm-up,
so early requests wait for it instead of failing (ping answers at once, with
`ready`). Requests run one at a time (one encoder thread). Exits after
`daemon_idle_seconds` without requests, and cleanly on SIGTERM.
"""

from __future__ import annotations

import collections
import contextlib
import fcntl
import logging
import os
import signal
import socket
import threading
import time
from typing import Any

from hooks.client.protocol import (
    RAW_REPLY_OPS,
    ProtocolError,
    decode,
    encode,
    error_line,
    lock_path,
    make_socket_folder,
    pid_path,
    private_dir,
    read_line,
    run_dir,
    socket_path,
    starting_path,
)
from hooks.daemon.auto_sync import AutoSync
from hooks.daemon.index_check import IndexCheck
from hooks.daemon.process import clean_temp_files, release_free_memory, rss_bytes, setup_logging
from hooks.ops.requests import Reply, Step
from hooks.ops.table import EXPECTED_ERRORS, UNLOCKED_OPS, dispatch_reply
from hooks.version import installed_version
from indexer.embedder import serving_embedder
from indexer.index import VaultIndex
from indexer.watch import Changes, VaultWatcher
from memory.service import MemoryService
from vault.config import Settings
from vault.layout import Vault

log = logging.getLogger("memory_vault.daemon")
SLOW_STEP_SECONDS = 0.5
QUIET_SECONDS = 20.0  # no request for this long: housekeeping may run
Answer = dict[str, Any]  # the reply envelope: {"ok": ..., "result" | "error", "kind"}


class AlreadyRunning(Exception):
    """Another daemon holds this vault's lock."""


class Daemon:
    def __init__(
        self,
        vault: Vault,
        settings: Settings,
        idle_seconds: float | None = None,
        first: dict[str, Any] | None = None,
    ) -> None:
        """`first`: a request to do as soon as the daemon is warm (from whoever spawned it)."""
        self.vault = vault = vault.configured(settings)  # its note folders (auto sync commits)
        self.first = first
        self.settings = settings
        self.idle_seconds = float(idle_seconds or settings.daemon_idle_seconds)
        index = VaultIndex(self.vault, settings, embedder=serving_embedder(settings.model))
        self.service = MemoryService(
            self.vault, settings, auto_sync=False, embed_on_write=True, index=index
        )
        self.started, self.version = time.time(), installed_version()  # the code it runs
        self.ready_seconds: float | None = None  # from start to ready to answer
        self.last_request = time.monotonic()
        self.requests = 0
        self._ready = threading.Event()  # set when warm (or when the warm-up failed)
        self._failure = ""  # why the warm-up failed
        self._stop = threading.Event()
        self._work = threading.Lock()  # one request (one encoder thread) at a time
        self.service.turn = self._work  # long work (a rebuild) takes it step by step
        self._active: set[int] = set()  # threads answering a request: never idle meanwhile
        self._prompts = threading.Condition()  # hook events waiting: follow-up work yields
        self._prompts_waiting = 0
        self.quiet_seconds = QUIET_SECONDS
        self._idle_work: collections.deque[tuple[dict[str, Any], Step]] = collections.deque()
        self._idle_worker: threading.Thread | None = None
        self._lock_fd: int | None = None
        self._watcher: VaultWatcher | None = None
        self.auto_sync = AutoSync(vault, settings)
        self.index_check = IndexCheck(self.service, settings, self._work, QUIET_SECONDS)

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
        """Everything a first request would otherwise pay for: the model and its
        first encode, the catalog and FAISS, a sync, the watcher."""
        self.service.require_vault()
        clean_temp_files(self.vault.root)
        index = self.service.index
        index.embedder.encode(["warm up"])
        self.index_check.at_start()  # on a large vault only the changed folders
        index.search("warm up", k=1)
        self._watcher = VaultWatcher(self.vault, self._apply_changes, folders=index.folders or None)
        self._watcher.start()
        if self.settings.compaction_watch:  # Claude Code's transcripts, for compactions
            from hooks.claude_code.compaction import start_watch_thread

            interval = float(self.settings.compaction_poll_seconds)
            start_watch_thread(self.service, os.environ, interval, self._stop, self._work)
        release_free_memory()

    def _warm_then_answer(self) -> None:
        try:
            with self._work:
                self.warm_up()
        except Exception as exc:  # waiting clients hear why, then the daemon exits
            log.exception("warm-up failed")
            self._failure = error_line(exc)
            self.stop()
        else:
            self.ready_seconds = round(time.time() - self.started, 2)
            log.info("ready to answer after %.2f s", self.ready_seconds)
            self.index_check.start_catch_up()  # what changed in place while none ran
        finally:
            self.last_request = time.monotonic()
            starting_path(self.vault.root).unlink(missing_ok=True)
            self._ready.set()
        if self.first is not None and not self._failure:
            self._serve(self.first)

    def _apply_changes(self, changes: Changes) -> None:
        """A file written by an editor, dropped in or pulled: the same path as a jot."""
        with self._work:
            report = self.service.on_files_changed(None if changes.rescan else changes.paths)
        if report.changed or report.problems:
            log.info("watcher: %s", report.summary())

    def serve_forever(self) -> None:
        """Bind, warm up in the background, and answer until idle or stopped."""
        server = self._listen()
        threading.Thread(target=self._warm_then_answer, name="warm-up", daemon=True).start()
        try:
            while not self._stop.is_set():
                idle = time.monotonic() - self.last_request
                if self._ready.is_set() and idle > self.idle_seconds and not self._active:
                    log.info("idle for %.0f s; exiting", self.idle_seconds)
                    break
                self._start_idle_work(time.monotonic())
                try:
                    conn, _ = server.accept()
                except TimeoutError:
                    self._maybe_auto_sync()
                    continue
                threading.Thread(target=self._handle, args=(conn,), daemon=True).start()
        finally:
            server.close()
            with contextlib.suppress(FileNotFoundError):
                socket_path(self.vault.root).unlink()

    def _listen(self) -> socket.socket:
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
        log.info("listening on %s (pid %d)", path, os.getpid())
        return server

    def _maybe_auto_sync(self) -> None:
        if self._ready.is_set() and not self._failure:
            self.auto_sync.start_if_due(self.last_request, self._work.locked(), self._after_pull)
            self.index_check.start_if_due(time.monotonic(), self.last_request)

    def _after_pull(self) -> None:
        with self._work:  # the watcher may have applied them already: then a no-op
            report = self.service.sync()
        log.info("index after automatic sync: %s", report.summary())

    def shutdown(self) -> None:
        if self._watcher is not None:
            self._watcher.stop()
        with self._work:
            self.service.index.close()
        pid_path(self.vault.root).unlink(missing_ok=True)
        starting_path(self.vault.root).unlink(missing_ok=True)
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
                self._take(conn)
        finally:
            self._active.discard(threading.get_ident())
            self.last_request = time.monotonic()

    def _take(self, conn: socket.socket) -> None:
        conn.settimeout(30)
        try:
            message = decode(read_line(conn))
        except (OSError, ProtocolError) as exc:
            message = {"op": "", "error": f"bad request: {exc}"}
        if message.get("op") in ("ping", "shutdown"):  # never wait behind work
            reply, steps = self._answer(message)
            self._send(conn, reply)
            return
        urgent = message.get("op") in RAW_REPLY_OPS  # a person waits for these
        self._count_waiting(urgent)
        self._ready.wait()  # a request that came during the warm-up waits for it
        if self._failure:
            self._count_waiting(-urgent)
            failed = f"the daemon could not start: {self._failure}"
            self._send(conn, {"ok": False, "error": failed, "kind": "internal"})
            return
        if message.get("op") in UNLOCKED_OPS:  # takes the work lock in turns itself
            self._count_waiting(-urgent)
            reply, steps = self._answer(message)
            self._send(conn, reply, message.get("op"))
            return
        self._serve(message, conn, urgent)

    def idle_work_due(self, now: float) -> bool:
        """Housekeeping waits for quiet: ready, and no request for `quiet_seconds`."""
        quiet = now - self.last_request >= self.quiet_seconds
        busy = self._idle_worker is not None and self._idle_worker.is_alive()
        return bool(self._idle_work) and quiet and not busy and self._ready.is_set()

    def _start_idle_work(self, now: float) -> None:
        """One housekeeping step at a time; the quiet is checked again before each."""
        if self.idle_work_due(now):
            message, step = self._idle_work.popleft()

            def run() -> None:
                with self._work:
                    self._run_step(message, step)

            self._idle_worker = threading.Thread(target=run, name="housekeeping", daemon=True)
            self._idle_worker.start()

    def _count_waiting(self, hook_events: int) -> None:
        with self._prompts:
            self._prompts_waiting += hook_events
            self._prompts.notify_all()

    def _serve(
        self, message: dict[str, Any], conn: socket.socket | None = None, urgent: bool = False
    ) -> None:
        """One request at a time: the reply goes out first, then its follow-up steps.
        Hook events (prompts, tool calls) go before any follow-up step still to run."""
        with self._work:
            self._count_waiting(-urgent)  # being served now
            reply, steps = self._answer(message)
            if conn is not None:
                self._send(conn, reply, message.get("op"))
            if steps and not self._prompts_waiting:
                self._run_step(message, steps[0])
                steps = steps[1:]
        for step in steps:
            with self._prompts:  # bounded: a hook event takes well under a second
                self._prompts.wait_for(lambda: self._prompts_waiting == 0, timeout=10)
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
        started = time.perf_counter()
        try:
            step()
        except EXPECTED_ERRORS as exc:
            log.info("follow-up of %s failed: %s", message.get("op"), exc)
        except Exception:  # a bug must not kill the daemon; it is logged in full
            log.exception("follow-up of %s crashed", message.get("op"))
        seconds = time.perf_counter() - started
        if seconds > SLOW_STEP_SECONDS:  # what a prompt may have waited behind
            log.info("a follow-up step of %s took %.1f s", message.get("op"), seconds)

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
            if not any(queued.get("op") == op for queued, _ in self._idle_work):  # once is enough
                self._idle_work.extend((message, step) for step in reply.idle_steps)
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
        basics = {
            "pid": os.getpid(),
            "version": self.version,
            "vault": str(self.vault.root),
            "uptime_seconds": round(time.time() - self.started, 1),
            "ready": self._ready.is_set() and not self._failure,
        }
        if not basics["ready"]:  # the index belongs to the warm-up until then
            return basics
        return {
            **basics,
            "ready_seconds": self.ready_seconds,
            "requests": self.requests,
            "idle_limit_seconds": self.idle_seconds,
            "rss_bytes": rss_bytes(),
            "memories": self.service.index.stats()["memories"],
        }


def run(
    vault: Vault,
    settings: Settings,
    idle_seconds: float | None = None,
    first: dict[str, Any] | None = None,
) -> int:
    """Run a daemon in the foreground until idle, SIGTERM or a shutdown request;
    `first` is a request to do once warm."""
    setup_logging(vault.root)
    daemon = Daemon(vault, settings, idle_seconds, first)
    try:
        daemon.acquire()
    except AlreadyRunning as exc:
        log.info("%s", exc)
        return 0
    previous = {sig: signal.signal(sig, daemon.stop) for sig in (signal.SIGTERM, signal.SIGINT)}
    try:
        daemon.serve_forever()
    finally:
        daemon.shutdown()
        for sig, handler in previous.items():
            signal.signal(sig, handler if handler is not None else signal.SIG_DFL)
    return 0
