"""What an automatic run may retire on its own follows the judge's held-out
precision (issue 24, round four): under 0.98 for a relation, an automatic run
retires nothing by it (`auto_supersede`, `auto_merge` off by default); each such
action waits on the review list and the next briefing says so, while a
`vault consolidate` the person runs applies it, says what it did and can undo it."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from memory.consolidation.review import pending
from memory.consolidation.run import consolidate_if_due
from memory.service import MemoryService
from tests.conftest import FakeClock, ServiceFactory
from tests.memory.consolidation.test_bounded_runs import duplicates, write
from tests.memory.consolidation.test_capture_changes import vault_cli
from vault.clock import format_time
from vault.store import MemoryStore

pytestmark = pytest.mark.model
JOBS = [f"Batch job {n} writes parquet files to the data lake." for n in range(60)]
OLD_PORT = "The reports worker listens on port 7001."
NEW_PORT = "The reports worker now listens on port 7400."


def _memories(make_service: ServiceFactory, clock: FakeClock, **env: str) -> MemoryService:
    service = make_service(**env)
    write(service.vault, [*JOBS, *duplicates(["billing", "search"]), OLD_PORT])
    write(service.vault, [NEW_PORT], first=len(JOBS) + 5, days=1)
    service.sync()
    clock.advance(days=2)
    return service


def test_an_automatic_run_leaves_every_retirement_for_review_by_default(
    make_service: ServiceFactory, clock: FakeClock, tmp_path: Path
) -> None:
    service = _memories(make_service, clock)
    report = consolidate_if_due(service)
    assert report is not None
    assert report.counts["supersede"] == report.counts["merge"] == 0
    assert list(service.vault.archive_dir.glob("*.md")) == []
    waiting = pending(service.vault)
    assert {entry["action"]["action"] for entry in waiting} == {"supersede", "merge"}
    [change] = [entry for entry in waiting if entry["action"]["action"] == "supersede"]
    old_id = change["action"]["older"]
    assert "7001" in MemoryStore(service.vault).read(old_id).body

    from hooks.claude_code.session import briefing

    said = briefing(service.vault.root, None, {"VAULT_NOW": format_time(clock())})
    assert f"left {len(waiting)} change(s) for review" in said

    env = {**os.environ, "VAULT_NOW": format_time(clock()), "HF_HUB_OFFLINE": "1"}
    done = vault_cli(service.vault, env, "consolidate")  # the person runs it: it applies
    assert done.returncode == 0, done.stderr
    assert "supersede 1" in done.stdout
    assert MemoryStore(service.vault).read(old_id).archived
    run = done.stdout.split("Undo with: vault consolidate --undo ")[1].split()[0]
    undone = vault_cli(service.vault, env, "consolidate", "--undo", run)
    assert undone.returncode == 0, undone.stderr
    assert not MemoryStore(service.vault).read(old_id).archived


def test_a_relation_allowed_unattended_is_retired_by_the_automatic_run(
    make_service: ServiceFactory, clock: FakeClock
) -> None:
    service = _memories(make_service, clock, VAULT_AUTO_SUPERSEDE="true")
    report = consolidate_if_due(service)
    assert report is not None
    assert report.counts["supersede"] == 1
    assert report.counts["merge"] == 0
    assert {entry["action"]["action"] for entry in pending(service.vault)} == {"merge"}
