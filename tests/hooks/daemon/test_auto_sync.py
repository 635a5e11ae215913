"""The daemon's automatic sync: off by default, only every interval, only when
no request is being answered or came in lately, and it really syncs."""

from __future__ import annotations

import subprocess
from pathlib import Path

from hooks.daemon.auto_sync import AutoSync, driver_command
from tests.conftest import FakeClock
from vault import git_sync
from vault.config import load_settings
from vault.layout import Vault


class Ticks:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def test_off_by_default(vault: Vault) -> None:
    auto = AutoSync(vault, load_settings(None, {}), Ticks())
    assert not auto.enabled
    assert not auto.due(last_request=0.0, busy=False)


def test_due_only_after_the_interval_and_a_quiet_spell(vault: Vault) -> None:
    ticks = Ticks()
    settings = load_settings(None, {"VAULT_SYNC_INTERVAL_MINUTES": "10",
                                    "VAULT_SYNC_QUIET_SECONDS": "60"})  # fmt: skip
    auto = AutoSync(vault, settings, ticks)
    ticks.now += 599
    assert not auto.due(last_request=0.0, busy=False)  # not an interval yet
    ticks.now += 1
    assert auto.due(last_request=0.0, busy=False)
    assert not auto.due(last_request=0.0, busy=True)  # a prompt is being answered
    assert not auto.due(last_request=ticks.now - 30, busy=False)  # a request came just now
    assert auto.due(last_request=ticks.now - 60, busy=False)


def test_a_run_syncs_and_the_next_waits_an_interval(vault: Vault, tmp_path: Path) -> None:
    remote = tmp_path / "remote.git"
    subprocess.run(["git", "init", "--quiet", "--bare", str(remote)], check=True)
    git_sync.init(vault, str(remote), driver_command(), "here")
    (vault.memories_dir / "note.md").write_text("A note dropped in by hand.\n")
    ticks = Ticks()
    settings = load_settings(None, {"VAULT_SYNC_INTERVAL_MINUTES": "5"})
    auto = AutoSync(vault, settings, ticks, FakeClock())
    ticks.now += 300
    result = auto.run()
    assert result is not None
    assert (result.committed, result.pushed) == (1, True)
    assert not auto.due(last_request=0.0, busy=False)
    assert git_sync.status(vault).last_sync == "2026-01-01T09:00:00Z"


def test_a_vault_without_git_is_left_alone(vault: Vault) -> None:
    auto = AutoSync(vault, load_settings(None, {"VAULT_SYNC_INTERVAL_MINUTES": "1"}), Ticks())
    assert auto.run() is None
    assert not (vault.root / ".git").exists()
