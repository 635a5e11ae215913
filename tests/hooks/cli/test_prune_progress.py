"""`vault prune` on a terminal shows how far the archiving has got, then the index
update of the moved files; piped, nothing."""

from __future__ import annotations

import json
import os
import pty
import subprocess
import sys

import pytest

from tests.hooks.cli.test_cli import read_terminal, run

pytestmark = pytest.mark.model
LONG_AFTER = "2026-06-01T09:00:00Z"  # past the archive floor of a jot never recalled


def test_prune_shows_progress_on_a_terminal_and_archives_every_faded_memory() -> None:
    run("init")
    for text in ("Billing amounts are integer cents.", "The staging database is read-only."):
        assert run("jot", text, "--now", "2026-01-01T09:00:00Z").returncode == 0
    primary, replica = pty.openpty()
    process = subprocess.Popen([sys.executable, "-m", "hooks.cli", "prune", "--now", LONG_AFTER],
                               stdout=subprocess.PIPE, stderr=replica)  # fmt: skip
    os.close(replica)
    terminal = read_terminal(primary)
    os.close(primary)
    stdout, _ = process.communicate(timeout=120)
    assert process.returncode == 0
    assert "Archiving" in terminal
    assert "Indexing" in terminal.split("Archiving")[-1]  # the moves' index update, after
    assert terminal.count("100%") >= 2
    assert b"Archived 2 memories." in stdout
    piped = run("prune", "--now", LONG_AFTER, "--json")
    assert piped.stderr == ""
    assert json.loads(piped.stdout)["archived"] == []  # nothing left to archive
