"""Consolidation on the scenario set (benchmarks/data/consolidation_set.json, see
its .md): precision and recall of merges, contradictions and patterns, gists
that keep their decision, how many memories recall injects for the set's
questions before and after, and that undo restores every file byte for byte.

The set becomes a real vault (ids m001..m244, kind, project and topic as
written, created on their dates; every memory last used at the run's `now`, so
strength is 1 and only consolidation separates stale from current), indexed
with the real model. Recall is what the prompt hook injects: the confident and
activated tiers, 5 each. Run: .venv/bin/python -m benchmarks.consolidation_bench
(--sweep adds the merge-bar calibration; --json prints the report as JSON).
It also prints the change/restatement judge on the labelled pairs
(benchmarks/consolidation_pairs_bench.py).
"""

from __future__ import annotations

import hashlib
import json
import os
import sys
import tempfile
from itertools import combinations
from pathlib import Path
from typing import Any

from benchmarks import consolidation_pairs_bench
from indexer.embedder import SentenceTransformerEmbedder
from indexer.index import VaultIndex
from memory.consolidation.config import ConsolidationConfig
from memory.consolidation.plan import Merge, make_plan
from memory.consolidation.run import consolidate, plan_now, undo_run
from memory.consolidation.text import tokens
from memory.recall.ranking import RecallOptions
from memory.service import MemoryService
from vault.clock import fixed_clock, parse_time
from vault.config import load_settings
from vault.layout import Vault
from vault.links import link_targets
from vault.store import MemoryStore

DATA = Path(__file__).parent / "data" / "consolidation_set.json"
NOW = parse_time("2026-03-28T09:00:00Z")
INJECT = RecallOptions(limit=5, reinforce=False, see_also=False)
FACT_KEPT = 0.6  # share of a distinct fact's content words the merged text must hold


def build_vault(root: Path, data: dict[str, Any]) -> Vault:
    vault = Vault(root)
    MemoryService.init_vault(vault)
    store = MemoryStore(vault)
    for item in data["memories"]:
        meta = {"id": item["id"], "created": parse_time(item["created"]), "last_access": NOW,
                "stability": 7.0, "tier": "episodic", "kind": item["kind"],
                "topic": item["topic"], "tags": [], "project": item["project"],
                "source": "bench", "recalls": 0, "confirmations": 0, "salience": 1.0,
                "links": []}  # fmt: skip
        store.create(item["id"], meta, item["text"] + "\n")
    return vault


def snapshot_files(vault: Vault) -> dict[str, str]:
    """Every file of the vault's memories/ and archive/ with its content hash."""
    found = {}
    for path in vault.memory_files():
        found[vault.relative(path)] = hashlib.sha256(path.read_bytes()).hexdigest()
    return found


def injected(service: MemoryService, query: str) -> list[str]:
    found = service.recall_associative(query, INJECT)
    return [hit.id for hit in found.confident + found.activated]


def sources_of(service: MemoryService, memory_id: str) -> set[str]:
    """The set's ids a memory stands for (a merged memory: all its sources)."""
    record = service.store.read(memory_id)
    if not record.merged_from:
        return {memory_id}
    return set().union(*(sources_of(service, s) for s in link_targets(record.merged_from)))


def recall_table(service: MemoryService, data: dict[str, Any]) -> dict[str, Any]:
    pairs = [(c["older"], c["newer"]) for c in data["contradictions"]]
    counts, hits, stale, both = [], 0, 0, 0
    for query in data["queries"]:
        ids = injected(service, query["query"])
        shown = set().union(*(sources_of(service, m) for m in ids)) if ids else set()
        counts.append(len(ids))
        hits += bool(shown & set(query["relevant"]))
        stale += len(shown & set(query["stale"]))
        both += sum(1 for older, newer in pairs if older in shown and newer in shown)
    return {"questions": len(counts), "injected": sum(counts),
            "mean_injected": round(sum(counts) / len(counts), 2),
            "with_a_relevant_memory": hits, "stale_injected": stale,
            "contradiction_pairs_both_injected": both}  # fmt: skip


def hard_negative_pairs(data: dict[str, Any]) -> set[frozenset[str]]:
    return {frozenset(p) for h in data["hard_negatives"] for p in combinations(h["members"], 2)}


def merge_scores(merges: list[list[str]], data: dict[str, Any]) -> dict[str, Any]:
    groups = [set(g["members"]) for g in data["duplicate_groups"]]
    mature = [g for g in groups if len(g) >= 5]
    right = [m for m in merges if any(set(m) <= g for g in groups)]
    negatives = hard_negative_pairs(data)
    negatives |= {frozenset((c["older"], c["newer"])) for c in data["contradictions"]}
    wrong_pairs = sum(1 for m in merges for p in combinations(m, 2) if frozenset(p) in negatives)
    found_pairs = {frozenset(p) for m in merges for p in combinations(m, 2)}
    true_pairs = {frozenset(p) for g in groups for p in combinations(sorted(g), 2)}
    return {"merges": len(merges), "correct": len(right),
            "precision": round(len(right) / len(merges), 3) if merges else 1.0,
            "mature_groups_merged": sum(any(g <= set(m) for m in merges) for g in mature),
            "mature_groups": len(mature),
            "duplicate_pairs_recall": round(len(found_pairs & true_pairs) / len(true_pairs), 3),
            "hard_negative_or_contradiction_pairs_merged": wrong_pairs}  # fmt: skip


def fact_kept(fact: str, text: str) -> bool:
    words = tokens(fact.split(":", 1)[-1])
    return bool(words) and len(words & tokens(text)) >= FACT_KEPT * len(words)


