"""Scale benchmark: a generated vault of N memories indexed through the real
sync path, then query latency, recall@10 against exact search, no-change
sync, one edit made visible to search, resident memory and disk.

    .venv/bin/python -m benchmarks.scale_bench --memories 200000 --synthetic-vectors [--json]

Without --synthetic-vectors the encoder users get (the bundled MiniLM on ONNX
Runtime, as the daemon serves it) encodes every chunk, and the build's chunks/s
is set against the raw encoder's on a sample of the vault's own chunks timed in
the same run (`build_vs_raw_encoder`, by wall time; `_cpu`, by CPU time; see
benchmarks/scale_bench_encoder.py), so a load that changes during the run
weighs on both sides.
`nochange_sync_s` is the sync users get when nothing changed: the daemon's
(`vault reindex`, `vault sync`'s index step, its checks) once its catch-up scan
is done, which looks only into folders whose mtime changed.
`nochange_full_stat_sync_s` states every file (a `vault reindex` without a
daemon; the daemon's catch-up scan). The daemon's start (its first sync, then
the catch-up) and resident memory are measured in a fresh process that opens the
built index the way the daemon does (no generation or ground truth in it).
VAULT_DAEMON_QUICK_SYNC_FILES makes a smaller vault count as large. Prints a
table, or with --json one JSON object; asserts nothing. Note `uptime` beside
timings.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable
from pathlib import Path

import numpy as np

from benchmarks.scale_bench_encoder import Timing, ratios, sample_chunks, timed_encode
from benchmarks.scale_bench_vault import generate, query_texts
from benchmarks.scale_bench_vectors import SyntheticEmbedder
from hooks.daemon.index_check import IndexCheck
from indexer.embedder import bundled_encoder
from indexer.faiss_store import VectorStore
from indexer.index import VaultIndex
from indexer.onnx_encoder import OnnxEncoder
from indexer.sync import Progress, SyncReport
from memory.service import MemoryService
from vault.config import load_settings
from vault.layout import Vault

EDIT_WORD = "quokkascale"


def embedder_for(synthetic: bool) -> SyntheticEmbedder | OnnxEncoder:
    """The synthetic vectors, or what `serving_embedder("")` gives every index."""
    return SyntheticEmbedder() if synthetic else bundled_encoder()


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(share * (len(ordered) - 1))))]


def progress_printer(label: str) -> Progress:
    """Prints the first step and each tenth, with the wall and CPU seconds since it
    was made and the load average (a run stopped midway still tells its pace).
    A total that grows (embedding counted on after the reconciled paths) starts
    the tenths again."""
    marks: set[int] = set()
    start, cpu = time.perf_counter(), time.process_time()
    seen_total = [0]

    def show(done: int, total: int) -> None:
        if total != seen_total[0]:
            seen_total[0] = total
            marks.clear()
        tenth = done * 10 // max(total, 1)
        if tenth not in marks or done == 1:
            marks.add(tenth)
            elapsed, used = time.perf_counter() - start, time.process_time() - cpu
            print(f"  {label}: {done}/{total} ({elapsed:.0f} s, CPU {used:.0f} s, "
                  f"load {os.getloadavg()[0]:.1f})", file=sys.stderr, flush=True)  # fmt: skip

    return show


def exact_top(store: VectorStore, queries: np.ndarray, k: int) -> list[set[int]]:
    """Exact top-k ids by brute force over every stored vector, in blocks."""
    ids = np.asarray(sorted(store.ids()), dtype=np.int64)
    best_scores = np.full((len(queries), k), -np.inf, dtype=np.float32)
    best_ids = np.full((len(queries), k), -1, dtype=np.int64)
    for start in range(0, len(ids), 50_000):
        block = ids[start : start + 50_000]
        scores = queries @ store.vectors_for(block.tolist()).T
        all_scores = np.hstack([best_scores, scores])
        all_ids = np.hstack([best_ids, np.broadcast_to(block, scores.shape)])
        keep = np.argsort(-all_scores, axis=1)[:, :k]
        best_scores = np.take_along_axis(all_scores, keep, axis=1)
        best_ids = np.take_along_axis(all_ids, keep, axis=1)
    return [set(row.tolist()) for row in best_ids]


def recall_at_10(store: VectorStore, queries: np.ndarray) -> float:
    _, approx = store.search_many(queries, 10)
    exact = exact_top(store, queries, 10)
    hits = sum(len(exact[i] & set(approx[i].tolist())) for i in range(len(queries)))
    return hits / (10 * len(queries))


def timed_searches(index: VaultIndex, queries: list[str]) -> list[float]:
    index.search(queries[0], k=10)  # warm: first snapshot, first FTS pages
    times = []
    for query in queries:
        start = time.perf_counter()
        index.search(query, k=10)
        times.append((time.perf_counter() - start) * 1000)
    return times


def edit_visible(index: VaultIndex, path: Path, word: str, sync: Callable[[], object]) -> float:
    """Seconds from `path` edited in place to search finding it (`sync` + search)."""
    start = time.perf_counter()
    with path.open("a", encoding="utf-8") as handle:
        handle.write(f"Later we learnt about {word} too.\n")
    sync()
    found = [c.row.id for c in index.search(word, k=5)]
    elapsed = time.perf_counter() - start
    if path.stem not in found:
        raise SystemExit(f"the edited memory {path.stem} was not found by search")
    return elapsed


def disk_mb(folder: Path) -> float:
    return sum(p.stat().st_size for p in folder.rglob("*") if p.is_file()) / 2**20


def serve_probe(root: Path, synthetic: bool) -> dict[str, float]:
    """In a fresh process: open the index as the daemon does, sync, search; RSS."""
    code = (
        "import json,sys,time;from benchmarks.scale_bench import probe;"
        f"print(json.dumps(probe(sys.argv[1], {synthetic!r})))"
    )
    done = subprocess.run(
        [sys.executable, "-c", code, str(root)], capture_output=True, text=True, check=True
    )
    figures: dict[str, float] = json.loads(done.stdout.strip().splitlines()[-1])
    return figures


def probe(root: str, synthetic: bool) -> dict[str, float]:
    from hooks.daemon.process import rss_bytes

    vault = Vault(Path(root))
    start = time.perf_counter()
    service, check = daemon_service(vault, synthetic)
    check.at_start()
    first = time.perf_counter() - start
    for query in query_texts(vault, 20, seed=11):
        service.index.search(query, k=10)
    start = time.perf_counter()
    if check.quick():
        check.catch_up()
    catch_up = time.perf_counter() - start
    start = time.perf_counter()
    service.sync()
    again = time.perf_counter() - start
    return {"open_and_sync_s": first, "catch_up_s": catch_up, "nochange_sync_s": again,
            "rss_mb": rss_bytes() / 2**20}  # fmt: skip


def daemon_service(vault: Vault, synthetic: bool) -> tuple[MemoryService, IndexCheck]:
    """The daemon's service and index check (its start sync, catch-up scan and
    checks) over this vault, with the bench's embedder."""
    settings = load_settings(None, os.environ)
    index = VaultIndex(vault, settings, embedder=embedder_for(synthetic))
    service = MemoryService(vault, settings, auto_sync=False, index=index)
    return service, IndexCheck(service, settings, threading.Lock(), quiet_seconds=0.0)


