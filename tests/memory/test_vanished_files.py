"""Files that another process moves, deletes or breaks under a verb: prune
carries on past them, Linker and Filer skip and report them, and any other
error is raised, never hidden."""

from __future__ import annotations

import os

import pytest

from memory.service import MemoryService
from tests.conftest import FakeClock, ServiceFactory
from vault.errors import BrokenFileError, ConcurrentEditError, MemoryNotFoundError
from vault.links import link_targets
from vault.store import MemoryStore

pytestmark = pytest.mark.model
FADING = (
    "The staging VPN certificate was renewed by the platform team in March.",
    "Invoices for the old billing provider are exported as CSV on request.",
    "The office printer on floor three needs the blue driver package.",
)
RELATED = (
    "Use pytest fixtures instead of unittest setUp/tearDown in this codebase.",
    "Shared pytest fixtures live in tests/conftest.py for every test module.",
    "A session-scoped pytest fixture loads the embedding model once per run.",
)


def test_prune_skips_what_another_process_archived_or_deleted_and_goes_on(
    service: MemoryService, clock: FakeClock
) -> None:
    ids = [service.jot(text).id for text in FADING]
    service.auto_sync = False  # like the daemon: its watcher has not seen the moves yet
    vault = service.vault
    os.replace(vault.memories_dir / f"{ids[0]}.md", vault.archive_dir / f"{ids[0]}.md")
    (vault.memories_dir / f"{ids[1]}.md").unlink()
    clock.at_day(60)  # every memory is far under the archive floor
    pruned = service.prune()
    assert [item.id for item in pruned] == [ids[2]]
    assert (vault.archive_dir / f"{ids[2]}.md").is_file()
    assert {row.id for row in service.index.rows(archived=True)} == {ids[0], ids[2]}
    assert service.index.rows(archived=False) == []


def unlinked(make_service: ServiceFactory) -> tuple[MemoryService, list[str]]:
    """Related memories written while linking was off, and a service that links."""
    quiet = make_service(VAULT_LINKS_MAX="0")
    ids = [quiet.jot(text).id for text in RELATED]
    return make_service(), ids


def failing_update(
    service: MemoryService, monkeypatch: pytest.MonkeyPatch, victim: str, error: Exception
) -> None:
    real = MemoryStore.update

    def update(store: MemoryStore, memory_id: str, *args: object, **kwargs: object) -> object:
        if memory_id == victim:
            raise error
        return real(store, memory_id, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(MemoryStore, "update", update)


@pytest.mark.parametrize("gone", ["vanished", "broken"])
def test_a_link_sweep_skips_and_reports_a_vanished_or_broken_file(
    make_service: ServiceFactory, monkeypatch: pytest.MonkeyPatch, gone: str
) -> None:
    service, ids = unlinked(make_service)
    path = service.vault.memories_dir / f"{ids[0]}.md"
    error = MemoryNotFoundError(ids[0]) if gone == "vanished" else BrokenFileError(path, "bad")
    failing_update(service, monkeypatch, ids[0], error)
    report = service.sweep_links()
    assert report.skipped == [ids[0]]
    assert link_targets(service.show(ids[1])[0].links)  # the others were linked


def test_a_link_sweep_does_not_hide_other_errors(
    make_service: ServiceFactory, monkeypatch: pytest.MonkeyPatch
) -> None:
    service, ids = unlinked(make_service)
    failing_update(service, monkeypatch, ids[1], ConcurrentEditError("kept changing"))
    with pytest.raises(ConcurrentEditError):
        service.sweep_links()


def test_a_topic_sweep_skips_and_reports_a_broken_file_and_raises_other_errors(
    service: MemoryService, monkeypatch: pytest.MonkeyPatch
) -> None:
    ids = [service.jot(text).id for text in RELATED]  # no labels yet: left unfiled
    service.jot("Run the pytest suite with -x to stop at the first failing test.", topic="testing")
    path = service.vault.memories_dir / f"{ids[1]}.md"
    failing_update(service, monkeypatch, ids[1], BrokenFileError(path, "bad"))
    report = service.sweep_topics()
    assert report.skipped == [ids[1]]
    assert report.filed == {ids[2]: "testing"}
    failing_update(service, monkeypatch, ids[1], ConcurrentEditError("kept changing"))
    with pytest.raises(ConcurrentEditError):
        service.filer.file_new([ids[1]])
