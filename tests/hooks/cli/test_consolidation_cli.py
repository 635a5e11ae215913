"""`vault consolidate` and `vault validate` as a person runs them (in-process,
sharing the loaded model): dry run, run, list, undo, a refused second undo."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from hooks.cli.main import main
from memory.service import MemoryService
from tests.conftest import FakeClock

pytestmark = pytest.mark.model
NOW = "2026-02-01T09:00:00Z"


def test_consolidate_dry_run_then_run_list_undo_and_refuse_a_second_undo(
    service: MemoryService, clock: FakeClock
) -> None:
    old = service.jot("In production the API's uvicorn process binds to port 8000.", project="api")
    clock.advance(days=10)
    service.jot("Production API now binds to port 8080 behind the ALB.", project="api")
    runner = CliRunner()

    dry = runner.invoke(main, ["consolidate", "--dry-run", "--now", NOW])
    assert dry.exit_code == 0, dry.stderr
    assert dry.stdout.startswith("Would: supersede 1, merge 0, gist 0, pattern 0")
    assert service.show(old.id)[0].archived is False  # a dry run changes nothing

    done = runner.invoke(main, ["consolidate", "--json", "--now", NOW])
    assert done.exit_code == 0, done.stderr
    run = json.loads(done.stdout)["run"]
    assert service.show(old.id)[0].archived is True

    listed = runner.invoke(main, ["consolidate", "--list"])
    assert listed.stdout.split()[:4] == [run, "1", "actions", "3"]

    undone = runner.invoke(main, ["consolidate", "--undo", run])
    assert undone.exit_code == 0, undone.stderr
    assert undone.stdout == f"Undid run {run}: 3 files restored byte for byte.\n"
    assert service.show(old.id)[0].archived is False

    again = runner.invoke(main, ["consolidate", "--undo", run])
    assert again.exit_code == 1
    assert f"run {run} was already undone" in again.stderr

    both = runner.invoke(main, ["consolidate", "--list", "--dry-run"])
    assert both.exit_code == 1
    assert "use one of --dry-run, --undo RUN, --list and --review" in both.stderr

    status = runner.invoke(main, ["status"])
    assert "Last consolidation: 2026-02-01T09:00:00Z" in status.stdout
    assert "Learned salience: 0 signals (learning starts at 50); novelty 1.00" in status.stdout


def test_validate_moves_confidence_down_and_up(service: MemoryService) -> None:
    memory = service.jot("The worker reads its settings from worker.toml.")
    runner = CliRunner()
    down = runner.invoke(main, ["validate", memory.id, "--down"])
    assert (down.exit_code, down.stdout) == (0, f"{memory.id}: confidence 0.45\n")
    up = runner.invoke(main, ["validate", memory.id, "--up"])
    assert up.stdout == f"{memory.id}: confidence 0.55\n"
    missing = runner.invoke(main, ["validate", "no-such-memory", "--up"])
    assert missing.exit_code == 1
    assert "no memory with id 'no-such-memory'" in missing.stderr
