"""Memories are private notes: under umask 077 every file `vault` creates in
the vault (a jot, the daily log, state and index files) is 0600, each written
by a real CLI process."""

from __future__ import annotations

import os
import shutil
import stat
import subprocess
import sys
from pathlib import Path


def test_files_created_under_umask_077_are_0600(tmp_path: Path) -> None:
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
    appended = vault_cli("daily", "--append", "shipped the fix")
    assert appended.returncode == 0, appended.stderr
    created = [p for p in (tmp_path / "vault").rglob("*") if p.is_file()]
    assert {"memories", "daily", ".index"} <= {p.parent.name for p in created}
    loose = {str(p): oct(stat.S_IMODE(p.stat().st_mode)) for p in created
             if stat.S_IMODE(p.stat().st_mode) & 0o077}  # fmt: skip
    assert loose == {}


def test_a_rebuilt_index_folder_is_private_whatever_the_umask(tmp_path: Path) -> None:
    def shared() -> None:
        os.umask(0o022)

    def vault_cli(*args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run([sys.executable, "-m", "hooks.cli", *args], capture_output=True,
                              text=True, env=dict(os.environ), preexec_fn=shared,
                              timeout=120)  # fmt: skip

    assert vault_cli("init").returncode == 0
    assert vault_cli("jot", "the release train leaves on Thursdays").returncode == 0
    index = tmp_path / "vault" / ".index"
    shutil.rmtree(index)  # "delete it: nothing is lost"
    rebuilt = vault_cli("reindex", "--full")
    assert rebuilt.returncode == 0, rebuilt.stderr
    assert oct(stat.S_IMODE(index.stat().st_mode)) == oct(0o700)
