"""Note folders moved by the settings (`daily_folder`, `weekly_folder`, ...), as a
person sets them in config.toml or VAULT_*: every writer and reader follows them
(the CLI's notes, the SessionStart briefing, the periodic-link bonus, sync),
and a folder outside the vault is a one-line error. Real processes, real files."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from hooks.client.control import stop
from vault.layout import Vault

NOW = "2027-01-27T10:00:00Z"  # a Wednesday of 2027-W04
MOVED = """[notes]
daily_folder = "journal/days"
weekly_folder = "journal/weeks"
monthly_folder = "journal/months"
"""


def vault(root: Path, *args: str, code: int = 0, **env: str) -> subprocess.CompletedProcess[str]:
    done = subprocess.run([sys.executable, "-m", "hooks.cli", "--vault", str(root), *args],
                          capture_output=True, text=True, timeout=120,
                          env={**os.environ, **env})  # fmt: skip
    assert done.returncode == code, done.stdout + done.stderr
    return done


def as_json(root: Path, *args: str) -> Any:
    return json.loads(vault(root, *args, "--json", "--now", NOW).stdout)


@pytest.fixture
def moved(tmp_path: Path) -> Path:
    root = tmp_path / "v"
    vault(root, "init")
    (root / "config.toml").write_text(MOVED)
    return root


def test_daily_and_periodic_notes_go_where_the_settings_say(moved: Path) -> None:
    vault(moved, "daily", "--append", "Fixed the flaky date test", "--now", NOW)
    vault(moved, "weekly", "--append", "Auth flow shipped", "--now", NOW)
    vault(moved, "monthly", "--append", "Q1 planning done", "--now", NOW)
    vault(moved, "yearly", "--append", "Moved to Postgres", "--now", NOW)  # not moved: default
    assert "Fixed the flaky date test" in (moved / "journal/days/2027-01-27.md").read_text()
    assert "Auth flow shipped" in (moved / "journal/weeks/2027-W04.md").read_text()
    assert "Q1 planning done" in (moved / "journal/months/2027-01.md").read_text()
    assert "Moved to Postgres" in (moved / "periodic/yearly/2027.md").read_text()
    assert not list((moved / "daily").glob("*.md"))
    assert not list((moved / "periodic" / "weekly").glob("*.md"))
    days = as_json(moved, "daily", "--load")["days"]
    assert "Fixed the flaky date test" in days[0]["text"]
    [week] = as_json(moved, "weekly", "--list")
    assert week["path"].endswith("journal/weeks/2027-W04.md")


def test_the_environment_moves_them_too(tmp_path: Path) -> None:
    root = tmp_path / "v"
    vault(root, "init")
    vault(root, "daily", "--append", "From the env", "--now", NOW, VAULT_DAILY_FOLDER="logs")
    assert "From the env" in (root / "logs/2027-01-27.md").read_text()


def test_the_briefing_reads_the_moved_daily_log_and_weekly_note(moved: Path) -> None:
    vault(moved, "daily", "--append", "Renamed the billing queue to invoices", "--now", NOW)
    vault(moved, "weekly", "--append", "Decided: invoices go out on Mondays", "--now", NOW)
    payload = json.dumps({"hook_event_name": "SessionStart", "source": "startup",
                          "session_id": "s1", "cwd": str(moved)})  # fmt: skip
    env = {**os.environ, "VAULT_HOME": str(moved), "VAULT_NOW": NOW,
           "VAULT_DAEMON_IDLE_SECONDS": "1"}  # fmt: skip
    result = subprocess.run([sys.executable, "-m", "hooks.claude_code.entry", "session-start"],
                            input=payload, capture_output=True, text=True, env=env,
                            timeout=120)  # fmt: skip
    stop(Vault(moved))  # the hook asked a daemon for a sweep
    assert result.returncode == 0, result.stderr
    context = json.loads(result.stdout)["hookSpecificOutput"]["additionalContext"]
    assert "Renamed the billing queue to invoices" in context
    assert "invoices go out on Mondays" in context


def test_a_weekly_note_in_the_moved_folder_still_lifts_the_memory_it_links(moved: Path) -> None:
    memory_id = vault(moved, "jot", "Invoices are sent by the billing worker",
                      "--now", NOW).stdout.strip()  # fmt: skip
    vault(moved, "weekly", "--append", f"Billing: see [[{memory_id}]]", "--now", NOW)
    [row] = [r for r in as_json(moved, "access-stats") if r["id"] == memory_id]
    assert row["periodic_levels"] == ["weekly"]
    assert row["consolidation_bonus"] > 0


def test_sync_commits_the_moved_notes(moved: Path, tmp_path: Path) -> None:
    remote = tmp_path / "remote.git"
    subprocess.run(["git", "init", "--quiet", "--bare", str(remote)], check=True)
    vault(moved, "sync", "init", str(remote))
    vault(moved, "daily", "--append", "Synced from the moved folder", "--now", NOW)
    shown = vault(moved, "sync", "--dry-run").stdout
    assert "would commit 1 files: journal/days/2027-01-27.md" in shown
    vault(moved, "sync", "--no-index")
    listed = subprocess.run(["git", "ls-tree", "-r", "--name-only", "main"], cwd=remote,
                            capture_output=True, text=True, check=True).stdout  # fmt: skip
    assert "journal/days/2027-01-27.md" in listed.splitlines()
    attributes = (moved / ".gitattributes").read_text()
    assert "journal/days/*.md merge=union" in attributes  # daily logs only grow


@pytest.mark.parametrize(
    "folder", ["../outside", "/tmp/notes", "journal/../../up", ".index/days", "memories/days", ""]
)
def test_a_folder_outside_the_vault_is_a_one_line_error(tmp_path: Path, folder: str) -> None:
    root = tmp_path / "v"
    vault(root, "init")
    (root / "config.toml").write_text(f'[notes]\ndaily_folder = "{folder}"\n')
    refused = vault(root, "daily", "--append", "x", code=3)
    assert refused.stderr.strip().count("\n") == 0
    assert "daily_folder must be a folder inside the vault" in refused.stderr
    assert not (tmp_path / "outside").exists()


def test_a_folder_outside_the_vault_from_the_environment_is_refused_too(tmp_path: Path) -> None:
    root = tmp_path / "v"
    vault(root, "init")
    refused = vault(root, "weekly", "--append", "x", code=3, VAULT_WEEKLY_FOLDER="../up")
    assert refused.stderr.strip().count("\n") == 0
    assert "VAULT_WEEKLY_FOLDER: weekly_folder must be a folder inside the vault" in refused.stderr
    assert not (tmp_path / "up").exists()