def timed_syncs(sync: Callable[[], object], times: int = 3) -> float:
    """The median seconds of `times` calls."""
    seconds = []
    for _ in range(times):
        start = time.perf_counter()
        sync()
        seconds.append(time.perf_counter() - start)
    return statistics.median(seconds)


def timed_build(
    index: VaultIndex, embedder: SyntheticEmbedder | OnnxEncoder, raw_sample: int
) -> tuple[SyncReport, float, dict[str, object]]:
    """The first sync, and with the real encoder its throughput against the raw
    encoder's on `raw_sample` of the vault's chunks (half timed before, half after)."""
    synthetic = isinstance(embedder, SyntheticEmbedder)
    sample = [] if synthetic else sample_chunks(index.vault, index.settings, raw_sample)
    half = len(sample) // 2
    raw = Timing()
    if sample:
        embedder.encode(["warm up: the session is made before anything is timed"])
        raw = timed_encode(bundled_encoder(), sample[:half])  # a fresh encoder: no recent texts
        print(f"  raw encoder before the build: {raw.chunks} chunks, {raw.per_s:.1f}/s, "
              f"{raw.per_cpu_s:.1f} per CPU s", file=sys.stderr, flush=True)  # fmt: skip
    encoded = embedder.encoded_texts
    wall, cpu = time.perf_counter(), time.process_time()
    report = index.sync(progress=progress_printer("embedded"))
    wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
    build = Timing(embedder.encoded_texts - encoded, wall, cpu)
    memories = len(report.added) + len(report.reembedded)
    figures: dict[str, object] = {
        "encoder": embedder.name, "build_cpu_s": round(build.cpu_s, 1),
        "build_memories_per_s": round(memories / build.wall_s, 1) if memories else None,
        "build_chunks_per_s": round(build.per_s, 1) if build.chunks else None,
    }  # fmt: skip
    if sample and build.chunks:  # a kept vault's build embeds nothing: no ratio
        after = timed_encode(bundled_encoder(), sample[half:])
        figures.update({
            "raw_encoder_sample_chunks": len(sample),
            "raw_encoder_chunks_per_s": round(raw.add(after).per_s, 1),
            "raw_encoder_before_after_per_s": [round(raw.per_s, 1), round(after.per_s, 1)],
            **ratios(build, raw.add(after)),
        })  # fmt: skip
    return report, build.wall_s, figures


