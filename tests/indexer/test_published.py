"""Generations: rows and vectors published together; readers that only read.

Real processes write and read one index at once; a damaged index is reported by
readers and rebuilt only by a writer holding the lock.
"""

from __future__ import annotations

import json
import shutil
import sqlite3
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from indexer.catalog import Catalog
from indexer.errors import CorruptIndexError
from indexer.faiss_store import VectorStore
from indexer.index import VaultIndex
from indexer.published import PublishedIndex, vectors_file
from memory.service import MemoryService
from vault.layout import Vault

pytestmark = pytest.mark.model
SEEDS = [f"Runbook {i}: restart the queue worker {i} when its backlog stalls." for i in range(6)]
TENANTS = "acme globex initech umbrella hooli vandelay wonka stark".split()
NOTES = [f"The {t} tenant's cache expires after {n} hours." for n, t in enumerate(TENANTS, 2)]

WRITER = textwrap.dedent(
    """
    import sys
    from pathlib import Path
    from memory.service import MemoryService
    from vault.config import load_settings
    from vault.layout import Vault
    vault = Vault(Path(sys.argv[1]))
    service = MemoryService(vault, load_settings(vault.config_path, {}))
    for note in sys.argv[2:]:
        service.jot(note)
    """
)
# A fresh index object per search: each one loads the published vectors and
# checks them against the catalog, as a new CLI process does.
READER = textwrap.dedent(
    """
    import json, sys
    from pathlib import Path
    from indexer.embedder import bundled_encoder
    from indexer.index import VaultIndex
    from vault.config import load_settings
    from vault.layout import Vault
    vault = Vault(Path(sys.argv[1]))
    settings = load_settings(vault.config_path, {})
    embedder = bundled_encoder()  # what a CLI process encodes with
    seen = []
    for _ in range(int(sys.argv[2])):
        index = VaultIndex(vault, settings, embedder=embedder)
        found = index.search("restart the queue worker when the backlog stalls", k=10)
        seen.append([len(found), index.stats()["memories"], index.events.notices])
        index.close()
    print(json.dumps(seen))
    """
)


def python(code: str, *args: object) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [sys.executable, "-c", code, *map(str, args)], stdout=subprocess.PIPE, text=True
    )


@pytest.fixture
def seeded(service: MemoryService) -> MemoryService:
    for text in SEEDS:
        service.jot(text)
    return service


def index_files(vault: Vault) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in sorted(vault.index_dir.iterdir()) if p.is_file()}


def test_readers_never_see_an_empty_or_partial_index_while_a_writer_publishes(
    seeded: MemoryService,
) -> None:
    vault = seeded.vault
    seeded.index.close()
    writer = python(WRITER, vault.root, *NOTES)
    readers = [python(READER, vault.root, 12) for _ in range(2)]
    writer.communicate(timeout=240)
    assert writer.returncode == 0
    for reader in readers:
        out, _ = reader.communicate(timeout=240)
        assert reader.returncode == 0
        seen = json.loads(out)
        assert all(found >= len(SEEDS) for found, _, _ in seen), seen
        counts = [memories for _, memories, _ in seen]
        assert counts == sorted(counts)  # rows only ever grow: nothing was wiped
        assert all(notices == [] for _, _, notices in seen), seen
    fresh = VaultIndex(vault, seeded.settings, embedder=seeded.index.embedder)
    assert fresh.check().changed == 0
    assert fresh.stats()["rebuilds"] == 0
    assert fresh.stats()["memories"] == len(SEEDS) + len(NOTES)
    for note in NOTES:
        assert fresh.body(fresh.search(note, k=1)[0].row.id).strip() == note
    assert fresh.events.notices == []
    fresh.close()


def test_a_reader_of_damaged_vectors_answers_from_keywords_and_changes_nothing(
    seeded: MemoryService,
) -> None:
    vault = seeded.vault
    generation = int(seeded.index.stats()["generation"])  # type: ignore[call-overload]
    seeded.index.close()
    vectors_file(vault.index_dir, generation).write_bytes(b"not a faiss file at all")
    before = index_files(vault)
    reader = VaultIndex(vault, seeded.settings, embedder=seeded.index.embedder)
    found = reader.search("restart the queue worker 3", k=3)
    assert found
    assert found[0].cosine == 0.0  # keyword results only
    assert any("index stale" in notice for notice in reader.events.notices)
    reader.close()
    assert index_files(vault) == before  # nothing deleted, nothing repaired
    writer = VaultIndex(vault, seeded.settings, embedder=seeded.index.embedder)
    writer.sync()  # a writer holding the lock rebuilds
    assert writer.stats()["rebuilds"] == 1
    assert writer.search("restart the queue worker 3", k=1)[0].cosine > 0.5
    writer.close()


