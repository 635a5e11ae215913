"""The LoCoMo harness behind `vault bench retrieval` (metrics: memory/evaluation.py).
Each conversation gets a fresh vault (timestamps as created times, linked as
encoding links), indexed with the real model, optionally consolidated; every
question goes through MemoryService.recall at `now` = the last timestamp, with
and without decay, and the recall tiers are checked against the evidence.
"""

from __future__ import annotations

import json
import statistics
import tempfile
import time
from collections import Counter, defaultdict
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Any

from indexer.embedder import Embedder, SentenceTransformerEmbedder
from indexer.index import VaultIndex
from indexer.sync import Progress
from memory.evaluation import scores
from memory.recall import RecallOptions
from memory.recall_tiers import classify
from memory.service import MemoryService
from vault.clock import fixed_clock, parse_time
from vault.config import load_settings
from vault.layout import Vault
from vault.store import MemoryStore

MODES: dict[str, dict[str, str]] = {  # setting overrides per mode
    "hybrid": {},
    "vector": {"VAULT_VECTOR_WEIGHT": "1.0", "VAULT_KEYWORD_WEIGHT": "0.0"},
    "keyword": {"VAULT_VECTOR_WEIGHT": "0.0", "VAULT_KEYWORD_WEIGHT": "1.0"},
}
METRICS = ("R@5", "R@10", "MRR", "nDCG@10")


def _lines(path: Path) -> Iterator[dict[str, Any]]:
    with path.open(encoding="utf-8") as handle:
        for number, line in enumerate(handle, 1):
            if line.strip():
                try:
                    yield json.loads(line)
                except ValueError as exc:
                    raise ValueError(f"{path}:{number}: not JSON ({exc})") from None


def load(data: Path) -> tuple[dict[str, list[dict[str, Any]]], dict[str, list[dict[str, Any]]]]:
    for name in ("memories.jsonl", "queries.jsonl"):
        if not (data / name).is_file():
            raise ValueError(f"{data / name}: missing (needs memories.jsonl and queries.jsonl)")
    memories: dict[str, list[dict[str, Any]]] = defaultdict(list)
    queries: dict[str, list[dict[str, Any]]] = defaultdict(list)
    for item in _lines(data / "memories.jsonl"):
        memories[str(item.get("conv", ""))].append(item)
    for item in _lines(data / "queries.jsonl"):
        queries[str(item.get("conv", ""))].append(item)
    return memories, queries


def _file_id(memory_id: str) -> str:
    return memory_id.replace(":", "_").replace("/", "_")


def build_vault(root: Path, items: list[dict[str, Any]]) -> Vault:
    vault = Vault(root)
    MemoryService.init_vault(vault)
    store = MemoryStore(vault)
    for item in items:
        memory_id = _file_id(str(item["id"]))
        created = parse_time(item["timestamp"])
        meta = {"id": memory_id, "created": created, "last_access": created,
                "stability": 7.0, "tier": "episodic", "kind": "fact",
                "session": str(item.get("session", "")), "source": "bench"}  # fmt: skip
        store.create(memory_id, meta, str(item["text"]).strip() + "\n")
    return vault


@dataclass
class _Tally:
    """What the questions measured, per (mode, decay) and per mode; with
    consolidation, what the runs did and which memory stands for which."""

    per_query: dict[tuple[str, bool], list[dict[str, Any]]] = field(
        default_factory=lambda: defaultdict(list)
    )
    tiers: dict[str, list[dict[str, Any]]] = field(default_factory=lambda: defaultdict(list))
    latencies: dict[str, list[float]] = field(default_factory=lambda: defaultdict(list))
    consolidated: Counter[str] = field(default_factory=Counter)
    aliases: dict[str, set[str]] = field(default_factory=dict)  # merged id -> its sources

    def answer(self, memory_id: str, relevant: set[str]) -> str:
        """A merged memory counts as the relevant source it stands for."""
        return next(iter(self.aliases.get(memory_id, set()) & relevant), memory_id)


def run(
    data: Path, modes: list[str], environ: Mapping[str, str] | None = None,
    embedder: Embedder | None = None, progress: Progress | None = None,
    consolidate: bool = False,
) -> dict[str, Any]:  # fmt: skip
    """`environ` carries VAULT_* overrides (a mode's weights win over them);
    `progress(done, total)` hears after each conversation; `consolidate` runs
    consolidation on each conversation's vault (at its last timestamp) first."""
    memories, queries = load(data)
    embedder = embedder or SentenceTransformerEmbedder()
    tally = _Tally()
    conversations = sorted(memories.items())
    with tempfile.TemporaryDirectory(prefix="vault-bench-") as tmp:
        for done, (conv, items) in enumerate(conversations, 1):
            vault = build_vault(Path(tmp) / conv, items)
            last = max(parse_time(i["timestamp"]) for i in items)
            if consolidate:
                _consolidate(vault, last, environ, embedder, tally)
            for mode in modes:
                settings = load_settings(None, {**(environ or {}), **MODES[mode]})
                index = VaultIndex(vault, settings, embedder=embedder)
                service = MemoryService(
                    vault, settings, clock=fixed_clock(last), index=index, auto_sync=False
                )
                _measure(service, mode, queries.get(conv, []), tally)
                service.index.close()
            if progress is not None:
                progress(done, len(conversations))
    return _report(tally)


