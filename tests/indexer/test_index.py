"""The derived index on real files and the real model."""

from __future__ import annotations

import os
import shutil
import time
from pathlib import Path

import pytest

from indexer.embedder import bundled_encoder
from indexer.filters import Filters
from indexer.index import VaultIndex
from indexer.watch import Changes, Debouncer, VaultWatcher, is_relevant
from memory.recall.ranking import RecallOptions
from memory.service import MemoryService
from vault.config import load_settings
from vault.layout import Vault

pytestmark = pytest.mark.model
PEEK = RecallOptions(reinforce=False)
TEXTS = (
    "We deploy project-a with blue/green releases on Fly.io.",
    "Billing amounts are stored as integer cents, never floats.",
    "Prefer pytest fixtures over unittest setUp and tearDown.",
    "The staging database is refreshed from production every Sunday night.",
)


def top_ids(index: VaultIndex, query: str, k: int = 3) -> list[tuple[str, float]]:
    return [(c.row.id, round(c.similarity, 5)) for c in index.search(query, k)[:k]]


@pytest.fixture
def filled(service: MemoryService) -> MemoryService:
    for text in TEXTS:
        service.jot(text)
    return service


def test_edited_body_is_found_by_new_words_not_old(filled: MemoryService) -> None:
    memory = next(r for r in filled.index.rows() if "Billing" in filled.index.body(r.id))
    path = filled.vault.root / memory.path
    path.write_text(
        path.read_text().replace("integer cents, never floats", "Decimal with 4 places")
    )
    report = filled.index.sync()
    assert report.reembedded == [memory.id]
    assert filled.index.search("Decimal 4 places")[0].row.id == memory.id
    hits = filled.index.search("integer cents never floats")
    assert all(c.keyword == 0 for c in hits if c.row.id == memory.id)


def test_reinforcement_reembeds_nothing(filled: MemoryService, embedder) -> None:
    before = embedder.requested_texts  # asked of the encoder at all, recent or not
    memory_id = filled.index.rows()[0].id
    for _ in range(3):
        filled.reinforce(memory_id)
    report = filled.index.sync()
    assert embedder.requested_texts == before
    assert report.reembedded == report.added == []
    assert filled.index.row(memory_id).recalls == 3  # type: ignore[union-attr]


def test_unchanged_files_are_skipped_without_reading(filled: MemoryService, monkeypatch) -> None:
    from vault.store import MemoryStore

    def fail(*_: object) -> None:
        raise AssertionError("an unchanged file was read")

    monkeypatch.setattr(MemoryStore, "read_path", fail)
    assert filled.index.sync().changed == 0


def test_move_to_archive_keeps_vectors_and_delete_removes(filled: MemoryService, embedder) -> None:
    rows = filled.index.rows()
    before = embedder.requested_texts
    moved = filled.forget(rows[0].id)
    assert embedder.requested_texts == before
    assert filled.index.row(rows[0].id).archived  # type: ignore[union-attr]
    assert moved.path.exists()
    (filled.vault.root / rows[1].path).unlink()
    assert filled.index.sync().removed == [rows[1].id]
    assert filled.index.stats()["vectors"] == len(TEXTS) - 1


def test_deleting_the_index_and_reindexing_gives_the_same_results(filled: MemoryService) -> None:
    query = "how is money stored in billing?"
    expected = top_ids(filled.index, query)
    filled.index.close()
    shutil.rmtree(filled.vault.index_dir)
    fresh = VaultIndex(filled.vault, filled.settings, embedder=filled.index.embedder)
    fresh.sync()
    assert top_ids(fresh, query) == expected


