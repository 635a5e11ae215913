"""Which memories the SessionStart briefing holds: what the session likely needs,
the current project's first, not a fixed count (real index, manifest only)."""

from __future__ import annotations

import pytest

from memory.notes.briefing import strongest
from memory.service import MemoryService
from tests.conftest import FakeClock

pytestmark = pytest.mark.model
HERE, THERE = "github.com/acme/here", "github.com/acme/there"


def test_the_current_project_first_then_only_strong_memories_from_elsewhere(
    service: MemoryService, clock: FakeClock
) -> None:
    old_global = service.jot("The office wifi password rotates every quarter.").id
    clock.advance(days=10)  # the project-less memory has faded below 0.5
    mine = [service.jot(f"In here the {n} job runs nightly.", project=HERE).id for n in "abc"]
    service.jot("Over there deploys happen on Tuesdays.", project=THERE)  # not ours
    liked = service.jot("I prefer small pull requests.", project=THERE, kind="preference").id
    fresh_global = service.jot("Standups moved to 9:30.").id
    briefed = [item.id for item in strongest(service.vault.root, clock.now, service.config, HERE)]
    assert briefed[:3] == sorted(mine, key=briefed.index)  # the project's own come first
    assert set(briefed) == {*mine, liked, fresh_global}  # five, not a fixed eight
    assert old_global not in briefed
    elsewhere = [item.id for item in strongest(service.vault.root, clock.now, service.config, None)]
    assert set(elsewhere) == {fresh_global, old_global, liked}  # no project: the unfiled ones
