"""The seed-000 timeline and story on real files, the real model and index."""

from __future__ import annotations

import math
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from indexer.sync import SyncReport
from memory.recall.ranking import RecallOptions
from memory.service import MemoryService
from tests.conftest import FakeClock, ServiceFactory
from vault import tombstones
from vault.clock import format_time

pytestmark = pytest.mark.model

STORY = (
    "let's always use pytest fixtures instead of setUp/tearDown for this codebase — tried "
    "unittest style on a past project and sharing fixtures across test files was a pain."
)
QUESTION = "should I use TestCase.setUp() here or something else?"
UNRELATED = (
    "The staging database is refreshed from production every Sunday night.",
    "Billing amounts are stored as integer cents, never floats.",
    "Keep commit messages in the imperative mood, under 72 characters.",
    "The deploy script needs the AWS region eu-west-1.",
)
PEEK = RecallOptions(reinforce=False)


def ids(hits: list) -> list[str]:  # type: ignore[type-arg]
    return [h.id for h in hits]


def test_fresh_jot_is_recalled_on_day_15_hidden_on_17_archived_by_day_28(
    service: MemoryService, clock: FakeClock
) -> None:
    memory = service.jot(STORY)
    original_body = memory.path.read_text().split("---\n", 2)[2]
    clock.at_day(15)
    assert memory.id in ids(service.recall("pytest fixtures instead of setUp", PEEK))
    clock.at_day(17)
    assert memory.id not in ids(service.recall("pytest fixtures instead of setUp", PEEK))
    clock.at_day(26)
    assert service.prune() == []
    assert memory.path.exists()
    clock.at_day(28)
    assert ids(service.prune()) == [memory.id]  # type: ignore[arg-type]
    archived = service.vault.archive_dir / memory.path.name
    assert not memory.path.exists()
    assert archived.read_text().split("---\n", 2)[2] == original_body


def test_six_recalls_make_it_semantic_which_lasts_months(
    service: MemoryService, clock: FakeClock
) -> None:
    memory = service.jot(STORY)
    query = "pytest fixtures instead of setUp and tearDown"
    for day in range(1, 7):
        clock.at_day(day)
        hits = service.recall(query)
        assert ids(hits) == [memory.id]
    assert (hits[0].tier, hits[0].reinforced) == ("semantic", True)
    record, _ = service.show(memory.id)
    assert (record.tier, record.stability, record.recalls) == ("semantic", 90.0, 6)
    months = 30.44
    for months_later, visible in ((6.5, True), (7.5, False)):
        clock.at_day(6 + months_later * months)
        assert (memory.id in ids(service.recall(query, PEEK))) is visible
    clock.at_day(6 + 11 * months)
    assert service.prune(dry_run=True) == []
    clock.at_day(6 + 12 * months)
    assert ids(service.prune()) == [memory.id]  # type: ignore[arg-type]


def test_story_day_19_rings_a_bell_then_confirmation_grows_stability(
    service: MemoryService, clock: FakeClock
) -> None:
    memory = service.jot(STORY, project="project-a")
    for text in UNRELATED:
        service.jot(text, project="project-a")
    clock.at_day(19)
    result = service.recall_associative(QUESTION, RecallOptions(project="project-b"))
    assert ids(result.confident) == []
    assert ids(result.activated) == [memory.id]
    assert service.show(memory.id)[0].stability == 7.0  # not reinforced
    confirmed = service.confirm_activation(memory.id)
    assert confirmed.stability == pytest.approx(17.5)
    assert confirmed.confirmations == 1


def test_confident_hits_reinforce_1_5x_and_denial_changes_nothing(
    service: MemoryService, clock: FakeClock
) -> None:
    memory = service.jot(STORY)
    clock.at_day(1)
    result = service.recall_associative(
        "pytest fixtures instead of setUp/tearDown in this codebase"
    )
    assert ids(result.confident) == [memory.id]
    assert service.show(memory.id)[0].stability == pytest.approx(10.5)
    before = memory.path.read_bytes()
    clock.at_day(2)
    service.recall_associative(QUESTION, PEEK)  # shown, not confirmed: a denial
    assert memory.path.read_bytes() == before


def test_cold_recall_needs_a_specific_query_and_revive_brings_it_back(
    service: MemoryService, clock: FakeClock
) -> None:
    memory = service.jot("Billing amounts are stored as integer cents, never floats.")
    service.jot(STORY)
    clock.at_day(40)
    assert len(service.prune()) == 2
    assert ids(service.recall_cold("billing amounts stored as integer cents not floats")) == [
        memory.id
    ]
    assert service.recall_cold("money") == []
    revived = service.revive_from_cold(memory.id)
    assert revived.path.parent == service.vault.memories_dir
    assert memory.id in ids(service.recall("integer cents for billing", PEEK))


def test_forget_archives_and_purge_deletes(service: MemoryService) -> None:
    memory = service.jot(STORY)
    service.forget(memory.id)
    assert service.recall("pytest fixtures", PEEK) == []
    path = service.vault.archive_dir / memory.path.name
    assert path.exists()
    service.purge(memory.id)
    assert not path.exists()
    assert service.recall_cold(STORY) == []


