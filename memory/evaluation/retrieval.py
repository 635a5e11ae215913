"""The LoCoMo harness behind `vault bench retrieval` (metrics: memory/evaluation/metrics.py,
the hook path: memory/evaluation/hook_path.py). Each conversation gets a fresh vault (its
timestamps and turn order as when and where each memory was said, linked as
encoding links them), indexed with the real model, optionally consolidated;
`now` is its last message. The rank path asks MemoryService.recall for 10,
with and without decay; a merged memory counts as the sources it stands for.
"""

from __future__ import annotations

import json
import re
import statistics
import tempfile
import time
from collections import Counter, defaultdict
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from indexer.embedder import Embedder, serving_embedder
from indexer.index import VaultIndex
from indexer.sync import Progress
from memory.evaluation.hook_path import Asked, HookPath, HookTally, inject, summary
from memory.evaluation.metrics import scores
from memory.recall.ranking import RecallOptions
from memory.service import MemoryService
from vault.clock import fixed_clock, parse_time
from vault.config import Settings, load_settings
from vault.layout import Vault
from vault.store import MemoryStore

MODES: dict[str, dict[str, str]] = {  # setting overrides per mode
    "hybrid": {},
    "vector": {"VAULT_VECTOR_WEIGHT": "1.0", "VAULT_KEYWORD_WEIGHT": "0.0"},
    "keyword": {"VAULT_VECTOR_WEIGHT": "0.0", "VAULT_KEYWORD_WEIGHT": "1.0"},
}
METRICS = ("R@5", "R@10", "MRR", "nDCG@10")
_DIA_ID = re.compile(r"\bD\d+:(\d+)$")


def _lines(path: Path) -> Iterator[dict[str, Any]]:
    with path.open(encoding="utf-8") as handle:
        for number, line in enumerate(handle, 1):
            if line.strip():
                try:
                    yield json.loads(line)
                except ValueError as exc:
                    raise ValueError(f"{path}:{number}: not JSON ({exc})") from None


def load(
    data: Path, split: str | None = None
) -> tuple[dict[str, list[dict[str, Any]]], dict[str, list[dict[str, Any]]]]:
    """Memories and questions by conversation; `split` keeps only the questions
    marked with it (a set without a `split` field has none to choose)."""
    for name in ("memories.jsonl", "queries.jsonl"):
        if not (data / name).is_file():
            raise ValueError(f"{data / name}: missing (needs memories.jsonl and queries.jsonl)")
    memories: dict[str, list[dict[str, Any]]] = defaultdict(list)
    queries: dict[str, list[dict[str, Any]]] = defaultdict(list)
    for item in _lines(data / "memories.jsonl"):
        memories[str(item.get("conv", ""))].append(item)
    for item in _lines(data / "queries.jsonl"):
        if split is None or item.get("split") == split:
            queries[str(item.get("conv", ""))].append(item)
    return memories, queries


def _file_id(memory_id: str) -> str:
    return memory_id.replace(":", "_").replace("/", "_")


def turn_number(item: dict[str, Any]) -> int:
    """A memory's place in its session: `seq`, or the turn of a LoCoMo dialogue
    id ("D3:12" -> 12; all turns of a session share one timestamp), else 0."""
    if isinstance(item.get("seq"), int):
        return int(item["seq"])
    found = _DIA_ID.search(str(item.get("dia_id") or item.get("id", "")))
    return int(found.group(1)) if found else 0


def build_vault(root: Path, items: list[dict[str, Any]]) -> Vault:
    vault = Vault(root)
    MemoryService.init_vault(vault)
    store = MemoryStore(vault)
    for item in items:
        memory_id = _file_id(str(item["id"]))
        created = parse_time(item["timestamp"])
        meta = {"id": memory_id, "created": created, "last_access": created,
                "stability": 7.0, "tier": "episodic", "kind": "fact",
                "session": str(item.get("session", "")), "seq": turn_number(item),
                "source": "bench"}  # fmt: skip
        if item.get("project"):  # a developer-memory set: the project it belongs to
            meta["project"] = str(item["project"])
        store.create(memory_id, meta, str(item["text"]).strip() + "\n")
    return vault


@dataclass
class _Tally:
    """What the questions measured: rank path per (mode, decay), hook path per mode;
    with consolidation, what the runs did and which memory stands for which."""

    per_query: dict[tuple[str, bool], list[dict[str, Any]]] = field(
        default_factory=lambda: defaultdict(list)
    )
    hook: dict[str, HookTally] = field(default_factory=lambda: defaultdict(HookTally))
    latencies: dict[str, list[float]] = field(default_factory=lambda: defaultdict(list))
    embedding: dict[str, list[float]] = field(default_factory=lambda: defaultdict(list))
    consolidated: Counter[str] = field(default_factory=Counter)
    aliases: dict[str, set[str]] = field(default_factory=dict)  # merged id -> its sources

    def answer(self, memory_id: str, relevant: set[str]) -> str:
        """A merged memory counts as the relevant source it stands for."""
        return next(iter(self.aliases.get(memory_id, set()) & relevant), memory_id)


