"""The merge driver as git runs it during a sync (the command `vault sync`
registers, through a shell, with git's %O %A %B %P): counters merged, a real
conflict left with markers and exit 1, bad use one line and exit 2, and
nothing from the vault folder (git's working directory) ever imported."""

from __future__ import annotations

import subprocess
from pathlib import Path

from hooks.daemon.auto_sync import driver_command

BASE = "---\nid: a\nrecalls: 1\n---\nDeploys on Tuesday.\n"


def run_driver(folder: Path, base: str, ours: str, theirs: str) -> subprocess.CompletedProcess[str]:
    for name, text in (("base", base), ("ours", ours), ("theirs", theirs)):
        (folder / name).write_text(text)
    command = driver_command().replace("%O", "base").replace("%A", "ours")
    command = command.replace("%B", "theirs").replace("%P", "memories/a.md")
    return subprocess.run(command, shell=True, cwd=folder, text=True, capture_output=True)


def test_both_sides_recalls_are_added_up(tmp_path: Path) -> None:
    ours, theirs = (
        BASE.replace("recalls: 1", "recalls: 2"),
        BASE.replace("recalls: 1", "recalls: 3"),
    )
    result = run_driver(tmp_path, BASE, ours, theirs)
    assert result.returncode == 0, result.stderr
    assert (tmp_path / "ours").read_text() == BASE.replace("recalls: 1", "recalls: 4")


def test_a_body_changed_two_ways_is_left_with_markers_and_exit_1(tmp_path: Path) -> None:
    ours, theirs = BASE.replace("Tuesday", "Monday"), BASE.replace("Tuesday", "Friday")
    result = run_driver(tmp_path, BASE, ours, theirs)
    assert result.returncode == 1
    merged = (tmp_path / "ours").read_text()
    assert "<<<<<<< memories/a.md (this side)" in merged
    assert "Friday" in merged
    assert result.stderr.strip().splitlines() == [
        "memory-vault: a real conflict in memories/a.md is left with markers"
    ]


def test_a_hooks_folder_in_the_vault_is_never_run(tmp_path: Path) -> None:
    planted = tmp_path / "hooks" / "cli"
    planted.mkdir(parents=True)
    for folder in (tmp_path / "hooks", planted):
        (folder / "__init__.py").write_text("")
    (planted / "merge_driver.py").write_text("open('PLANTED', 'w').write('ran')\n")
    result = run_driver(tmp_path, BASE, BASE, BASE.replace("recalls: 1", "recalls: 2"))
    assert result.returncode == 0, result.stderr
    assert not (tmp_path / "PLANTED").exists()
    assert "recalls: 2" in (tmp_path / "ours").read_text()


def test_bad_use_is_one_line_and_exit_2(tmp_path: Path) -> None:
    command = driver_command().split(" %O")[0] + " only-one-file"
    result = subprocess.run(command, shell=True, cwd=tmp_path, text=True, capture_output=True)
    assert result.returncode == 2
    assert len(result.stderr.strip().splitlines()) == 1
    assert result.stderr.startswith("usage:")