def test_ingest_makes_a_curated_memory_and_reingest_updates_it(
    service: MemoryService, tmp_path, clock: FakeClock
) -> None:
    note = tmp_path / "adr-0007.md"
    note.write_text("# Use Postgres\n\nWe chose PostgreSQL 16 for billing.\n")
    record = service.ingest(note, topic="architecture")
    assert (record.tier, record.source_path, record.topic) == ("curated", str(note), "architecture")
    assert "PostgreSQL 16" in record.body
    note.write_text("# Use Postgres\n\nWe chose PostgreSQL 17 for billing.\n")
    again = service.ingest(note)
    assert again.id == record.id
    hits = service.recall("which PostgreSQL version for billing", PEEK)
    assert [h.text.count("17") for h in hits] == [1]


def test_config_overrides_change_the_model(make_service: ServiceFactory, clock: FakeClock) -> None:
    service = make_service(VAULT_EPISODIC_BASE_STABILITY="14")
    memory = service.jot(STORY)
    assert service.show(memory.id)[0].stability == 14.0


def test_prune_keeps_a_memory_exactly_at_the_archive_floor(
    make_service: ServiceFactory, clock: FakeClock
) -> None:
    """The floor is the weakest strength kept: a week-old jot (stability 7) is at
    exactly 1/e, so with the floor set there it stays until the next moment."""
    service = make_service(VAULT_ARCHIVE_FLOOR=repr(math.exp(-1)), VAULT_RETRIEVAL_FLOOR="0.5")
    memory = service.jot(STORY)
    clock.at_day(7)
    assert service.prune() == []
    clock.advance(seconds=1)
    assert ids(service.prune()) == [memory.id]


def test_prune_skips_a_memory_another_process_deleted_meanwhile(
    service: MemoryService, clock: FakeClock, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The index still lists it when prune starts; its file is gone when prune
    reaches it (a purge on another machine, synced in between): the rest is archived."""
    gone, kept = service.jot(STORY), service.jot(UNRELATED[0])
    synced = service.fresh

    def fresh_then_deleted(wait: bool = False) -> SyncReport:
        report = synced(wait=wait)
        gone.path.unlink()
        return report

    monkeypatch.setattr(service, "fresh", fresh_then_deleted)
    clock.at_day(28)
    assert ids(service.prune()) == [kept.id]
    assert (service.vault.archive_dir / kept.path.name).exists()


def test_prune_skips_a_memory_another_process_archived_meanwhile(
    service: MemoryService, clock: FakeClock, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The index still lists it as active when prune starts; a `vault forget` in
    another process has moved it to archive/ when prune reaches it: no error, and
    nothing left for prune to list."""
    taken = service.jot(STORY)
    synced = service.fresh

    def fresh_then_archived(wait: bool = False) -> SyncReport:
        report = synced(wait=wait)
        taken.path.replace(service.vault.counterpart(taken.path))
        return report

    monkeypatch.setattr(service, "fresh", fresh_then_archived)
    clock.at_day(28)
    assert service.prune() == []
    assert (service.vault.archive_dir / taken.path.name).exists()


def test_prune_progress_counts_each_memory_once(service: MemoryService, clock: FakeClock) -> None:
    """What `vault prune`'s bars show on a terminal: 1 of 1 archived (100 %), not more;
    then the index update of the move's two paths (where it was, where it is)."""
    service.jot(STORY)
    clock.at_day(28)
    steps: dict[str, list[tuple[int, int]]] = {}

    def stage(label: str) -> Callable[[int, int], None]:
        heard = steps.setdefault(label, [])
        return lambda done, total: heard.append((done, total))

    assert len(service.prune(stages=stage)) == 1
    assert steps == {"Archiving": [(1, 1)], "Indexing": [(1, 2), (2, 2)]}


def test_a_recall_hit_is_reinforced_in_the_index_too(
    service: MemoryService, clock: FakeClock
) -> None:
    """The hook's keyword fallback reads strength from the index: a reinforced hit
    must be there at once, not after the next sync."""
    memory = service.jot(STORY)
    clock.at_day(1)
    assert ids(service.recall("pytest fixtures instead of setUp and tearDown")) == [memory.id]
    row = service.index.row(memory.id)
    assert row is not None
    assert (row.stability, row.last_access) == (10.5, format_time(clock()))


def test_purge_deletes_a_memory_whose_file_cannot_be_read(
    service: MemoryService, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A file the user cannot read (another account wrote it with mode 600) is still
    purged, and its id goes on the purge list: a copy synced back is refused."""
    memory = service.jot(STORY)
    copy = memory.path.read_bytes().decode()
    read_text = Path.read_text

    def unreadable(path: Path, *args: Any, **kwargs: Any) -> str:
        if path == memory.path:
            raise PermissionError(13, "Permission denied", str(path))
        return read_text(path, *args, **kwargs)

    monkeypatch.setattr(Path, "read_text", unreadable)
    service.purge(memory.id)
    assert not memory.path.exists()
    assert memory.id not in ids(service.recall("pytest fixtures", PEEK))
    assert tombstones.PurgeList(service.vault.root).refuses(memory.id, copy)
