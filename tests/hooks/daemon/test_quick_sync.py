"""A daemon on a large vault starts without stating every file (it looks into the
folders whose mtime changed); a catch-up scan right after, which holds no request
up, finds a file edited in place while no daemon ran; its periodic check finds
what the watcher missed, with the hourly full scan for a file edited in place."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest

from benchmarks.scale_bench_vault import generate
from hooks.client import client
from hooks.client.control import stop as stop_daemon
from hooks.client.protocol import log_path
from hooks.daemon.server import Daemon
from indexer.folder_scan import FULL_EVERY, STATE_FILE
from indexer.index import VaultIndex
from vault.config import load_settings
from vault.layout import Vault

pytestmark = pytest.mark.model
MEMORIES = 160  # ten sessions: files in at least four folders
SHORT = 12  # words in a body at most: the model's time goes by length
LARGE = {"VAULT_DAEMON_QUICK_SYNC_FILES": "10"}  # this vault counts as large


def indexed_vault(root: Path) -> Vault:
    """A vault indexed as a daemon left it: every file, and the folder mtimes (an
    hour old: a folder changed within seconds of a scan is looked into again)."""
    vault = generate(root, MEMORIES, workers=1, longest=SHORT)
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
        if env:
            assert daemon.index_check.catch_up().reembedded == [files[0].stem]
            assert "zebrafinch" in index.body(files[0].stem)
        assert daemon.service.watched == bool(env)

        daemon._watcher.stop()  # from here on, changes the watcher misses
        edit_in_place(files[2], "Edited while the watcher missed it: kingfisher.")
        gone = files[3]
        shutil.move(gone, tmp_path / gone.name)  # deleted: its folder changed
        check_now(daemon)
        assert index.row(gone.stem) is None
        assert ("kingfisher" in index.body(files[2].stem)) == (not env)
        assert daemon.service.sync().changed == 0  # `vault sync`/`reindex` asked of it
        assert ("kingfisher" in index.body(files[2].stem)) == (not env)

        age_last_full_scan(vault, FULL_EVERY + 60)  # the hourly full scan is due
        check_now(daemon)
        assert "kingfisher" in index.body(files[2].stem)
        assert "zebrafinch" in index.body(files[0].stem)
    finally:
        daemon.shutdown()


def test_an_edit_made_while_no_daemon_ran_is_found_soon_after_a_quick_start(
    tmp_path: Path,
) -> None:
    """Real processes: a file edited in place (its folder's mtime unchanged) while no
    daemon ran is recalled through the daemon started next, although that start
    looked only into changed folders: its catch-up scan re-embeds the file."""
    vault = indexed_vault(tmp_path / "vault")
    edited = sorted(vault.memories_dir.glob("*/*/*.md"))[0]
    edit_in_place(edited, "Edited in place while no daemon ran: zebrafinch.")
    env = {**os.environ, "VAULT_HOME": str(vault.root), **LARGE}
    env.pop("VAULT_NOW", None)
    daemon = subprocess.Popen(
        [sys.executable, "-m", "hooks.daemon", "--vault", str(vault.root)], env=env,
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )  # fmt: skip
    try:
        assert client.wait_until_up(vault.root, timeout=120) is not None  # model loaded
        found: list[str] = []
        deadline = time.monotonic() + 60  # each recall is a process: no sleep between
        while edited.stem not in found and time.monotonic() < deadline:
            recalled = subprocess.run(
                [sys.executable, "-m", "hooks.cli", "recall", "zebrafinch", "--no-decay", "--json"],
                env=env, capture_output=True, text=True, timeout=120,
            )  # fmt: skip
            assert recalled.returncode == 0, recalled.stderr
            found = [hit["id"] for hit in json.loads(recalled.stdout)]
        assert edited.stem in found
        log = log_path(vault.root).read_text(encoding="utf-8")
        assert "index synced (changed folders): 0 added, 0 re-embedded" in log
        assert "full scan (every file stated)" in log
        assert re.search(
            r"full scan \(every file stated\) in [0-9.]+ s: 0 added, 1 re-embedded", log
        )
    finally:
        stop_daemon(vault)
        daemon.wait(timeout=60)
