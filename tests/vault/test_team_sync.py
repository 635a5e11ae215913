"""A small team on one remote (benchmarks/team_bench.py at small sizes): three
people writing, reinforcing, consolidating and syncing at once, with private
memories; nothing lost, nothing counted twice, nothing private pushed."""

from __future__ import annotations

from pathlib import Path

from benchmarks.team_bench import run


def test_a_team_syncing_at_once_loses_nothing_and_keeps_private_memories_home(
    tmp_path: Path,
) -> None:
    report = run(users=3, rounds=6, work=tmp_path)
    assert report.merges >= 1
    assert report.private_written >= 3
    assert (report.lost, report.markers, report.conflicts_reported) == (0, 0, 0)
    assert report.private_pushed == 0
    assert report.recalls_counted == report.reinforcements  # each once, merges included
    assert report.vaults_agree
