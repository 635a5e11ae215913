"""`vault daemon status|start|stop|restart`: manage the warm daemon from outside.

A daemon serving another version than the installed one (started before an
upgrade) is restarted by `start`; a socket folder the client would refuse is
reported at once (UnsafeSocketFolder) instead of waiting for a daemon that
cannot bind.
"""

from __future__ import annotations

import os
import signal
import time
from typing import Any

from hooks.client import client
from hooks.client.protocol import socket_file, trusted_socket_folder
from hooks.version import installed_version
from vault.layout import Vault

START_TIMEOUT = 120.0


def stop(vault: Vault, timeout: float = 15.0) -> bool:
    """Ask the daemon to stop (SIGTERM if it does not answer); True if one was running."""
    pid = client.daemon_pid(vault.root)
    try:
        client.request(vault.root, "shutdown", timeout=2.0)
    except (client.DaemonUnavailable, client.DaemonError):
        if pid is None:
            return False
        os.kill(pid, signal.SIGTERM)
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline and client.daemon_pid(vault.root) is not None:
        time.sleep(0.05)
    return True


def start(vault: Vault) -> dict[str, Any] | None:
    """The running daemon's ping once it is ready; one is started if none runs, and
    one of another version is replaced. UnsafeSocketFolder: no daemon could listen."""
    trusted_socket_folder(socket_file(vault.root))
    answer = client.ping(vault.root)
    if answer is not None and answer.get("version") != installed_version():
        stop(vault)  # an older (or newer) install's daemon: this one's code serves
        answer = None
    if answer is not None and answer.get("ready", True):
        return answer
    if answer is None:
        client.starting_path_clear(vault.root)
        client.spawn(vault.root, os.environ)
    return client.wait_until_up(vault.root, START_TIMEOUT)


def replace_other_version(vault: Vault, timeout: float = 15.0) -> bool:
    """Stop a daemon that serves another version than the installed one; True if one
    was stopped (the caller's next request spawns the installed version's)."""
    answer = client.ping(vault.root)
    if answer is None or answer.get("version") == installed_version():
        return False
    return stop(vault, timeout)


def act(vault: Vault, action: str) -> dict[str, Any]:
    if action == "status":
        answer = client.ping(vault.root)
        return {"running": answer is not None, **(answer or {})}
    if action == "stop":
        return {"running": False, "stopped": stop(vault)}
    if action == "restart":
        stop(vault)
    answer = start(vault)
    return {"running": answer is not None, **(answer or {})}


def describe(result: dict[str, Any]) -> str:
    if not result.get("running"):
        return "Daemon stopped." if result.get("stopped") else "No daemon is running."
    if not result.get("ready", True):
        return f"Daemon starting: pid {result['pid']}, up {result['uptime_seconds']:.0f} s."
    rss = result.get("rss_bytes", 0) / 1e6
    return (
        f"Daemon running: pid {result['pid']}, up {result['uptime_seconds']:.0f} s, "
        f"{result['requests']} requests, {result['memories']} memories, RSS {rss:.0f} MB"
    )
