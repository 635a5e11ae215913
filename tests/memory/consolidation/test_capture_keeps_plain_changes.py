"""Capture keeps plain changes (issue 24, item 6): a statement the durable
judgement reads as passing ("the thumbnail renderer moved from port 6100 to
port 6300": no rule, no reason, score under 0.5) is still kept when it changes
a memory, and retires it; one that changes nothing is still dropped. Real
transcripts through `vault capture` subprocesses and the real model."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from tests.memory.consolidation.test_capture_changes import bodies, transcript, vault_cli
from vault.layout import Vault
from vault.store import MemoryStore

pytestmark = pytest.mark.model
PORT_BEFORE = "The thumbnail renderer listens on port 6100 behind the internal proxy."
TIME_BEFORE = "The invoice exporter writes its CSV files to the shared bucket every night at 01:15."
PORT_MOVED = "The thumbnail renderer moved from port 6100 to port 6300."
TIME_MOVED = "The invoice exporter went from 01:15 to 03:40."
CHATTER = "I moved my desk off the third floor."


def test_a_plain_change_is_kept_and_supersedes_what_it_changes(
    vault: Vault, tmp_path: Path
) -> None:
    projects = tmp_path / "claude" / "projects" / "-home-dev-media"
    env = {**os.environ, "CLAUDE_CONFIG_DIR": str(tmp_path / "claude"),
           "VAULT_NOW": "2026-04-01T09:00:00Z"}  # fmt: skip
    first = transcript(projects, "s1", "2026-03-02T09:00:00Z", [PORT_BEFORE, TIME_BEFORE])
    done = vault_cli(vault, env, "capture", "--transcript", str(first))
    assert done.returncode == 0, done.stderr
    before = bodies(vault.memories_dir)
    [port_id] = [k for k, v in before.items() if "6100" in v]
    [time_id] = [k for k, v in before.items() if "01:15" in v]

    later = transcript(projects, "s2", "2026-03-20T09:00:00Z", [PORT_MOVED, TIME_MOVED, CHATTER])
    done = vault_cli(vault, env, "capture", "--transcript", str(later))
    assert done.returncode == 0, done.stderr
    assert "superseded 2" in done.stdout
    active = bodies(vault.memories_dir)
    [port_new] = [k for k, v in active.items() if "6300" in v]
    [time_new] = [k for k, v in active.items() if "03:40" in v]
    assert port_id not in active
    assert time_id not in active
    assert not [k for k, v in active.items() if "desk" in v]  # a change of nothing kept
    store = MemoryStore(vault)
    assert store.read(port_id).superseded_by == (f"[[{port_new}]]",)
    assert store.read(time_id).superseded_by == (f"[[{time_new}]]",)
    assert store.read(port_new).supersedes == (f"[[{port_id}]]",)


def test_a_plain_change_of_nothing_kept_is_still_dropped(vault: Vault, tmp_path: Path) -> None:
    projects = tmp_path / "claude" / "projects" / "-home-dev-media"
    env = {**os.environ, "CLAUDE_CONFIG_DIR": str(tmp_path / "claude"),
           "VAULT_NOW": "2026-04-01T09:00:00Z"}  # fmt: skip
    only = transcript(projects, "s1", "2026-03-20T09:00:00Z", [PORT_MOVED, CHATTER])
    done = vault_cli(vault, env, "capture", "--transcript", str(only))
    assert done.returncode == 0, done.stderr
    assert bodies(vault.memories_dir) == {}
