"""The pure pieces of consolidation: groups, merged wording, confidence, learned
salience weights, and the journal's undo on real files."""

from __future__ import annotations

import pytest

from memory.consolidation.clusters import cluster
from memory.consolidation.journal import Journal, undo
from memory.consolidation.merge import merged_text
from memory.errors import ConsolidationError
from memory.lifecycle.confidence import confidence_factor, validated
from memory.lifecycle.salience import combine, emotion, learning, record_signal
from memory.service import MemoryService
from tests.conftest import T0, FakeClock
from vault.config import load_settings
from vault.layout import Vault


def test_groups_join_on_mean_similarity_never_through_a_veto_or_a_loose_chain() -> None:
    pairs = {("a", "b"): 0.9, ("b", "c"): 0.8, ("a", "c"): 0.7, ("c", "d"): 0.6, ("x", "y"): 0.9}
    # d is close to c only: joining a, b, c it averages (0 + 0 + 0.6) / 3 < 0.5
    assert cluster(pairs, 0.5, lambda a, b: False) == [["a", "b", "c"], ["x", "y"]]
    assert cluster(pairs, 0.5, lambda a, b: {a, b} == {"a", "c"}) == [
        ["a", "b"], ["c", "d"], ["x", "y"]
    ]  # fmt: skip
    assert cluster(pairs, 0.5, lambda a, b: False, coherent=lambda g: len(g) < 3) == [
        ["a", "b"], ["c", "d"], ["x", "y"]
    ]  # fmt: skip


def test_merged_wording_keeps_each_sources_distinct_fact_once() -> None:
    text = merged_text([
        "Prefers pytest fixtures to setUp/tearDown methods for test setup.",
        "Use pytest fixtures rather than setUp; sharing setup between test files was painful.",
        "Shared fixtures go in conftest.py.",
        "Test setup belongs in fixtures. The user said this again while reviewing.",
    ])  # fmt: skip
    assert text.startswith("Prefers pytest fixtures to setUp/tearDown methods")
    assert "Sharing setup between test files was painful." in text
    assert "Shared fixtures go in conftest.py." in text
    assert "said this again" not in text  # only the telling is new there


def test_validation_moves_confidence_within_its_bounds_and_ranking_by_it() -> None:
    assert validated(0.5, up=True) == 0.6
    assert validated(0.5, up=False) == 0.45
    assert validated(0.9, up=True) == 0.9
    assert validated(0.3, up=False) == 0.3
    assert confidence_factor(0.5, 0.5) == 1.0
    assert confidence_factor(0.9, 0.5) == pytest.approx(1.2)
    assert confidence_factor(0.3, 0.5) == pytest.approx(0.9)


def test_salience_combines_four_dimensions_around_one() -> None:
    neutral = dict.fromkeys(("novelty", "relevance", "emotion", "prediction_error"), 0.5)
    assert combine(neutral, dict.fromkeys(neutral, 1.0)) == 1.0
    assert emotion("I really hate flaky tests!") == 0.75
    assert emotion("The API runs on port 8080.") == 0.0


def test_salience_weights_adapt_after_enough_signals(vault: Vault) -> None:
    service = MemoryService(vault, load_settings(None, {"VAULT_SALIENCE_LEARN_AFTER": "4"}),
                            clock=FakeClock())  # fmt: skip
    emotional = {"novelty": 0.5, "relevance": 0.5, "emotion": 1.0, "prediction_error": 0.0}
    novel = {"novelty": 1.0, "relevance": 0.5, "emotion": 0.0, "prediction_error": 0.0}

    class Recorded:  # what record_signal reads of a memory
        def __init__(self, dims: dict[str, float]) -> None:
            self.salience_dims = dims

    record_signal(service, "reinforce", [Recorded(emotional)] * 2)  # type: ignore[list-item]
    assert learning(vault, 4)["weights"]["emotion"] == 1.0  # 2 signals: not yet
    record_signal(service, "prune", [Recorded(novel)] * 2)  # type: ignore[list-item]
    state = learning(vault, 4)
    assert state["signals"] == 4
    assert state["weights"]["emotion"] == 1.5  # kept when emotional, clamped at 1.5
    assert state["weights"]["novelty"] == 0.5  # pruned when merely novel
    assert state["weights"]["relevance"] == 1.0


def test_undo_restores_every_file_byte_for_byte_once(vault: Vault) -> None:
    kept = vault.memories_dir / "kept.md"
    kept.write_bytes(b"---\nid: kept\n---\nbody \r\n\xc3\xa9\n")
    moved = vault.memories_dir / "moved.md"
    moved.write_bytes(b"---\nid: moved\n---\nold\n")
    journal = Journal(vault, "run-1", "2026-01-01T09:00:00Z")
    created = vault.archive_dir / "moved.md"
    journal.remember([kept, moved, created])
    kept.write_bytes(b"changed")
    journal.wrote(kept, b"changed")
    created.write_bytes(b"---\nid: moved\n---\nnew\n")
    journal.wrote(created, created.read_bytes())
    moved.unlink()
    journal.wrote(moved, None)
    journal.save()

    report = undo(vault, "run-1", T0)
    assert kept.read_bytes() == b"---\nid: kept\n---\nbody \r\n\xc3\xa9\n"
    assert moved.read_bytes() == b"---\nid: moved\n---\nold\n"
    assert not created.exists()
    assert report.removed == ["archive/moved.md"]
    with pytest.raises(ConsolidationError, match="already undone"):
        undo(vault, "run-1", T0)
    with pytest.raises(ConsolidationError, match="no consolidation run"):
        undo(vault, "run-2", T0)


def test_undo_stops_at_a_file_changed_since_the_run_unless_forced(vault: Vault) -> None:
    note = vault.memories_dir / "note.md"
    note.write_text("before\n")
    journal = Journal(vault, "run-1", "2026-01-01T09:00:00Z")
    journal.remember([note])
    note.write_text("after the run\n")
    journal.wrote(note, note.read_bytes())
    journal.save()
    note.write_text("edited by hand later\n")
    with pytest.raises(ConsolidationError, match="1 files changed since run run-1"):
        undo(vault, "run-1", T0)
    assert note.read_text() == "edited by hand later\n"
    assert undo(vault, "run-1", T0, force=True).forced == ["memories/note.md"]
    assert note.read_text() == "before\n"