def distinct_facts(service: MemoryService, done: list[dict[str, Any]], data: dict[str, Any]) -> str:
    kept = total = 0
    for action in (a for a in done if a["action"] == "merge"):
        text = service.store.read(action["into"]).body
        for group in data["duplicate_groups"]:
            if set(action["sources"]) <= set(group["members"]):
                total += len(group["distinct_facts"])
                kept += sum(fact_kept(f, text) for f in group["distinct_facts"])
    return f"{kept}/{total}"


def contradiction_scores(done: list[dict[str, Any]], data: dict[str, Any]) -> dict[str, Any]:
    truth = {(c["older"], c["newer"]) for c in data["contradictions"]}
    flagged = {(a["older"], a["newer"]) for a in done if a["action"] == "supersede"}
    implied = set(flagged)
    for _ in range(3):  # A -> B and B -> C also retire A in favour of C
        implied |= {(a, d) for a, b in implied for c, d in implied if b == c}
    negatives = hard_negative_pairs(data)
    return {"flagged": len(flagged), "correct": len(flagged & truth), "pairs": len(truth),
            "precision": round(len(flagged & truth) / len(flagged), 3) if flagged else 1.0,
            "recall": round(len(flagged & truth) / len(truth), 3),
            "recall_with_chains": round(len(implied & truth) / len(truth), 3),
            "explicit_found": sum(1 for c in data["contradictions"] if c["explicit"]
                                  and (c["older"], c["newer"]) in flagged),
            "implicit_found": sum(1 for c in data["contradictions"] if not c["explicit"]
                                  and (c["older"], c["newer"]) in flagged),
            "hard_negatives_flagged": sum(frozenset(p) in negatives for p in flagged)}  # fmt: skip


def pattern_scores(done: list[dict[str, Any]], data: dict[str, Any]) -> dict[str, Any]:
    themes = [set(t["members"]) for t in data["themes"]]
    produced = [a for a in done if a["action"] == "pattern"]
    matched = set()
    right = 0
    for action in produced:
        sources = set(action["sources"])
        best = max(range(len(themes)), key=lambda n: len(sources & themes[n]))
        if len(sources & themes[best]) * 2 >= len(sources):
            right += 1
            matched.add(best)
    return {"patterns": len(produced), "matching_a_theme": right, "themes": len(themes),
            "themes_found": len(matched),
            "precision": round(right / len(produced), 3) if produced else 1.0,
            "recall": round(len(matched) / len(themes), 3)}  # fmt: skip


def gist_scores(service: MemoryService, data: dict[str, Any]) -> dict[str, Any]:
    kept = superseded = 0
    for item in data["gist"]:
        record = service.store.read(item["id"])
        if record.archived:
            superseded += 1
        elif item["gist_must_keep"].lower() in record.body.lower():
            kept += record.gist_of != ()
    return {"episodes": len(data["gist"]), "gisted_and_kept": kept,
            "superseded_instead": superseded}  # fmt: skip


def merge_sweep(service: MemoryService, data: dict[str, Any]) -> list[dict[str, Any]]:
    """Merge precision and recall for a range of merge bars, from one snapshot."""
    snapshot, _ = plan_now(service)
    rows = []
    for bar in (0.36, 0.38, 0.4, 0.42, 0.44, 0.46, 0.5):
        settings = load_settings(None, {"VAULT_MERGE_BAR": str(bar)})
        plan = make_plan(snapshot, ConsolidationConfig.from_settings(settings), NOW)
        merges = [list(m.sources) for m in plan.of(Merge)]
        rows.append({"merge_bar": bar, **merge_scores(merges, data)})
    return rows


def run(sweep: bool = False) -> dict[str, Any]:
    data = json.loads(DATA.read_text(encoding="utf-8"))
    embedder = SentenceTransformerEmbedder()
    with tempfile.TemporaryDirectory(prefix="vault-consolidation-") as tmp:
        vault = build_vault(Path(tmp) / "vault", data)
        settings = load_settings(None, {})
        index = VaultIndex(vault, settings, embedder=embedder)
        service = MemoryService(vault, settings, clock=fixed_clock(NOW), index=index)
        service.sync()
        report: dict[str, Any] = {"before": recall_table(service, data)}
        if sweep:
            report["merge_bar_sweep"] = merge_sweep(service, data)
        before = snapshot_files(vault)
        result = consolidate(service)
        done = result.actions
        merges = [a["sources"] for a in done if a["action"] == "merge"]
        report.update(
            counts=result.counts, skipped=result.skipped, after=recall_table(service, data),
            merges={**merge_scores(merges, data), "distinct_facts_kept":
                    distinct_facts(service, done, data)},
            contradictions=contradiction_scores(done, data),
            patterns=pattern_scores(done, data), gist=gist_scores(service, data),
            pattern_texts=[service.store.read(a["into"]).body.strip()
                           for a in done if a["action"] == "pattern"],
        )  # fmt: skip
        undone = undo_run(service, result.run or "")
        report["undo"] = {"files_restored": len(undone.restored) + len(undone.removed),
                          "byte_identical_after_undo": snapshot_files(vault) == before}  # fmt: skip
        index.close()
    return report


def main() -> None:
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    report = run(sweep="--sweep" in sys.argv)
    pairs = consolidation_pairs_bench.run()  # the judge on the labelled pairs
    if "--json" in sys.argv:
        print(json.dumps({**report, "pairs": pairs}, indent=2))
        return
    print("\n".join(consolidation_pairs_bench.lines(pairs)))
    for section, values in report.items():
        if isinstance(values, dict):
            print(f"{section}: " + ", ".join(f"{k} {v}" for k, v in values.items()))
        elif section == "pattern_texts":
            print("patterns written:")
            print("\n".join(f"  - {text}" for text in values))
        else:
            print(f"{section}:")
            print("\n".join(f"  {row}" for row in values))


if __name__ == "__main__":
    main()
