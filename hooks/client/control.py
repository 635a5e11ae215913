"""`vault daemon status|start|stop|restart`: manage the warm daemon from outside."""

from __future__ import annotations

import os
import signal
import time
from typing import Any

from hooks.client import client
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
    """The running daemon's ping once it is ready; one is started if none runs."""
    answer = client.ping(vault.root)
    if answer is not None and answer.get("ready", True):
        return answer
    if answer is None:
        client.starting_path_clear(vault.root)
        client.spawn(vault.root, os.environ)
    return client.wait_until_up(vault.root, START_TIMEOUT)


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