@pytest.mark.parametrize("victim", ["vectors", "meta.sqlite"])
@pytest.mark.parametrize("damage", ["truncate", "garbage"])
def test_corrupt_index_files_are_rebuilt_with_equal_results(
    filled: MemoryService, victim: str, damage: str
) -> None:
    query = "pytest fixtures or setUp?"
    expected = top_ids(filled.index, query)
    generation = filled.index.stats()["generation"]
    filled.index.close()
    name = f"vectors-{generation}.faiss" if victim == "vectors" else victim
    target = filled.vault.index_dir / name
    for suffix in ("-wal", "-shm"):
        Path(f"{target}{suffix}").unlink(missing_ok=True)
    data = target.read_bytes()
    target.write_bytes(data[: len(data) // 3] if damage == "truncate" else os.urandom(len(data)))
    reopened = VaultIndex(filled.vault, filled.settings, embedder=filled.index.embedder)
    reopened.sync()
    assert top_ids(reopened, query) == expected
    assert any("rebuilding" in notice for notice in reopened.events.notices)


def test_broken_file_is_reported_and_skipped(filled: MemoryService) -> None:
    bad = filled.vault.memories_dir / "hand-edit.md"
    bad.write_text("---\ntags: [oops\n---\nbody\n")
    report = filled.index.sync()
    assert report.problems
    assert report.problems[0][0] == "memories/hand-edit.md"
    assert filled.status().problems[0][0] == "memories/hand-edit.md"
    assert bad.read_text() == "---\ntags: [oops\n---\nbody\n"


def test_filters_narrow_the_search(filled: MemoryService) -> None:
    filled.jot("Prefer pytest fixtures in project-b too.", project="project-b", topic="testing")
    found = filled.index.search("pytest fixtures", filters=Filters(project="project-b"))
    assert [c.row.project for c in found] == ["project-b"]
    assert filled.index.search("pytest", filters=Filters(topic="nope")) == []


def test_model_change_triggers_full_rebuild(filled: MemoryService) -> None:
    other = bundled_encoder()
    other.name = "renamed-model"
    index = VaultIndex(filled.vault, filled.settings, embedder=other)
    index.sync()
    assert index.stats()["model"] == "renamed-model"
    assert any("model changed" in n for n in index.events.notices)
    assert index.stats()["vectors"] == len(TEXTS)


def test_debouncer_waits_for_quiet_and_merges_a_burst() -> None:
    now = [0.0]
    debouncer = Debouncer(0.25, clock=lambda: now[0])
    for i in range(20):
        now[0] = i * 0.01
        debouncer.add(Changes((Path(f"/v/memories/{i % 3}.md"),)))
    assert debouncer.due() is None
    now[0] = 1.0
    ready = debouncer.due()
    assert ready is not None
    assert len(ready.paths) == 3
    assert debouncer.due() is None


def test_temp_and_index_files_are_ignored(vault: Vault) -> None:
    assert is_relevant(vault, vault.memories_dir / "a.md")
    assert is_relevant(vault, vault.archive_dir / "sub" / "a.md")
    for ignored in (".a.md.swp", "a.md~", ".#a.md", "a.md.tmp", "a.txt"):
        assert not is_relevant(vault, vault.memories_dir / ignored)
    assert not is_relevant(vault, vault.index_dir / "a.md")
    assert not is_relevant(vault, vault.state_dir / "a.md")


def test_watcher_applies_a_real_edit_end_to_end(vault: Vault, embedder) -> None:
    settings = load_settings(vault.config_path, {})
    index = VaultIndex(vault, settings, embedder=embedder)
    index.sync()

    def apply(changes: Changes) -> None:
        index.sync() if changes.rescan else index.apply(changes.paths)

    watcher = VaultWatcher(vault, apply, quiet=0.1)
    watcher.start()
    try:
        path = vault.memories_dir / "note.md"
        path.write_text("The office wifi password rotates every Monday.\n")
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline and index.row("note") is None:
            time.sleep(0.05)
        assert index.row("note") is not None
        path.unlink()
        while time.monotonic() < deadline and index.row("note") is not None:
            time.sleep(0.05)
        assert index.row("note") is None
    finally:
        watcher.stop()
        index.close()


def test_long_note_is_chunked_and_scores_by_its_best_chunk(
    service: MemoryService, tmp_path: Path
) -> None:
    filler = " ".join(
        f"Section {i} describes routine office logistics and meeting rooms." for i in range(120)
    )
    note = tmp_path / "handbook.md"
    note.write_text(
        f"# Handbook\n\n{filler}\n\nProduction database backups run at 02:00 UTC to S3.\n"
    )
    record = service.ingest(note)
    assert len(service.index.catalog.vector_ids(record.id)) > 2
    query = "when do production database backups run?"
    best = service.index.search(query)[0]
    assert best.row.id == record.id
    whole, asked = service.index.embedder.encode([note.read_text(), query])
    assert best.cosine > float(whole @ asked) + 0.1  # the best chunk beats the whole text


def test_a_manifest_row_reads_back_as_written_field_for_field() -> None:
    """Rows are parsed by position: every field must land where it was written."""
    from dataclasses import fields

    from indexer.catalog import ROW_FIELDS, ManifestRow, _parsed

    row = ManifestRow(
        id="m1", path="notes/m1.md", archived=True, mtime_ns=11, size=12, body_hash="h",
        created="2026-01-01T00:00:00Z", last_access="2026-01-02T00:00:00Z", stability=3.5,
        tier="semantic", kind="decision", topic="t", tags=("a", "b"), project="p",
        session="s", source="src", recalls=4, confirmations=5, salience=0.25,
        links=("m2",), filed="auto", confidence=0.75, superseded_by="m9", evergreen=True,
        seq=7,
    )  # fmt: skip
    assert tuple(f.name for f in fields(ManifestRow)) == ROW_FIELDS
    assert ManifestRow.from_sql(row.to_sql()) == row
    assert _parsed(row.to_sql()) is _parsed(row.to_sql())  # one parse per stored value
