"""A change said after decay archived the fact it changes (issue 24): capture
supersedes the archived memory as well (it stays in archive/ and gains
`superseded_by`), so no cue brings the old value back as if it still held.
Through `vault capture` and `vault prune` subprocesses and the real model."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from vault.frontmatter import parse
from vault.layout import Vault

pytestmark = pytest.mark.model
FACT = "The reports worker listens on port 7001."
CHANGE = "The reports worker listens on port 7400 since the proxy change, not 7001."


def transcript(folder: Path, session: str, when: str, text: str) -> Path:
    path = folder / f"{session}.jsonl"
    path.parent.mkdir(parents=True, exist_ok=True)
    line = {"type": "user", "uuid": f"{session}-0", "sessionId": session, "cwd": str(folder),
            "timestamp": when, "message": {"role": "user", "content": text}}  # fmt: skip
    path.write_text(json.dumps(line) + "\n")
    return path


def vault_cli(vault: Vault, now: str, tmp_path: Path, *args: str) -> str:
    env = {**os.environ, "CLAUDE_CONFIG_DIR": str(tmp_path / "claude"), "VAULT_NOW": now}
    command = [sys.executable, "-m", "hooks.cli", "--vault", str(vault.root), *args]
    done = subprocess.run(command, capture_output=True, text=True, env=env, timeout=300)
    assert done.returncode == 0, done.stderr
    return done.stdout


def test_a_change_supersedes_the_fact_decay_archived_before_it(
    vault: Vault, tmp_path: Path
) -> None:
    projects = tmp_path / "claude" / "projects" / "-home-dev-reports"
    first = transcript(projects, "s1", "2026-01-05T09:00:00Z", FACT)
    vault_cli(vault, "2026-01-05T09:05:00Z", tmp_path, "capture", "--transcript", str(first))
    [fact] = list(vault.memories_dir.glob("*.md"))
    vault_cli(vault, "2026-03-05T09:00:00Z", tmp_path, "prune")  # 59 days: archived by decay
    [archived] = list(vault.archive_dir.glob("*.md"))
    assert archived.name == fact.name

    later = transcript(projects, "s2", "2026-03-05T10:00:00Z", CHANGE)
    out = vault_cli(vault, "2026-03-05T10:05:00Z", tmp_path, "capture", "--transcript", str(later))
    assert "superseded 1" in out
    [newer] = list(vault.memories_dir.glob("*.md"))
    meta = parse(archived.read_text()).meta
    assert meta["superseded_by"] == [f"[[{newer.stem}]]"]
    assert parse(newer.read_text()).meta["supersedes"] == [f"[[{fact.stem}]]"]
