"""A daemon on a large vault starts without stating every file (it looks into the
folders whose mtime changed), and its periodic check finds what the watcher
missed, with the hourly full scan that catches a file edited in place."""

from __future__ import annotations

import json
import os
import shutil
import time
from pathlib import Path

import pytest

from benchmarks.scale_bench_vault import generate
from hooks.daemon.server import Daemon
from indexer.folder_scan import FULL_EVERY, STATE_FILE
from indexer.index import VaultIndex
from vault.config import load_settings
from vault.layout import Vault

pytestmark = pytest.mark.model
MEMORIES = 160  # ten sessions: files in at least four folders
LARGE = {"VAULT_DAEMON_QUICK_SYNC_FILES": "10"}  # this vault counts as large


def indexed_vault(root: Path) -> Vault:
    """A vault indexed as a daemon left it: every file, and the folder mtimes (an
    hour old: a folder changed within seconds of a scan is looked into again)."""
    vault = generate(root, MEMORIES, workers=1)
    hour_ago = time.time() - 3600
    for folder in [vault.memories_dir, *vault.memories_dir.rglob("*"), vault.archive_dir]:
        if folder.is_dir():
            os.utime(folder, (hour_ago, hour_ago))
    index = VaultIndex(vault, load_settings(vault.config_path, {}))
    index.sync(quick=True)
    index.close()
    return vault


def edit_in_place(path: Path, words: str) -> None:
    """What an editor that does not save by rename does: the folder mtime stays."""
    with path.open("a", encoding="utf-8") as handle:
        handle.write(f"\n{words}\n")


def add_copy(path: Path, new_id: str) -> Path:
    """A file dropped beside `path` (its folder's mtime changes)."""
    copy = path.with_name(f"{new_id}.md")
    copy.write_text(path.read_text(encoding="utf-8").replace(f"id: {path.stem}", f"id: {new_id}"))
    return copy


def age_last_full_scan(vault: Vault, seconds: float) -> None:
    state_path = vault.index_dir / STATE_FILE
    state = json.loads(state_path.read_text(encoding="utf-8"))
    state["full_scan_at"] -= seconds
    state_path.write_text(json.dumps(state), encoding="utf-8")


def check_now(daemon: Daemon) -> None:
    """The periodic check, due now (past its interval, after quiet), waited for."""
    daemon.index_check.start_if_due(daemon.index_check.checked_at + 10**6, last_request=0.0)
    assert daemon.index_check._thread is not None
    daemon.index_check._thread.join(timeout=120)


@pytest.mark.parametrize("env", [LARGE, {}], ids=["large", "small"])
def test_daemon_start_and_checks_on_a_large_vault(tmp_path: Path, env: dict[str, str]) -> None:
    vault = indexed_vault(tmp_path / "vault")
    firsts = {path.parent: path for path in sorted(vault.memories_dir.glob("*/*/*.md"))}
    files = list(firsts.values())  # one per folder: a changed folder is looked into whole
    assert len(files) >= 4
    edit_in_place(files[0], "Edited in place while no daemon ran: zebrafinch.")
    dropped = add_copy(files[1], "m9000001")
    daemon = Daemon(vault, load_settings(vault.config_path, env))
    try:
        daemon.warm_up()
        index = daemon.service.index
        assert index.row(dropped.stem) is not None  # a new file: its folder changed
        seen_at_start = "zebrafinch" in index.body(files[0].stem)
        assert seen_at_start == (not env)  # a large vault's start skips unchanged folders

        daemon._watcher.stop()  # from here on, changes the watcher misses
        edit_in_place(files[2], "Edited while the watcher missed it: kingfisher.")
        gone = files[3]
        shutil.move(gone, tmp_path / gone.name)  # deleted: its folder changed
        check_now(daemon)
        assert index.row(gone.stem) is None
        assert ("kingfisher" in index.body(files[2].stem)) == (not env)

        age_last_full_scan(vault, FULL_EVERY + 60)  # the hourly full scan is due
        check_now(daemon)
        assert "kingfisher" in index.body(files[2].stem)
        assert "zebrafinch" in index.body(files[0].stem)
    finally:
        daemon.shutdown()
