"""The Python API as a script or notebook uses it: its own process, a vault of
its own, the real model; and the same calls handed to a running daemon."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from hooks.client import client
from hooks.client.control import stop
from vault.layout import Vault

pytestmark = pytest.mark.model

SCRIPT = textwrap.dedent(
    """
    import sys
    from hooks.api import MemoryVault, VaultApiError

    vault = MemoryVault(sys.argv[1], now="2026-03-02T09:00:00Z")
    vault.init()
    fact = vault.jot("Release branches are cut on Thursdays after the standup.",
                     project="github.com/acme/api", tags=["release"])
    vault.jot("The orders service listens on port 8001.")
    hits = vault.recall("when do we cut a release branch?", limit=1)
    print("recall", hits[0].id == fact, hits[0].project)
    print("show", vault.show(fact)["tags"])
    vault.forget(fact)
    print("cold", [h.id for h in vault.recall_cold("release branches cut on thursdays")] == [fact])
    print("revive", vault.revive(fact)["archived"])
    try:
        vault.show("no-such-memory")
    except VaultApiError as error:
        print("error", error.exit_code, str(error).splitlines()[0][:40])
    """
)


def run_script(root: Path) -> list[str]:
    done = subprocess.run([sys.executable, "-c", SCRIPT, str(root)], capture_output=True,
                          text=True, timeout=300, env=os.environ.copy())  # fmt: skip
    assert done.returncode == 0, done.stderr
    return done.stdout.splitlines()


EXPECTED = [
    "recall True github.com/acme/api",
    "show ['release']",
    "cold True",
    "revive False",
]


def test_a_script_uses_a_vault_without_the_cli(tmp_path: Path) -> None:
    lines = run_script(tmp_path / "vault")
    assert lines[:4] == EXPECTED
    assert lines[4].startswith("error 1 ")
    assert (tmp_path / "vault" / "memories").is_dir()


def test_with_a_daemon_running_the_calls_go_to_it(tmp_path: Path) -> None:
    root = tmp_path / "vault"
    subprocess.run([sys.executable, "-m", "hooks.cli", "--vault", str(root), "init"], check=True,
                   capture_output=True)  # fmt: skip
    server = subprocess.Popen([sys.executable, "-m", "hooks.cli", "--vault", str(root), "serve"],
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)  # fmt: skip
    try:
        assert client.wait_until_up(root, 120) is not None
        before = int(client.ping(root)["requests"])  # type: ignore[index]
        assert run_script(root)[:4] == EXPECTED
        assert int(client.ping(root)["requests"]) >= before + 7  # type: ignore[index]
    finally:
        stop(Vault(root))
        server.wait(timeout=60)
