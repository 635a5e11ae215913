"""The data-safety suite at small counts (benchmarks/safety_bench.py runs the big
ones with the same code): writers with the daemon stopped and started under them,
SIGKILLs of every kind of work, a full reindex under load, fuzzed hook payloads.
Real processes throughout: CLI runs, the real daemon, real hook processes."""

from __future__ import annotations

from pathlib import Path

import pytest

from benchmarks.safety_checks import inspect
from benchmarks.safety_fuzz import FuzzPlace, fuzz_hooks
from benchmarks.safety_kills import TRANSCRIPT, kill_rounds
from benchmarks.safety_writers import reindex_under_load, reinforcers, write_memories
from indexer.embedder import Embedder
from indexer.index import VaultIndex
from memory.service import MemoryService
from vault.config import load_settings
from vault.layout import Vault

pytestmark = pytest.mark.model


def indexed(vault: Vault, embedder: Embedder, count: int) -> Vault:
    vault.config_path.write_text("[association]\nlinks_max = 2\n")
    write_memories(vault, count)
    settings = load_settings(vault.config_path, {})
    index = VaultIndex(vault, settings, embedder=embedder)
    MemoryService(vault, settings, index=index).on_files_changed()
    index.close()
    return vault


def test_writers_lose_nothing_while_the_daemon_stops_and_starts(
    vault: Vault, embedder: Embedder
) -> None:
    indexed(vault, embedder, 3)
    result = reinforcers(vault, writers=3, each=15, mode="toggle", period=1.0)
    assert result.toggles >= 2  # the daemon was up, then down, during the run
    assert result.succeeded + result.failed == 45
    assert (result.lost, result.clean) == (0, True), result


def test_sigkills_leave_whole_files_and_the_next_start_recovers(
    vault: Vault, embedder: Embedder
) -> None:
    indexed(vault, embedder, 20)
    result = kill_rounds(vault, kills=5, daemon_share=1 / 5)
    assert result.kills["daemon"] == 1
    assert sum(result.kills.values()) == 5
    assert result.unparsable == set()
    assert result.duplicates == set()
    assert result.temp_after_start == 0
    assert result.index_ok, result.index_check
    assert result.hook_ok, result.hook


def test_reindex_full_under_readers_and_writers_finds_every_memory(
    vault: Vault, embedder: Embedder
) -> None:
    indexed(vault, embedder, 40)
    result = reindex_under_load(vault, embedder, readers=2, writers=2, jots=2, daemon=True)
    assert result.rebuilt.startswith("Rebuilt:"), result.rebuilt
    assert (result.writes, result.failed, result.memories) == (4, 0, 44)
    assert result.reads > 0
    assert result.not_found == []
    assert result.next_run.startswith("Synced: 0 added, 0 re-embedded"), result.next_run
    assert result.rebuilds == "1"  # the daemon's rebuild only; no later process rebuilt
    assert result.clean


def test_fuzzed_hook_payloads_exit_0_in_time_and_write_nothing_outside(
    vault: Vault, embedder: Embedder, tmp_path: Path
) -> None:
    indexed(vault, embedder, 5)
    place = FuzzPlace(tmp_path / "fuzz", vault.root)
    place.create(TRANSCRIPT)
    result = fuzz_hooks(place, calls=30)
    from hooks.client.control import stop

    stop(vault)  # a capture hook may have started one
    assert result.calls == 30
    assert result.failures == []
    assert result.outside_changes == []
    assert inspect(vault).clean