def run(
    data: Path, modes: list[str], environ: Mapping[str, str] | None = None,
    embedder: Embedder | None = None, progress: Progress | None = None,
    hook: HookPath | None = None, rank: bool = True, see_also: bool = True,
    consolidate: bool = False, split: str | None = None,
) -> dict[str, Any]:  # fmt: skip
    """`environ` carries VAULT_* overrides (a mode's weights win over them);
    `hook` adds the hook path (own and foreign vaults), `rank` the ranking
    (with or without `see_also`); `consolidate` runs consolidation on each
    conversation's vault (at its last timestamp) first;
    `split` keeps the questions of one half (a set that has halves);
    `progress(done, total)` hears after each conversation and mode."""
    memories, queries = load(data, split)
    # the encoder the daemon serves recall with (ONNX Runtime MiniLM for the bundled model)
    embedder = embedder or serving_embedder(load_settings(None, environ or {}).model)
    tally = _Tally()
    conversations = sorted(memories)
    with tempfile.TemporaryDirectory(prefix="vault-bench-") as tmp:
        vaults = {c: build_vault(Path(tmp) / c, memories[c]) for c in conversations}
        for conv in conversations if consolidate else []:
            _consolidate(vaults[conv], memories[conv], environ, embedder, tally)
        for number, mode in enumerate(modes):
            settings = load_settings(None, {**(environ or {}), **MODES[mode]})
            services = {c: _open(vaults[c], settings, embedder, memories[c]) for c in conversations}
            try:
                for done, conv in enumerate(conversations, 1):
                    if rank:
                        asked = queries.get(conv, [])
                        _measure(services[conv], mode, asked, tally, see_also)
                    if hook is not None:
                        _ask_hook(services, conv, queries.get(conv, []), hook, tally.hook[mode])
                        tally.hook[mode].briefings.append(
                            _briefing(services[conv], hook, memories[conv])
                        )
                    if progress is not None:
                        progress(
                            number * len(conversations) + done, len(modes) * len(conversations)
                        )
            finally:
                for service in services.values():
                    service.index.close()
    return _report(tally)


def _open(
    vault: Vault, settings: Settings, embedder: Embedder, items: list[dict[str, Any]]
) -> MemoryService:
    """A conversation's vault indexed and linked, `now` = its last message."""
    last = max(parse_time(i["timestamp"]) for i in items)
    index = VaultIndex(vault, settings, embedder=embedder)
    service = MemoryService(vault, settings, clock=fixed_clock(last), index=index, auto_sync=False)
    service.index.sync()
    service.sweep_links()
    return service


def _consolidate(
    vault: Vault, items: list[dict[str, Any]], environ: Mapping[str, str] | None,
    embedder: Embedder, tally: _Tally,
) -> None:  # fmt: skip
    """Index, link and consolidate one conversation's vault before its questions."""
    service = _open(vault, load_settings(None, environ or {}), embedder, items)
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
    service: MemoryService, mode: str, queries: list[dict[str, Any]], tally: _Tally,
    see_also: bool,
) -> None:  # fmt: skip
    """The ranking: recall of 10, with and without decay; the query embedding
    alone is timed once per question (the part a faster machine shrinks most).
    A question about something the vault does not hold has nothing to rank."""
    queries = [query for query in queries if _relevant(query)]
    for query in queries:
        started = time.perf_counter()
        service.index.embedder.encode([str(query["query"])])
        tally.embedding[mode].append((time.perf_counter() - started) * 1000)
    for decay in (False, True):
        options = RecallOptions(limit=10, reinforce=False, decay=decay, see_also=see_also)
        for query in queries:
            started = time.perf_counter()
            hits = service.recall(str(query["query"]), options)
            tally.latencies[mode].append((time.perf_counter() - started) * 1000)
            relevant = _relevant(query)
            row: dict[str, Any] = scores([tally.answer(h.id, relevant) for h in hits], relevant)
            row["category"] = _category(query)
            tally.per_query[(mode, decay)].append(row)


def _ask_hook(
    services: dict[str, MemoryService],
    conv: str,
    queries: list[dict[str, Any]],
    hook: HookPath,
    tally: HookTally,
) -> None:
    """A conversation's questions through the hook path: in its own vault and
    in every other conversation's."""
    for query in queries:
        text = str(query["query"])
        own = inject(services[conv], hook, text)
        if _relevant(query):
            tally.own.append(Asked(_category(query), _relevant(query), own))
        else:  # the vault holds nothing about it: whatever is injected is noise
            tally.absent.append(own)
        tally.foreign += [inject(s, hook, text) for c, s in services.items() if c != conv]


def _briefing(service: MemoryService, hook: HookPath, items: list[dict[str, Any]]) -> int:
    """The characters of the SessionStart briefing a session in this vault's project gets."""
    return len(hook.brief(service, str(items[0].get("project") or "") or None))


def _relevant(query: dict[str, Any]) -> set[str]:
    return {_file_id(r) for r in query.get("relevant", [])}


def _category(query: dict[str, Any]) -> str:
    return str(query.get("category_name") or query.get("category"))


def _report(tally: _Tally) -> dict[str, Any]:
    extra = {"consolidation": dict(tally.consolidated)} if tally.consolidated else {}
    return {
        **extra,
        "results": [
            {"mode": mode, "decay": decay, **_summary(rows)}
            for (mode, decay), rows in sorted(tally.per_query.items())
        ],
        "hook": {mode: summary(rows) for mode, rows in sorted(tally.hook.items())},
        "latency_ms": {
            mode: {
                "p50": round(statistics.median(values), 1),
                "p95": round(sorted(values)[int(0.95 * (len(values) - 1))], 1),
                "embedding_p50": round(statistics.median(tally.embedding[mode]), 1),
            }
            for mode, values in sorted(tally.latencies.items())
        },  # fmt: skip
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
