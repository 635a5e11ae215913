"""The plan on a hand-made snapshot (no model): a group of restatements merges,
a group alike only in tone does not, and an older fact is superseded first."""

from __future__ import annotations

import numpy as np

from indexer.catalog import ManifestRow
from memory.consolidation.config import ConsolidationConfig
from memory.consolidation.plan import Gist, Merge, Supersede, make_plan
from memory.consolidation.relations import Item, WordWeights, similarity
from memory.consolidation.snapshot import Snapshot
from memory.consolidation.text import analyse
from tests.conftest import T0
from vault.config import load_settings

RESTATED = [
    "Use pytest fixtures rather than setUp in the billing tests.",
    "Prefers pytest fixtures over setUp methods.",
    "Shared pytest fixtures go in conftest.py, not in setUp.",
    "Fixtures, not setUp: the user asked again for pytest fixtures.",
    "Write pytest fixtures with yield instead of setUp and tearDown.",
]
CHITCHAT = [
    "Thanks so much, that means a lot to me.",
    "Glad it helped, see you soon.",
    "Wow, that sounds great, have fun!",
    "Awesome, keep going and enjoy it.",
    "Sounds lovely, can't wait to hear more.",
]
FILLER = [f"The {word} service stores {word} records in its own table." for word in (
    "billing invoice payment customer report export import audit search mail queue cache "
    "session token upload archive metric alert schedule webhook".split()
)]  # fmt: skip
PORTS = [
    ("In production the API binds to port 8000.", "2025-08-01T00:00:00Z"),
    ("Production API now binds to port 8080.", "2026-01-01T00:00:00Z"),
]


def snapshot() -> Snapshot:
    items, rows, vectors = {}, {}, {}
    texts = [(t, "2025-09-01T00:00:00Z") for t in RESTATED + CHITCHAT + FILLER] + PORTS
    for n, (text, created) in enumerate(texts):
        memory_id = f"m{n:03d}"
        kind = "preference" if n < 10 else "fact"
        items[memory_id] = Item(memory_id, "", kind, "", created, text, analyse(text))
        rows[memory_id] = ManifestRow(memory_id, f"memories/{memory_id}.md", False, 0, 0, "",
                                      created, created, 7.0, "episodic", kind, "", (), "", "",
                                      "jot", 0, 0, 1.0, ())  # fmt: skip
        vectors[memory_id] = np.zeros(3)
    weights = WordWeights(item.facts.tokens for item in items.values())
    ids = sorted(items)
    cosines = {
        (a, b): 0.6 for g in (ids[:5], ids[5:10]) for i, a in enumerate(g) for b in g[i + 1 :]
    }
    cosines[(ids[-2], ids[-1])] = 0.7
    sims = {
        p: similarity(c, items[p[0]].facts, items[p[1]].facts, weights) for p, c in cosines.items()
    }
    return Snapshot(items, rows, vectors, cosines, sims, weights)


def test_restatements_merge_chitchat_does_not_and_the_newer_port_wins() -> None:
    config = ConsolidationConfig.from_settings(load_settings(None, {}))
    plan = make_plan(snapshot(), config, T0)
    [merge] = plan.of(Merge)
    assert sorted(merge.sources) == [f"m{n:03d}" for n in range(5)]
    assert "conftest.py" in merge.text
    assert "yield" in merge.text
    [supersede] = plan.of(Supersede)
    assert (supersede.older, supersede.reason) == ("m030", "port 8000 -> 8080")


LONG_STORIES = [
    "On Monday we looked at the flaky payment tests for a while. They failed on CI only. "
    "After an hour we found the cause in the shared fixtures, which leaked state between tests "
    "through a module global. We decided to always build the payment client inside a fixture.",
    "The deploy on Friday went badly and took the whole afternoon to recover from. The "
    "migration locked the orders table for twenty minutes while traffic was high. We agreed "
    "to never run schema migrations on Fridays again, and to run them before noon.",
]


def stories() -> Snapshot:
    items, rows = {}, {}
    for n, text in enumerate(LONG_STORIES):
        memory_id, created = f"s{n}", "2025-09-01T00:00:00Z"
        items[memory_id] = Item(memory_id, "", "fact", "", created, text, analyse(text))
        rows[memory_id] = ManifestRow(memory_id, f"memories/{memory_id}.md", False, 0, 0, "",
                                      created, created, 7.0, "episodic", "fact", "", (), "", "",
                                      "jot", 0, 0, 1.0, ())  # fmt: skip
    weights = WordWeights(item.facts.tokens for item in items.values())
    return Snapshot(items, rows, {m: np.zeros(3) for m in items}, {}, {}, weights)


def test_the_models_gists_are_asked_once_and_used_when_shorter_else_the_rules() -> None:
    config = ConsolidationConfig.from_settings(load_settings(None, {}))
    asked: list[list[str]] = []

    def write_gists(texts: list[str]) -> list[str | None]:
        asked.append(texts)
        return ["Build the payment client in a fixture.", texts[1] + " Really."]  # 2nd: longer

    plan = make_plan(stories(), config, T0, write_gists=write_gists)
    gists = {gist.memory: gist.text for gist in plan.of(Gist)}
    assert asked == [LONG_STORIES]
    assert gists["s0"] == "Build the payment client in a fixture."
    assert gists["s1"].startswith("We agreed to never run schema migrations on Fridays")
    rules = {gist.memory: gist.text for gist in make_plan(stories(), config, T0).of(Gist)}
    assert rules["s1"] == gists["s1"]
    assert rules["s0"] != gists["s0"]
    broken = make_plan(stories(), config, T0, write_gists=lambda texts: [None])  # wrong length
    assert {gist.memory: gist.text for gist in broken.of(Gist)} == rules
