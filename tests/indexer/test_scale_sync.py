"""Work that grows with the change: quick syncs by folder mtimes, a big sync
that resumes after an interruption, a watcher that polls past inotify's limits."""

from __future__ import annotations

import errno
import os
import time
from pathlib import Path

import pytest
from watchdog.observers import Observer

from indexer import index as index_module
from indexer.folder_scan import FULL_EVERY
from indexer.index import VaultIndex
from indexer.watch import Changes, VaultWatcher
from vault.config import load_settings
from vault.layout import Vault

pytestmark = pytest.mark.model
T0 = 1_800_000_000.0  # the vault clock's "now" in seconds, injected
HOUR_AGO = time.time() - 3600


def write(vault: Vault, relative: str, text: str) -> Path:
    path = vault.memories_dir / relative
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text + "\n", encoding="utf-8")
    return path


def age_folders(vault: Vault) -> None:
    """Folder mtimes from an hour ago, as in a vault nobody touched lately."""
    for folder in [vault.memories_dir, *vault.memories_dir.rglob("*")]:
        if folder.is_dir():
            os.utime(folder, (HOUR_AGO, HOUR_AGO))


@pytest.fixture
def index(vault: Vault, embedder) -> VaultIndex:
    write(vault, "alpha/deploy.md", "We deploy with blue/green releases.")
    write(vault, "alpha/cents.md", "Billing amounts are integer cents.")
    write(vault, "beta/fixtures.md", "Prefer pytest fixtures over setUp.")
    age_folders(vault)
    opened = VaultIndex(vault, load_settings(vault.config_path, {}), embedder)
    assert len(opened.sync(quick=True, now=T0).added) == 3  # the first is a full scan
    yield opened
    opened.close()


def test_quick_sync_finds_added_removed_and_atomically_saved_files(
    vault: Vault, index: VaultIndex
) -> None:
    write(vault, "alpha/new.md", "The staging database is refreshed on Sundays.")
    (vault.memories_dir / "beta/fixtures.md").unlink()
    temp = write(vault, "alpha/.cents.md.tmp", "Billing amounts are integer cents, rounded.")
    os.replace(temp, vault.memories_dir / "alpha/cents.md")  # how editors save
    write(vault, "gamma/queue/retries.md", "The queue retries three times.")
    report = index.sync(quick=True, now=T0 + 60)
    assert sorted(report.added) == ["new", "retries"]
    assert report.removed == ["fixtures"]
    assert report.reembedded == ["cents"]
    assert index.sync(quick=True, now=T0 + 120).changed == 0


def test_quick_sync_leaves_unchanged_folders_alone_until_the_full_check(
    vault: Vault, index: VaultIndex
) -> None:
    path = vault.memories_dir / "beta/fixtures.md"
    path.write_text("Prefer pytest fixtures; never unittest.\n", encoding="utf-8")  # in place
    os.utime(path.parent, (HOUR_AGO, HOUR_AGO))
    assert index.sync(quick=True, now=T0 + 60).changed == 0  # its folder did not change
    report = index.sync(quick=True, now=T0 + FULL_EVERY + 1)  # the periodic full check
    assert report.reembedded == ["fixtures"]
    assert index.sync().changed == 0


def test_interrupted_big_sync_keeps_what_it_published_and_resumes(
    vault: Vault, embedder, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(index_module, "RESUME_SLICE", 4)
    for number in range(10):
        write(vault, f"p/m{number}.md", f"Memory number {number} about service {number * 3}.")
    index = VaultIndex(vault, load_settings(vault.config_path, {}), embedder)
    calls: list[tuple[int, int]] = []

    def progress(done: int, total: int) -> None:
        calls.append((done, total))
        if len(calls) == 3:  # after the second slice was published
            raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        index.sync(progress=progress)
    assert calls[-1] == (8, 10)
    assert len(index.rows()) == 8
    assert len(index.sync().added) == 2
    assert len(index.rows()) == 10
    index.close()


class FullInotify(Observer):  # type: ignore[misc,valid-type]
    """The inotify observer on a machine whose watch limit is used up (the error
    watchdog raises when inotify_add_watch fails with ENOSPC)."""

    def start(self) -> None:
        raise OSError(errno.ENOSPC, "inotify watch limit reached")


def test_watcher_falls_back_to_polling_with_one_notice(vault: Vault) -> None:
    seen: list[Changes] = []
    notices: list[str] = []
    watcher = VaultWatcher(
        vault, seen.append, quiet=0.1, observer=FullInotify, notice=notices.append,
        poll_seconds=0.2,
    )  # fmt: skip
    watcher.start()
    try:
        assert watcher.polling
        assert len(notices) == 1
        assert "inotify watch limit reached" in notices[0]
        assert "polling every 0.2 s" in notices[0]
        path = write(vault, "note.md", "The office wifi password rotates every Monday.")
        deadline = time.monotonic() + 15
        while time.monotonic() < deadline and not any(path in c.paths for c in seen):
            time.sleep(0.05)
        assert any(path in c.paths for c in seen)
    finally:
        watcher.stop()
    assert len(notices) == 1
