"""The warm daemon: its socket folder safe, one running or started, serving the
installed version (one of another version is restarted: the only check that acts)."""

from __future__ import annotations

from hooks.client import client, control
from hooks.client.protocol import UnsafeSocketFolder, log_path, socket_file, trusted_socket_folder
from hooks.doctor.report import Check, failed, passed
from vault.layout import Vault


def daemon_check(vault: Vault) -> Check:
    socket = socket_file(vault.root)
    try:
        trusted_socket_folder(socket)
    except UnsafeSocketFolder as exc:
        return failed("daemon", str(exc), "remove that folder; the daemon makes a private one")
    before = client.ping(vault.root)
    answer = control.start(vault)
    if answer is None:
        return failed(
            "daemon",
            f"did not start within {control.START_TIMEOUT:.0f} s",
            f"see {log_path(vault.root)}, then `vault daemon restart`",
        )
    version = answer.get("version")
    replaced = before is not None and before.get("version") != version
    how = f"restarted (it served {before.get('version')})" if replaced and before else "running"
    if before is None:
        how = "started"
    return passed("daemon", f"{how}: pid {answer['pid']}, version {version}, socket {socket}")
