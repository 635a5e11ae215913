"""The daemon's version handshake and `vault daemon start`'s refusals, through real
processes: a daemon started by another install (its package metadata says another
version) is replaced; a socket folder the client would refuse is named at once."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from hooks.client import client
from hooks.client.control import stop
from hooks.version import installed_version
from vault.layout import Vault

VAULT_BIN = Path(sys.executable).parent / "vault"


def older_install(tmp_path: Path, version: str) -> dict[str, str]:
    """An environment whose package metadata says `version`, as one that ran before
    an upgrade did: the same code, earlier on sys.path a dist-info of another release."""
    meta = tmp_path / "older" / f"memory_vault-{version}.dist-info"
    meta.mkdir(parents=True)
    (meta / "METADATA").write_text(
        f"Metadata-Version: 2.1\nName: memory-vault\nVersion: {version}\n"
    )
    return {**os.environ, "PYTHONPATH": str(meta.parent)}


def vault_cli(vault: Vault, *args: str, **env: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([str(VAULT_BIN), "--vault", str(vault.root), *args],
                          capture_output=True, text=True, timeout=150,
                          env={**os.environ, **env})  # fmt: skip


@pytest.mark.model
def test_a_daemon_of_another_version_is_restarted_by_start(vault: Vault, tmp_path: Path) -> None:
    installed = installed_version()  # this environment's package metadata
    assert installed not in ("0.1.9", "unknown")
    older = subprocess.Popen([sys.executable, "-m", "hooks.daemon", "--vault", str(vault.root)],
                             env=older_install(tmp_path, "0.1.9"), stdout=subprocess.DEVNULL,
                             stderr=subprocess.DEVNULL, cwd=tmp_path)  # fmt: skip
    try:
        old = client.wait_until_up(vault.root, 120)
        assert old is not None
        assert old["version"] == "0.1.9"
        status = vault_cli(vault, "daemon", "status", "--json")
        assert '"version": "0.1.9"' in status.stdout  # status only reports
        started = vault_cli(vault, "daemon", "start", "--json")
        assert started.returncode == 0, started.stderr
        new = client.ping(vault.root)
        assert new is not None
        assert (new["version"], new["pid"] != old["pid"]) == (installed, True)
    finally:
        stop(vault)
        older.wait(timeout=30)


def test_daemon_start_names_a_refused_socket_folder_and_exits(tmp_path: Path) -> None:
    """A vault path too long for a socket of its own uses the shared temp folder;
    one open to other users is refused in one line, not waited on for minutes."""
    vault = Vault(tmp_path / ("vault-with-a-long-name-" * 5))
    assert vault_cli(vault, "init").returncode == 0
    temp = tmp_path / "tmp"
    shared = temp / f"memory-vault-{os.getuid()}"
    shared.mkdir(parents=True)
    shared.chmod(0o777)
    began = time.monotonic()
    result = vault_cli(vault, "daemon", "start", TMPDIR=str(temp))
    assert time.monotonic() - began < 30
    assert result.returncode == 5
    assert result.stderr.count("\n") == 1
    assert f"refusing the socket folder {shared}" in result.stderr
    assert "open to other users" in result.stderr
