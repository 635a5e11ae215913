"""Secrets given to `vault` as a person types them, run as the process a user
runs: a usage error never echoes one, and `--` lets text start with '-'."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from vault.layout import Vault

KEY_BODY = (
    "MIIEowIBAAKCAQEAu1SU1LfVLPHCozMxH2Mo4lgOEePzNm0tRgeLezV6ffAt0gunVTLw7onLRnrq0"
    "IzW7yWR7QkrmBL7jTKEn5u+qKhbwKfBstIs+bMY2Zkp18gnTxKLxoS2tFczGkPLPgizskuemMghRn"
)
PEM = f"-----BEGIN RSA PRIVATE KEY-----\n{KEY_BODY}\n-----END RSA PRIVATE KEY-----"
TOKEN = "ghp_" + "a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8"


def run(root: Path, *args: str) -> subprocess.CompletedProcess[str]:
    command = [sys.executable, "-m", "hooks.cli", "--vault", str(root), *args]
    return subprocess.run(
        command, capture_output=True, text=True, env=dict(os.environ), timeout=300
    )


def test_a_key_given_where_an_option_is_expected_is_never_echoed(vault: Vault) -> None:
    refused = run(vault.root, "jot", PEM)
    assert refused.returncode == 2
    assert KEY_BODY[:20] not in refused.stdout + refused.stderr
    assert "[REDACTED]" in refused.stderr
    assert "jot -- TEXT" in refused.stderr
    other = run(vault.root, "recall", "deploy", "-n", TOKEN)
    assert other.returncode == 2
    assert TOKEN not in other.stderr
    given = run(vault.root, "jot", "--", f"{PEM} is the deploy key of the staging box")
    assert given.returncode == 0, given.stderr
    stored = "".join(p.read_text() for p in vault.memory_files())
    assert "deploy key of the staging box" in stored
    assert KEY_BODY[:20] not in stored
