"""Daily maintenance (run by SessionStart's background sweep): prune, refile, relink."""

from __future__ import annotations

import pytest

from memory.maintenance import maintenance_steps, prune_if_due
from memory.service import MemoryService
from tests.conftest import FakeClock
from vault.links import link_targets

pytestmark = pytest.mark.model


def test_daily_maintenance_prunes_refiles_and_relinks_once_a_day(
    service: MemoryService, clock: FakeClock
) -> None:
    old = service.jot("The staging database is refreshed from production every Sunday night.")
    clock.advance(days=40)  # `old` is now under the archive floor
    first = service.jot("Shared pytest fixtures live in tests/conftest.py for every module.")
    second = service.jot("A session-scoped pytest fixture loads the embedding model once.")
    service.jot(
        "Run the whole test suite with pytest -x to stop at the first failure.", topic="testing"
    )
    path = service.show(second.id)[0].path
    head, _ = path.read_text().rsplit("---\n", 1)
    path.write_text(head + "---\nThe office moves to the third floor in March.\n")  # an edit
    service.sync()

    assert prune_if_due(service) == 1
    assert service.show(old.id)[0].archived
    assert second.id not in link_targets(service.show(first.id)[0].links)  # relinked
    assert service.show(first.id)[0].topic == "testing"  # filed
    assert maintenance_steps(service) == []  # done for today
    clock.advance(days=1)
    assert len(maintenance_steps(service)) == 4
