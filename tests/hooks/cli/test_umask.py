"""Memories are private notes: a `vault jot` run under umask 077 writes 0600."""

from __future__ import annotations

import os
import stat
import subprocess
import sys
from pathlib import Path


def test_vault_jot_under_umask_077_writes_0600(tmp_path: Path) -> None:
    def private() -> None:
        os.umask(0o077)

    def vault_cli(*args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run([sys.executable, "-m", "hooks.cli", *args], capture_output=True,
                              text=True, env=dict(os.environ), preexec_fn=private,
                              timeout=120)  # fmt: skip

    assert vault_cli("init").returncode == 0
    jotted = vault_cli("jot", "the release train leaves on Thursdays")
    assert jotted.returncode == 0, jotted.stderr
    memory = tmp_path / "vault" / "memories" / f"{jotted.stdout.strip()}.md"
    assert stat.S_IMODE(memory.stat().st_mode) == 0o600