def test_a_reader_of_a_broken_catalog_reports_it_and_deletes_nothing(
    seeded: MemoryService,
) -> None:
    vault = seeded.vault
    seeded.index.close()
    for suffix in ("-wal", "-shm"):
        Path(f"{seeded.index.catalog_path}{suffix}").unlink(missing_ok=True)
    seeded.index.catalog_path.write_bytes(b"garbage" * 500)
    before = index_files(vault)
    reader = VaultIndex(vault, seeded.settings, embedder=seeded.index.embedder)
    with pytest.raises(CorruptIndexError, match="not a usable SQLite index"):
        reader.search("queue worker")
    reader.close()
    assert index_files(vault) == before


def test_only_the_current_and_previous_generations_stay_on_disk(seeded: MemoryService) -> None:
    index = seeded.index
    for i in range(3):
        seeded.jot(f"Another fact number {i} about the billing export schedule.")
    generation = int(index.stats()["generation"])  # type: ignore[call-overload]
    names = sorted(p.name for p in index.vault.index_dir.glob("vectors-*.faiss"))
    assert names == sorted([f"vectors-{generation - 1}.faiss", f"vectors-{generation}.faiss"])
    assert not list(index.vault.index_dir.glob(".vectors-*.tmp"))


def test_a_reader_whose_generation_was_replaced_reads_the_new_one(
    seeded: MemoryService,
) -> None:
    """A long-lived reader (another process) that loaded an old generation and is
    two publications behind finds its file gone and reads the current one."""
    vault = seeded.vault
    reader = VaultIndex(vault, seeded.settings, embedder=seeded.index.embedder)
    assert len(reader.search("queue worker backlog", k=20)) == len(SEEDS)
    for i in range(3):
        seeded.jot(f"Queue worker fact {i}: the backlog alarm fires after {i + 5} minutes.")
    assert len(reader.search("queue worker backlog", k=20)) == len(SEEDS) + 3
    assert reader.events.notices == []
    reader.close()


def test_an_index_from_before_generations_is_adopted_without_a_rebuild(
    seeded: MemoryService,
) -> None:
    index = seeded.index
    generation = int(index.stats()["generation"])  # type: ignore[call-overload]
    index.close()
    current = vectors_file(index.vault.index_dir, generation)
    current.rename(index.vault.index_dir / "vectors.faiss")
    vectors_file(index.vault.index_dir, generation - 1).unlink(missing_ok=True)
    reopened = VaultIndex(index.vault, seeded.settings, embedder=index.embedder)
    assert reopened.sync().changed == 0
    assert reopened.stats()["rebuilds"] == 0
    assert reopened.search("queue worker 2", k=1)[0].cosine > 0.5
    reopened.close()


def test_an_index_of_an_older_schema_is_rebuilt_by_the_next_writer(
    seeded: MemoryService,
) -> None:
    import sqlite3

    seeded.index.close()
    db = sqlite3.connect(seeded.index.catalog_path)
    db.execute("UPDATE meta SET value = '5' WHERE key = 'schema_version'")
    db.commit()
    db.close()
    reader = VaultIndex(seeded.vault, seeded.settings, embedder=seeded.index.embedder)
    with pytest.raises(CorruptIndexError, match="has schema 5"):
        reader.search("queue worker")  # a reader reports it and changes nothing
    report = reader.sync()
    assert report.added  # the writer rebuilt it from the files
    assert reader.search("queue worker")
    assert any("rebuilding" in notice for notice in reader.events.notices)
    reader.close()