def measure(vault: Vault, synthetic: bool, queries: int, raw_sample: int) -> dict[str, object]:
    embedder = embedder_for(synthetic)
    index = VaultIndex(vault, load_settings(None, os.environ), embedder=embedder)
    report, build, throughput = timed_build(index, embedder, raw_sample)
    texts = query_texts(vault, queries)
    latencies = timed_searches(index, texts)
    full_stat = timed_syncs(index.sync)  # every file stated
    service = MemoryService(vault, index.settings, auto_sync=False, index=index)
    check = IndexCheck(service, index.settings, threading.Lock(), 0.0)
    if check.quick():  # as the daemon does on a large vault
        check.catch_up()
    else:
        print("  (a small vault for the daemon: its syncs state every file)", file=sys.stderr)
    nochange = timed_syncs(service.sync)
    with index.published.reading() as snapshot:
        store = snapshot.vectors
        kind, vectors = store.kind, store.count
        start = time.perf_counter()
        for row in embedder.encode(texts):
            store.search(row, 10)
        vector_ms = (time.perf_counter() - start) * 1000 / len(texts)
        recall = recall_at_10(store, embedder.encode(texts))
    first, second = sorted(vault.memories_dir.glob("*/*/*.md"))[:2]
    edit = edit_visible(index, first, EDIT_WORD, index.sync)  # every file stated
    # the daemon: its watcher hands over the edited path
    watched = edit_visible(
        index, second, f"{EDIT_WORD}b", lambda: service.on_files_changed([second])
    )
    memories = index.stats()["memories"]  # a kept vault's build adds nothing
    index.close()
    served = serve_probe(vault.root, synthetic)
    return {
        "memories": memories, "vectors": vectors, "index_kind": kind,
        "build_s": round(build, 2), **throughput,
        "recall_p50_ms": round(statistics.median(latencies), 2),
        "recall_p95_ms": round(percentile(latencies, 0.95), 2),
        "vector_search_ms": round(vector_ms, 2), "recall_at_10": round(recall, 4),
        "nochange_sync_s": round(nochange, 3),
        "nochange_full_stat_sync_s": round(full_stat, 3),
        "edit_visible_s": round(edit, 3), "edit_visible_watched_s": round(watched, 3),
        "daemon_open_and_sync_s": round(served["open_and_sync_s"], 2),
        "daemon_catch_up_s": round(served["catch_up_s"], 2),
        "daemon_nochange_sync_s": round(served["nochange_sync_s"], 3),
        "daemon_rss_mb": round(served["rss_mb"], 1),
        "index_disk_mb": round(disk_mb(vault.index_dir), 1),
        "problems": len(report.problems),
    }  # fmt: skip


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--memories", type=int, default=10_000)
    parser.add_argument("--synthetic-vectors", action="store_true")
    parser.add_argument("--queries", type=int, default=200)
    parser.add_argument(
        "--raw-sample", type=int, default=5000, help="chunks the raw encoder is timed on"
    )
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.add_argument(
        "--keep", type=Path, help="build the vault here and keep it (reused when it exists)"
    )
    args = parser.parse_args()
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    load_start = round(os.getloadavg()[0], 2)
    with tempfile.TemporaryDirectory(prefix="scale-bench-") as folder:
        root = args.keep or Path(folder) / "vault"
        start = time.perf_counter()
        if args.keep and (args.keep / "memories").is_dir():  # measure a kept vault again
            vault = Vault(args.keep)
        else:
            vault = generate(root, args.memories)
        generated = time.perf_counter() - start
        figures = {
            "load_start": load_start,
            "generate_s": round(generated, 2),
            **measure(vault, args.synthetic_vectors, args.queries, args.raw_sample),
        }
    figures["load"] = round(os.getloadavg()[0], 2)  # at the end
    figures["cpu_s"] = round(time.process_time(), 1)  # this process (not its workers)
    if args.json:
        print(json.dumps(figures))
        return
    for key, value in figures.items():
        print(f"{key:28} {value}")


if __name__ == "__main__":
    main()
