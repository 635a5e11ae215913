"""Retrieval strengthening on LoCoMo: does counting appearances in results help or
hurt later questions? Each conversation becomes a vault (as `vault bench
retrieval` builds it) and its questions are asked in order at the conversation's
last timestamp; in the `strengthening` run the top 5 of every answer (what the
prompt hook would inject) are noted as appearances before the next question, so
later questions see boosts of up to x1.3. The `baseline` run notes nothing.
Reports R@5, R@10, MRR and nDCG@10, with and without decay, and recall's p50.
`--overhead` times what the factors add to one warm query instead: a refresh and
80 lookups (40 candidates, ranked and explained) over a year of periodic notes.
Run: nice .venv/bin/python -m benchmarks.lifecycle_bench --data DIR [--json]
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import tempfile
import time
from datetime import timedelta
from pathlib import Path
from typing import Any

from indexer.embedder import SentenceTransformerEmbedder
from indexer.index import VaultIndex
from memory.evaluation.metrics import scores
from memory.evaluation.retrieval import METRICS, _file_id, build_vault, load
from memory.lifecycle.access_stats import refresh_usage, usage_factor
from memory.recall.ranking import RecallOptions
from memory.service import MemoryService
from vault.clock import fixed_clock, parse_time
from vault.config import load_settings
from vault.layout import Vault

INJECTED = 5  # what the prompt hook shows of each answer


def run(data: Path) -> dict[str, Any]:
    memories, queries = load(data)
    embedder = SentenceTransformerEmbedder()
    rows: dict[str, list[dict[str, float]]] = {}
    latencies: list[float] = []
    with tempfile.TemporaryDirectory(prefix="vault-lifecycle-") as tmp:
        for conv, items in sorted(memories.items()):
            vault = build_vault(Path(tmp) / conv, items)
            last = max(parse_time(i["timestamp"]) for i in items)
            settings = load_settings(None, {})
            index = VaultIndex(vault, settings, embedder=embedder)
            service = MemoryService(vault, settings, fixed_clock(last), index, auto_sync=False)
            service.index.sync()
            service.sweep_links()
            for run_name in ("baseline", "strengthening"):
                for decay in (False, True):
                    log = service.appearances.path
                    if log.exists():
                        os.remove(log)  # every run starts with no appearances
                    key = f"{run_name} decay={decay}"
                    for query in queries.get(conv, []):
                        options = RecallOptions(limit=10, reinforce=False, decay=decay)
                        started = time.perf_counter()
                        hits = service.recall(str(query["query"]), options)
                        latencies.append((time.perf_counter() - started) * 1000)
                        relevant = {_file_id(r) for r in query.get("relevant", [])}
                        rows.setdefault(key, []).append(scores([h.id for h in hits], relevant))
                        if run_name == "strengthening":
                            service.note_appearances(h.id for h in hits[:INJECTED])
            service.index.close()
    report: dict[str, Any] = {
        key: {m: round(statistics.fmean(r[m] for r in items), 3) for m in METRICS}
        for key, items in rows.items()
    }
    report["questions"] = len(rows["baseline decay=True"])
    report["recall_p50_ms"] = round(statistics.median(latencies), 2)
    return report


def overhead(queries: int = 2000) -> dict[str, float]:
    """Milliseconds the usage factors add per query (p50, p95)."""
    with tempfile.TemporaryDirectory(prefix="vault-lifecycle-") as tmp:
        vault = Vault(Path(tmp))
        MemoryService.init_vault(vault)
        for level, count in (("weekly", 52), ("monthly", 12), ("quarterly", 4), ("yearly", 1)):
            for i in range(count):
                links = " ".join(f"[[m{(i * 7 + j) % 2000}]]" for j in range(20))
                (vault.note_dir(level) / f"{i}.md").write_text(links, encoding="utf-8")
        service = MemoryService(vault, load_settings(None, {}), auto_sync=False)
        now = service.clock()
        for day in range(7):
            ids = [f"m{i}" for i in range(day * 300, day * 300 + 300)]
            service.appearances.record(ids, now - timedelta(days=day), 7.0)
        candidates = [f"m{i}" for i in range(0, 2000, 50)]
        times = []
        for _ in range(queries):
            started = time.perf_counter()
            refresh_usage(service)
            for memory_id in candidates + candidates:
                usage_factor(service, memory_id, now)
            times.append((time.perf_counter() - started) * 1000)
        service.index.close()
    times.sort()
    return {
        "p50_ms": round(times[len(times) // 2], 3),
        "p95_ms": round(times[-len(times) // 20], 3),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", type=Path, help="LoCoMo folder")
    parser.add_argument("--overhead", action="store_true", help="time the factors alone")
    parser.add_argument("--json", action="store_true", help="print JSON")
    args = parser.parse_args()
    if args.overhead:
        print(json.dumps(overhead()))
        return
    if args.data is None:
        parser.error("--data is required (or --overhead)")
    report = run(args.data)
    if args.json:
        print(json.dumps(report, indent=2))
        return
    print(f"{report['questions']} questions; recall p50 {report['recall_p50_ms']} ms")
    for key, values in report.items():
        if isinstance(values, dict):
            print(f"{key:<26} " + "  ".join(f"{m} {values[m]:.3f}" for m in METRICS))


if __name__ == "__main__":
    main()