def test_a_reader_that_loses_the_race_with_a_writer_reads_the_new_generation(
    seeded: MemoryService, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Between a fresh reader's look at the catalog and its opening of the vectors,
    a writer publishes twice and removes that generation's file: the reader reads
    the catalog again and answers by meaning, with no stale notice."""
    opened: list[int] = []
    load = PublishedIndex._vectors_at

    def racing(self: PublishedIndex, catalog: Catalog, generation: int) -> VectorStore:
        if not opened:
            opened.append(generation)
            for i in range(2):
                seeded.jot(f"Queue worker fact {i}: the backlog alarm fires after {i + 5} minutes.")
        return load(self, catalog, generation)

    reader = VaultIndex(seeded.vault, seeded.settings, embedder=seeded.index.embedder)
    monkeypatch.setattr(PublishedIndex, "_vectors_at", racing)
    assert len(reader.search("queue worker backlog", k=20)) == len(SEEDS) + 2
    assert not vectors_file(seeded.vault.index_dir, opened[0]).exists()
    assert reader.events.notices == []
    reader.close()


def test_a_publication_whose_catalog_commit_fails_leaves_no_vectors_file(
    seeded: MemoryService, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A full disk at the catalog's commit: the write fails, and the vectors file it
    had saved for the next generation is removed, not left to fill .index/."""
    before = sorted(p.name for p in seeded.vault.index_dir.glob("vectors-*.faiss"))

    def full(self: Catalog) -> None:
        raise sqlite3.OperationalError("database or disk is full")

    monkeypatch.setattr(Catalog, "commit", full)
    with pytest.raises(sqlite3.OperationalError):
        seeded.jot("The billing export runs at 03:00 UTC on weekdays.")
    assert sorted(p.name for p in seeded.vault.index_dir.glob("vectors-*.faiss")) == before


def test_opening_the_index_loads_no_faiss_until_vectors_are_read() -> None:
    """Commands that read only the catalog (status, list, the keyword path) start
    without FAISS and numpy; they load with the first vector file."""
    code = (
        "import sys\nimport indexer.index, indexer.published\n"
        "print([m for m in ('faiss', 'numpy') if m in sys.modules])"
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert (result.returncode, result.stdout.strip()) == (0, "[]"), result.stderr


def test_an_index_of_one_publication_from_before_generations_is_adopted(
    service: MemoryService,
) -> None:
    """The smallest such index: one memory, published once."""
    service.jot(SEEDS[0])
    index = service.index
    generation = int(index.stats()["generation"])  # type: ignore[call-overload]
    assert generation == 1
    index.close()
    vectors_file(index.vault.index_dir, 1).rename(index.vault.index_dir / "vectors.faiss")
    reopened = VaultIndex(index.vault, service.settings, embedder=index.embedder)
    assert reopened.sync().changed == 0
    assert reopened.stats()["rebuilds"] == 0
    reopened.close()


def test_a_reader_reports_each_damaged_generation(seeded: MemoryService) -> None:
    """The rebuilt generation is damaged too (the disk is failing): the reader says
    so again, not once for the whole life of the process."""
    vault = seeded.vault
    generation = int(seeded.index.stats()["generation"])  # type: ignore[call-overload]
    vectors_file(vault.index_dir, generation).write_bytes(b"not a faiss file at all")
    reader = VaultIndex(vault, seeded.settings, embedder=seeded.index.embedder)
    assert reader.search("restart the queue worker 3", k=3)[0].cosine == 0.0
    seeded.jot("The billing export runs at 03:00 UTC on weekdays.")  # a writer rebuilds
    rebuilt = int(seeded.index.stats()["generation"])  # type: ignore[call-overload]
    vectors_file(vault.index_dir, rebuilt).write_bytes(b"not a faiss file either")
    assert reader.search("restart the queue worker 3", k=3)[0].cosine == 0.0
    assert sum("index stale" in notice for notice in reader.events.notices) == 2
    reader.close()


def test_a_long_lived_reader_sees_the_index_rebuilt_after_it_was_deleted(
    seeded: MemoryService,
) -> None:
    """A person deletes .index/ while the daemon keeps its index open; the next
    commands add a memory and rebuild the rest from the files: the daemon's next search
    reads the rebuilt catalog, not the deleted one it still holds open."""
    vault = seeded.vault
    reader = VaultIndex(vault, seeded.settings, embedder=seeded.index.embedder)
    assert len(reader.search("queue worker backlog", k=20)) == len(SEEDS)
    seeded.index.close()
    shutil.rmtree(vault.index_dir)
    seeded.jot("Queue worker fact: the backlog alarm fires after nine minutes.")
    assert seeded.index.sync().added  # the rest of the files, as `vault reindex` does
    found = reader.search("queue worker backlog", k=20)
    assert len(found) == len(SEEDS) + 1
    assert reader.stats()["memories"] == len(SEEDS) + 1
    reader.close()


def test_a_rebuild_asked_for_inside_another_write_is_refused(tmp_path: Path) -> None:
    """Folded into the outer write it would publish the old rows as if rebuilt
    (no rebuild counted, nothing re-embedded): it fails instead, and the outer
    write still publishes."""
    index = PublishedIndex(tmp_path / ".index", "test-model", lambda: 4, lambda _: None)
    with index.writing() as outer:
        refused = pytest.raises(RuntimeError, match="rebuild cannot run inside")
        with refused, index.writing(rebuild=True):
            pass
        with index.writing() as inner:  # a plain nested write joins the outer one
            assert inner is outer
    with index.catalog_only() as catalog:
        assert catalog.get_meta("model") == "test-model"  # the outer write published
        assert catalog.get_meta("rebuilds") is None
    index.close()
