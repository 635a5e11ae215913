"""A small team on one remote (benchmarks/team_bench.py at small sizes): three
people writing, reinforcing, consolidating and syncing at once, with private
memories; nothing lost, nothing counted twice, nothing private pushed."""

from __future__ import annotations

import subprocess
from pathlib import Path

from benchmarks.team_bench import Person, TeamReport, run
from hooks.daemon.auto_sync import driver_command
from memory.context import ServiceContext
from vault import git_sync
from vault.layout import Vault


def test_a_team_syncing_at_once_loses_nothing_and_keeps_private_memories_home(
    tmp_path: Path,
) -> None:
    report = run(users=3, rounds=6, work=tmp_path)
    assert (report.rounds_done, report.syncs_failed) == (6, 0)
    assert report.merges >= 1
    assert report.private_written >= 3
    assert (report.lost, report.markers, report.conflicts_reported) == (0, 0, 0)
    assert report.private_pushed == 0
    assert report.recalls_counted == report.reinforcements  # each once, merges included
    assert report.vaults_agree
    assert (report.duplicates, report.moves_refused) == (0, 0)


def test_a_failed_sync_is_counted_and_the_next_round_sends_what_it_could_not(
    tmp_path: Path,
) -> None:
    remote = tmp_path / "remote.git"
    subprocess.run(["git", "init", "--quiet", "--bare", str(remote)], check=True)
    vault = Vault(tmp_path / "user00")
    ServiceContext.init_vault(vault)
    git_sync.init(vault, str(remote), driver_command(), "user0")
    person, report = Person(0, vault, seed=1), TeamReport(users=1, rounds=2)
    person.act(0, report)
    remote.rename(tmp_path / "away.git")  # the remote cannot be reached this round
    assert not person.sync(report)
    assert (report.syncs_ok, report.syncs_failed) == (0, 1)
    assert list(report.failures) == ["git fetch failed"]
    (tmp_path / "away.git").rename(remote)
    person.act(1, report)
    assert person.sync(report)
    pushed = subprocess.run(["git", "ls-tree", "-r", "--name-only", "main"], cwd=remote,
                            text=True, capture_output=True, check=True).stdout  # fmt: skip
    assert f"memories/{person.written[0]}.md" in pushed.split()
    assert f"memories/{person.written[1]}.md" in pushed.split()
