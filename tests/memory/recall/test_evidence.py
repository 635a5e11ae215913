"""What the prompt hook shows of the tiers: evidence, not the room left (pure)."""

from __future__ import annotations

from dataclasses import replace

from memory.config import MemoryConfig
from memory.recall.evidence import worth_showing
from memory.results import Associative, Hit

CONFIG = MemoryConfig.default()


def hit(memory_id: str, similarity: float, cosine: float, tier: str = "activated") -> Hit:
    return Hit(id=memory_id, text=memory_id, path="", tier="episodic", kind="fact", topic="",
               tags=(), project="", created="", last_access="", stability=7.0, strength=1.0,
               similarity=similarity, cosine=cosine, keyword=0.0, boost=1.0, score=similarity,
               age_days=1.0, recall_tier=tier, reason="")  # fmt: skip


def test_a_hedged_memory_needs_its_own_evidence_not_only_room() -> None:
    strong = hit("strong", 0.40, CONFIG.hedged_cosine + 0.05)
    loose = hit("loose", 0.39, CONFIG.hedged_cosine - 0.1)  # close in score, not in meaning
    far = hit("far", 0.40 - CONFIG.hedged_gap - 0.05, 0.6)  # means it, but far below the best
    shown = worth_showing(Associative([], [strong, loose, far]), CONFIG, 2, 2)
    assert [h.id for h in shown.activated] == ["strong"]


def test_at_most_a_few_of_each_and_nothing_when_nothing_clears() -> None:
    confident = [hit(f"c{i}", 0.6, 0.7, "confident") for i in range(4)]
    hedged = [hit(f"h{i}", 0.58, 0.5) for i in range(5)]
    shown = worth_showing(Associative(confident, hedged), CONFIG, 2, 3)
    assert [h.id for h in shown.confident] == ["c0", "c1"]
    assert [h.id for h in shown.activated] == ["h0", "h1", "h2"]
    nothing = worth_showing(Associative([], [hit("x", 0.2, 0.2)]), CONFIG, 2, 2)
    assert (nothing.confident, nothing.activated) == ([], [])


def test_what_the_session_has_seen_is_left_out() -> None:
    tiers = Associative([hit("a", 0.6, 0.7, "confident")], [hit("b", 0.58, 0.5)])
    shown = worth_showing(tiers, CONFIG, 2, 2, seen={"a", "b"})
    assert (shown.confident, shown.activated) == ([], [])


def test_the_bars_are_settings() -> None:
    lenient = replace(CONFIG, hedged_cosine=0.0, hedged_gap=1.0)
    tiers = Associative([], [hit("loose", 0.2, 0.1)])
    assert [h.id for h in worth_showing(tiers, lenient, 2, 2).activated] == ["loose"]
