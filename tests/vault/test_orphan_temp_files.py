"""Temp files of killed writers: the next start removes ours whose writer is
gone (its flock is free) and never a live writer's, nor anyone else's file."""

from __future__ import annotations

import fcntl
import os
import subprocess
import sys
from pathlib import Path

import pytest

from vault import atomic
from vault.layout import Vault

ORPHAN = ".note.md.0123456789ab.tmp"


def test_orphans_go_and_live_or_foreign_files_stay(tmp_path: Path) -> None:
    (tmp_path / "memories" / "deep").mkdir(parents=True)
    (tmp_path / ".git").mkdir()
    orphan = tmp_path / "memories" / "deep" / ORPHAN
    orphan.write_text("half a note")
    live = tmp_path / "memories" / ".live.md.ba9876543210.tmp"
    live.write_text("being written")
    foreign = [tmp_path / "memories" / "draft.tmp", tmp_path / ".git" / ORPHAN]
    for path in foreign:
        path.write_text("not ours to remove")
    fd = os.open(live, os.O_RDONLY)
    fcntl.flock(fd, fcntl.LOCK_EX)  # a writer still at work
    try:
        # another process, as the next start would be (flocks are per open file)
        code = "import sys; from pathlib import Path; from vault.atomic import " \
               "remove_orphan_temp_files as r; print(r(Path(sys.argv[1])))"  # fmt: skip
        run = subprocess.run([sys.executable, "-c", code, str(tmp_path)], capture_output=True,
                             text=True, timeout=60)  # fmt: skip
    finally:
        os.close(fd)
    assert run.stdout.strip() == "1", run.stderr
    assert not orphan.exists()
    assert live.exists()
    assert all(path.exists() for path in foreign)


def test_a_write_survives_a_cleaner_and_leaves_no_temp_file(tmp_path: Path) -> None:
    target = tmp_path / "note.md"
    cleaned: list[int] = []

    def write(tmp: str) -> None:
        cleaned.append(atomic.remove_orphan_temp_files(tmp_path))  # mid-write
        Path(tmp).write_text("whole")

    atomic.atomic_replace(target, write)
    assert cleaned == [0]
    assert target.read_text() == "whole"
    assert os.listdir(tmp_path) == ["note.md"]


def test_the_next_cli_start_removes_a_killed_writers_temp_file(vault: Vault) -> None:
    orphan = vault.memories_dir / ORPHAN
    orphan.write_text("---\nid: note\n")
    state_orphan = vault.state_dir / ".cursors.json.0123456789ab.tmp"
    state_orphan.write_text("{")
    run = subprocess.run([sys.executable, "-m", "hooks.cli", "--vault", str(vault.root),
                          "status"], capture_output=True, text=True, timeout=120)  # fmt: skip
    assert run.returncode == 0, run.stderr
    assert not orphan.exists()
    assert not state_orphan.exists()


def test_a_write_whose_temp_file_a_cleaner_took_before_its_lock_still_lands(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Another process starts (and cleans) between the writer's creating its temp
    file and locking it: the writer takes a new temp file, so a second start later
    in the write finds it locked and the note is saved."""
    target = tmp_path / "note.md"
    cleaned: list[int] = []
    flock = fcntl.flock

    def late_lock(fd: int, operation: int) -> None:
        if operation == fcntl.LOCK_EX and not cleaned:  # the writer's first lock
            cleaned.append(atomic.remove_orphan_temp_files(tmp_path))
        flock(fd, operation)

    def write(tmp: str) -> None:
        Path(tmp).write_text("whole")
        cleaned.append(atomic.remove_orphan_temp_files(tmp_path))  # before the rename

    monkeypatch.setattr(atomic.fcntl, "flock", late_lock)
    atomic.atomic_replace(target, write)
    assert cleaned == [1, 0]  # the unlocked empty file went; the written one stayed
    assert target.read_text() == "whole"
    assert os.listdir(tmp_path) == ["note.md"]