def _consolidate(
    vault: Vault, now: datetime, environ: Mapping[str, str] | None, embedder: Embedder,
    tally: _Tally,
) -> None:  # fmt: skip
    """Index, link and consolidate one conversation's vault before its questions."""
    settings = load_settings(None, environ or {})
    index = VaultIndex(vault, settings, embedder=embedder)
    service = MemoryService(vault, settings, clock=fixed_clock(now), index=index, auto_sync=False)
    service.index.sync()
    service.sweep_links()
    report = service.consolidate()
    tally.consolidated.update(report.counts)
    for action in report.actions:
        if action["action"] == "merge":
            sources = set(action["sources"])
            for source in action["sources"]:
                sources |= tally.aliases.get(source, set())
            tally.aliases[action["into"]] = sources
    service.index.close()


def _measure(
    service: MemoryService, mode: str, queries: list[dict[str, Any]], tally: _Tally
) -> None:
    """Index and link one conversation's vault, then ask its questions."""
    service.index.sync()
    service.sweep_links()
    for query in queries:
        relevant = {_file_id(r) for r in query.get("relevant", [])}
        tally.tiers[mode].append(_tiers(service, str(query["query"]), relevant, tally))
    for decay in (False, True):
        options = RecallOptions(limit=10, reinforce=False, decay=decay)
        for query in queries:
            started = time.perf_counter()
            hits = service.recall(str(query["query"]), options)
            tally.latencies[mode].append((time.perf_counter() - started) * 1000)
            relevant = {_file_id(r) for r in query.get("relevant", [])}
            row: dict[str, Any] = scores([tally.answer(h.id, relevant) for h in hits], relevant)
            row["category"] = str(query.get("category_name") or query.get("category"))
            tally.per_query[(mode, decay)].append(row)


def _report(tally: _Tally) -> dict[str, Any]:
    extra = {"consolidation": dict(tally.consolidated)} if tally.consolidated else {}
    return {
        **extra,
        "results": [
            {"mode": mode, "decay": decay, **_summary(rows)}
            for (mode, decay), rows in sorted(tally.per_query.items())
        ],
        "tiers": {mode: _tier_summary(rows) for mode, rows in sorted(tally.tiers.items())},
        "latency_ms": {
            mode: {
                "p50": round(statistics.median(values), 1),
                "p95": round(sorted(values)[int(0.95 * (len(values) - 1))], 1),
            }
            for mode, values in sorted(tally.latencies.items())
        },  # fmt: skip
    }


def _tiers(service: MemoryService, query: str, relevant: set[str], tally: _Tally) -> dict[str, Any]:
    """Where the evidence lands among the recall tiers, by similarity alone."""
    found: dict[str, list[bool]] = {"confident": [], "activated": []}
    evidence_tier = None
    for candidate in service.index.search(query, k=20):
        tier = classify(candidate.similarity, 1.0, 1.0, service.config)
        if tier is None:
            continue
        is_evidence = tally.answer(candidate.row.id, relevant) in relevant
        found[tier].append(is_evidence)
        if is_evidence and evidence_tier is None:
            evidence_tier = tier
    return {"confident": found["confident"][:5], "activated": found["activated"][:5],
            "evidence_tier": evidence_tier}  # fmt: skip


def _tier_summary(rows: list[dict[str, Any]]) -> dict[str, float]:
    confident = [flag for row in rows for flag in row["confident"]]
    top = [row["confident"][0] for row in rows if row["confident"]]
    return {
        "questions": len(rows),
        "with_confident": round(len(top) / len(rows), 3),
        "confident_precision": round(statistics.fmean(confident), 3) if confident else 0.0,
        "confident_top1_precision": round(statistics.fmean(top), 3) if top else 0.0,
        "evidence_confident": round(
            statistics.fmean(r["evidence_tier"] == "confident" for r in rows), 3
        ),
        "evidence_activated": round(
            statistics.fmean(r["evidence_tier"] == "activated" for r in rows), 3
        ),
        "evidence_in_no_tier": round(statistics.fmean(r["evidence_tier"] is None for r in rows), 3),
    }


def _summary(rows: list[dict[str, Any]]) -> dict[str, Any]:
    def mean(items: list[dict[str, Any]]) -> dict[str, float]:
        return {m: round(statistics.fmean(r[m] for r in items), 3) for m in METRICS}

    by_category: dict[str, list[dict[str, Any]]] = defaultdict(list)
    for row in rows:
        by_category[row["category"]].append(row)
    return {
        "questions": len(rows),
        "overall": mean(rows),
        "by_category": {
            c: {"questions": len(r), **mean(r)} for c, r in sorted(by_category.items())
        },
    }
