"""The daemon's watcher keeps a folder indexed in place in sync: a document
written, edited and deleted there is found, changed and gone without a sync."""

from __future__ import annotations

import json
import sqlite3
import time
from collections.abc import Callable
from pathlib import Path

import pytest

from tests.hooks.cli.test_indexed_folders import configure, found
from tests.hooks.daemon.test_daemon import serve, stop
from vault.layout import Vault

pytestmark = pytest.mark.model


def indexed_words(vault: Vault, word: str) -> set[str]:
    """Paths of indexed rows whose text holds `word` (read as a hook client would)."""
    db = sqlite3.connect(f"file:{vault.index_dir / 'meta.sqlite'}?mode=ro", uri=True)
    try:
        sql = ("SELECT m.path FROM fts JOIN memories m ON m.id = fts.memory_id "
               "WHERE fts MATCH ?")  # fmt: skip
        return {str(row[0]) for row in db.execute(sql, (json.dumps(word),))}
    except sqlite3.OperationalError:  # not created yet
        return set()
    finally:
        db.close()


def wait_for(check: Callable[[], bool], seconds: float = 60) -> bool:
    deadline = time.monotonic() + seconds  # a real file event: bounded polling
    while time.monotonic() < deadline:
        if check():
            return True
        time.sleep(0.05)
    return False


def test_the_watcher_indexes_writes_edits_and_deletions_in_a_folder(
    vault: Vault, tmp_path: Path
) -> None:
    notes = tmp_path / "notes"
    (notes / "ops").mkdir(parents=True)
    configure(vault, notes)
    process = serve(vault)
    try:
        from hooks.client import client

        assert client.wait_until_up(vault.root, 300) is not None
        runbook = notes / "ops" / "runbook.md"
        runbook.write_text("Restart the ocelot queue worker after a deploy.\n")
        assert wait_for(lambda: indexed_words(vault, "ocelot") == {str(runbook)})
        assert [hit["path"] for hit in found(vault, "ocelot")] == [str(runbook)]
        with runbook.open("w") as handle:  # an in-place edit: the folder's mtime stays
            handle.write("Restart the pangolin queue worker after a deploy.\n")
        assert wait_for(lambda: indexed_words(vault, "pangolin") == {str(runbook)})
        assert indexed_words(vault, "ocelot") == set()
        runbook.unlink()
        assert wait_for(lambda: indexed_words(vault, "pangolin") == set())
    finally:
        stop(vault, process)
