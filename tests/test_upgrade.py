"""A vault and index written by the previous release (tests/fixtures/release_0_1_0,
made by its code) open with this one: the index is used as it is (no rebuild, no
re-embedding), recall by meaning finds the old memories, and writes carry on."""

from __future__ import annotations

import json
import os
import shutil
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

FIXTURE = Path(__file__).parent / "fixtures" / "release_0_1_0" / "vault"
VAULT = Path(sys.executable).parent / "vault"
BILLING = "2026-01-01-decided-keep-billing-amounts-integer-cents-7c87"

pytestmark = pytest.mark.model


def cli(root: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "VAULT_NOW": "2026-01-05T09:00:00Z", "HF_HUB_OFFLINE": "1"}
    result = subprocess.run([str(VAULT), "--vault", str(root), *args], capture_output=True,
                            text=True, env=env, timeout=300)  # fmt: skip
    assert result.returncode == 0, (args, result.stderr)
    return result


def meta(root: Path, key: str) -> str | None:
    with sqlite3.connect(root / ".index" / "meta.sqlite") as db:
        row = db.execute("SELECT value FROM meta WHERE key = ?", (key,)).fetchone()
    return None if row is None else str(row[0])


def test_a_vault_of_release_0_1_0_opens_as_it_is(tmp_path: Path) -> None:
    root = tmp_path / "vault"
    shutil.copytree(FIXTURE, root)
    assert cli(root, "reindex", "--check").stdout.startswith(
        "Would change: 0 added, 0 re-embedded, 0 metadata-only, 0 moved, 0 removed"
    )
    found = json.loads(cli(root, "recall", "how are billing amounts stored?", "--json").stdout)
    assert BILLING in json.dumps(found)
    cli(root, "jot", "Invoices are numbered per year, starting at 1.", "--kind", "fact")
    status = json.loads(cli(root, "status", "--json").stdout)
    assert status["active"]["episodic"] == 4
    assert meta(root, "rebuilds") is None  # nothing was rebuilt: the old index was used
    assert int(meta(root, "generation") or 0) > 3  # and written on, generation by generation
