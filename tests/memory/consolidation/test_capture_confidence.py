"""Capture retires at once only what the judge is confident about (issue 24,
round five): a change said in words ("moved from port 7001") retires the old
memory (tests/memory/consolidation/test_capture_keeps_plain_changes.py); a bare
new value ("listens on port 7400", nothing said about a change) is written and
recalled, the old memory stays, and the supersede waits on the review list,
where `vault consolidate --review --apply` does it. Real transcripts through
`vault` subprocesses and the real model."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from tests.memory.consolidation.test_capture_changes import transcript, vault_cli
from vault.frontmatter import parse
from vault.layout import Vault
from vault.store import MemoryStore

pytestmark = pytest.mark.model
BEFORE = "Remember that the reports worker listens on port 7001."
BARE = "Remember that the reports worker listens on port 7400."


def bodies(folder: Path) -> dict[str, str]:
    """Each memory's text (links in the front matter name other memories' ids)."""
    return {p.stem: parse(p.read_text()).body for p in sorted(folder.glob("*.md"))}


def test_a_change_the_judge_is_not_sure_of_waits_for_review(vault: Vault, tmp_path: Path) -> None:
    projects = tmp_path / "claude" / "projects" / "-home-dev-reports"
    env = {**os.environ, "CLAUDE_CONFIG_DIR": str(tmp_path / "claude"),
           "VAULT_NOW": "2026-04-01T09:00:00Z"}  # fmt: skip
    first = transcript(projects, "s1", "2026-03-02T09:00:00Z", [BEFORE])
    done = vault_cli(vault, env, "capture", "--transcript", str(first))
    assert done.returncode == 0, done.stderr
    [old_id] = [k for k, v in bodies(vault.memories_dir).items() if "7001" in v]

    later = transcript(projects, "s2", "2026-03-20T09:00:00Z", [BARE])
    done = vault_cli(vault, env, "capture", "--transcript", str(later))
    assert done.returncode == 0, done.stderr
    assert "superseded" not in done.stdout
    assert "1 change(s) left for `vault consolidate --review`" in done.stdout
    active = bodies(vault.memories_dir)
    [new_id] = [k for k, v in active.items() if "7400" in v]
    assert old_id in active  # nothing retired until someone decides

    recalled = vault_cli(vault, env, "recall", "which port does the reports worker listen on")
    assert recalled.returncode == 0, recalled.stderr
    assert "7400" in recalled.stdout

    listed = vault_cli(vault, env, "consolidate", "--review")
    assert listed.returncode == 0, listed.stderr
    assert f"1. supersede {old_id} by {new_id} (port 7001 -> 7400, from capture)" in listed.stdout

    applied = vault_cli(vault, env, "consolidate", "--review", "--apply", "1")
    assert applied.returncode == 0, applied.stderr
    assert old_id not in bodies(vault.memories_dir)
    store = MemoryStore(vault)
    assert store.read(old_id).archived
    assert store.read(old_id).superseded_by == (f"[[{new_id}]]",)
    assert store.read(new_id).supersedes == (f"[[{old_id}]]",)
