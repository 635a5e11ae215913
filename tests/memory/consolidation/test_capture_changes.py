"""Capture keeps changes (issue 24): a later session's changed decision becomes a
new memory that retires the old one (archive/, `superseded_by`), and recall
shows the new one; a restatement reinforces. Real transcripts in Claude Code's
format, through `vault capture` subprocesses and the real model."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from vault.layout import Vault
from vault.store import MemoryStore

pytestmark = pytest.mark.model
DECIDED = "let's go with structlog for logging instead of the stdlib logging module"
CHANGED = "let's use loguru instead of structlog"


def transcript(folder: Path, session: str, when: str, turns: list[str]) -> Path:
    path = folder / f"{session}.jsonl"
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("w") as handle:
        for number, text in enumerate(turns):
            line = {"type": "user", "uuid": f"{session}-{number}", "sessionId": session,
                    "cwd": str(folder), "timestamp": when,
                    "message": {"role": "user", "content": text}}  # fmt: skip
            handle.write(json.dumps(line) + "\n")
    return path


def vault_cli(vault: Vault, env: dict[str, str], *args: str) -> subprocess.CompletedProcess[str]:
    command = [sys.executable, "-m", "hooks.cli", "--vault", str(vault.root), *args]
    return subprocess.run(command, capture_output=True, text=True, env=env, timeout=300)


def bodies(folder: Path) -> dict[str, str]:
    return {p.stem: p.read_text() for p in sorted(folder.glob("*.md"))}


def test_a_changed_decision_supersedes_the_old_one_and_a_restatement_reinforces(
    vault: Vault, tmp_path: Path
) -> None:
    projects = tmp_path / "claude" / "projects" / "-home-dev-api"
    env = {**os.environ, "CLAUDE_CONFIG_DIR": str(tmp_path / "claude"),
           "VAULT_NOW": "2026-03-01T09:00:00Z"}  # fmt: skip
    first = transcript(projects, "s1", "2026-02-01T09:00:00Z", [DECIDED])
    done = vault_cli(vault, env, "capture", "--transcript", str(first))
    assert done.returncode == 0, done.stderr
    [(old_id, old_text)] = [(k, v) for k, v in bodies(vault.memories_dir).items()
                            if "structlog" in v]  # fmt: skip

    later = transcript(projects, "s2", "2026-02-20T09:00:00Z", [CHANGED])
    done = vault_cli(vault, env, "capture", "--transcript", str(later))
    assert done.returncode == 0, done.stderr
    assert "superseded 1" in done.stdout
    active = bodies(vault.memories_dir)
    [new_id] = [k for k, v in active.items() if "loguru" in v]
    assert old_id not in active
    archived = MemoryStore(vault).read(old_id)
    assert archived.archived
    assert archived.superseded_by == (f"[[{new_id}]]",)
    assert MemoryStore(vault).read(new_id).supersedes == (f"[[{old_id}]]",)

    shown = vault_cli(vault, env, "recall", "which logging library do we use", "--json")
    assert shown.returncode == 0, shown.stderr
    ids = [hit["id"] for hit in json.loads(shown.stdout)]
    assert new_id in ids
    assert old_id not in ids

    again = transcript(projects, "s3", "2026-02-25T09:00:00Z", [CHANGED])
    done = vault_cli(vault, env, "capture", "--transcript", str(again))
    assert done.returncode == 0, done.stderr
    assert "Captured 0 new, reinforced 1" in done.stdout
    assert MemoryStore(vault).read(new_id).recalls >= 1
