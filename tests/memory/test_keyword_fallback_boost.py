"""The hook's keyword fallback boosts a memory exactly as the daemon's ranking
does: one formula (memory/recall/tiers.py recall_boost), the same usage files."""

from __future__ import annotations

import pytest

from memory.recall.keyword_fallback import keyword_recall
from memory.recall.ranking import RecallOptions
from memory.service import MemoryService
from tests.conftest import FakeClock


@pytest.mark.model
def test_fallback_and_daemon_give_a_memory_the_same_boost(
    service: MemoryService, clock: FakeClock
) -> None:
    memory = service.jot("Releases ship from the deploy branch after the canary passes.",
                         project="project-a")  # fmt: skip
    for other in (
        "Billing amounts are integer cents.",
        "Tests use pytest fixtures.",
        "The worker reads worker.toml.",
        "Logs rotate daily at midnight.",
    ):
        service.jot(other)  # BM25 needs a corpus: one document has no rare words
    service.validate(memory.id, up=True)
    weekly = service.vault.note_dir("weekly")
    weekly.mkdir(parents=True, exist_ok=True)
    (weekly / "2026-W01.md").write_text(f"- [[{memory.id}]]\n", encoding="utf-8")
    service.note_appearances([memory.id])
    service.note_appearances([memory.id])
    options = RecallOptions(project="project-a", signal="keyword", reinforce=False)
    [daemon_hit] = service.recall("canary deploy branch", options)
    assert daemon_hit.boost == pytest.approx(1.1 * 1.15 * 1.3 * 1.05)  # usage, project, +0.1

    tiers = keyword_recall(service.vault, "canary deploy branch", clock(), service.config,
                           service.settings.bm25_saturation, project="project-a")  # fmt: skip
    [hit] = [h for tier in tiers.values() for h in tier]
    fallback_boost = hit["score"] / (hit["similarity"] * hit["strength"])
    assert fallback_boost == pytest.approx(daemon_hit.boost, rel=1e-3)
