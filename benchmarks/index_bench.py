"""Indexer benchmark: build throughput vs the raw encoder, no-change and
frontmatter-only delta sync, hybrid query latency, watcher latency.

    .venv/bin/python -m benchmarks.index_bench [--n 10000] [--big 100000]

Prints figures and ratios; asserts nothing. The 100k query-latency figure uses
random unit vectors and generated FTS rows (embedding 100k texts would take
~17 minutes here); everything else runs on real files and the real model.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from hooks.daemon.process import rss_bytes
from indexer.catalog import ManifestRow
from indexer.embedder import Embedder, serving_embedder
from indexer.faiss_store import VectorStore
from indexer.index import VaultIndex
from indexer.published import vectors_file
from indexer.vector_ids import vector_id
from memory.service import MemoryService
from vault import frontmatter
from vault.clock import format_time, parse_time
from vault.config import load_settings
from vault.layout import Vault

SUBJECTS = (
    "billing deploy tests CI database cache auth search logging docs api frontend queue".split()
)
VERBS = "uses prefers avoids requires documents migrates pins retries monitors caches".split()
OBJECTS = (
    "pytest fixtures|blue/green releases|integer cents|PostgreSQL 16|Redis 7|ruff and mypy|"
    "feature flags|structured JSON logs|OpenTelemetry traces|a nightly backup|UTC timestamps|"
    "semantic versioning|a retry budget|idempotency keys|connection pooling|read replicas"
).split("|")


def texts(n: int, seed: int = 7) -> list[str]:
    rng = random.Random(seed)
    return [
        f"The {rng.choice(SUBJECTS)} service {rng.choice(VERBS)} {rng.choice(OBJECTS)} "
        f"since sprint {rng.randint(1, 400)}; ticket {rng.randint(1000, 99999)} has details."
        for _ in range(n)
    ]


def write_vault(root: Path, bodies: list[str]) -> Vault:
    vault = Vault(root)
    MemoryService.init_vault(vault)
    created = format_time(parse_time("2026-01-01T00:00:00Z"))
    for i, body in enumerate(bodies):
        meta = {"id": f"m{i:06d}", "created": created, "last_access": created,
                "stability": 7.0, "tier": "episodic", "recalls": 0}  # fmt: skip
        (vault.memories_dir / f"m{i:06d}.md").write_text(frontmatter.render(meta, body + "\n"))
    return vault


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(q * (len(ordered) - 1))))]


def bench_build(n: int, workdir: Path, embedder: Embedder) -> Vault:
    bodies = texts(n)
    vault = write_vault(workdir / "v10k", bodies)
    settings = load_settings(None, {})
    start = time.perf_counter()
    embedder.encode(bodies)
    raw = n / (time.perf_counter() - start)
    index = VaultIndex(vault, settings, embedder=embedder)
    start = time.perf_counter()
    index.sync()
    built = n / (time.perf_counter() - start)
    print(f"build {n} memories: {built:.0f} memories/s; raw encoder {raw:.0f} texts/s; "
          f"ratio {built / raw:.2f} (goal >= 0.9); this process now resident: "
          f"{rss_bytes() / 1e6:.0f} MB")  # fmt: skip
    index.close()
    return vault


def bench_no_change(vault: Vault, embedder: Embedder) -> None:
    settings = load_settings(None, {})
    runs = []
    for _ in range(5):
        index = VaultIndex(vault, settings, embedder=embedder)
        start = time.perf_counter()
        report = index.sync()
        runs.append(time.perf_counter() - start)
        assert report.changed == 0
        index.close()
    env = {**os.environ, "VAULT_HOME": str(vault.root)}
    cli = []
    for _ in range(3):
        start = time.perf_counter()
        subprocess.run([sys.executable, "-m", "hooks.cli", "reindex"], env=env, check=True,
                       capture_output=True)  # fmt: skip
        cli.append(time.perf_counter() - start)
    print(f"no-change delta sync over {len(list(vault.memory_files()))} files: "
          f"median {statistics.median(runs):.3f} s in-process (goal <= 0.3 s); "
          f"whole `vault reindex` process {statistics.median(cli):.3f} s")  # fmt: skip


def bench_frontmatter_only(vault: Vault, embedder: Embedder) -> None:
    settings = load_settings(None, {})
    index = VaultIndex(vault, settings, embedder=embedder)
    later = parse_time("2026-02-01T00:00:00Z")
    for path in sorted(vault.memories_dir.glob("*.md"))[:1000]:
        path.write_text(frontmatter.update(path.read_text(), {"last_access": later, "recalls": 1}))
    before = embedder.encoded_texts
    start = time.perf_counter()
    report = index.sync()
    elapsed = time.perf_counter() - start
    print(f"frontmatter-only change to 1000 files: {len(report.metadata)} manifest updates, "
          f"{embedder.encoded_texts - before} re-embeds, {elapsed:.2f} s")  # fmt: skip
    index.close()


def bench_query(vault: Vault, embedder: Embedder, label: str) -> None:
    index = VaultIndex(vault, load_settings(None, {}), embedder=embedder)
    queries = texts(60, seed=99)
    index.search(queries[0])
    times = []
    for query in queries:
        start = time.perf_counter()
        index.search(query, k=10)
        times.append((time.perf_counter() - start) * 1000)
    print(f"hybrid query at {label}: p50 {statistics.median(times):.1f} ms, "
          f"p95 {pct(times, 0.95):.1f} ms")  # fmt: skip
    index.close()


def synthetic_big(n: int, workdir: Path, embedder: Embedder) -> Vault:
    """A catalog and vector file of `n` rows without files (query latency only)."""
    import numpy as np

    vault = Vault(workdir / "v100k")
    MemoryService.init_vault(vault)
    index = VaultIndex(vault, load_settings(None, {}), embedder=embedder)
    catalog = index.catalog
    store = VectorStore(384)
    rng = np.random.default_rng(3)
    bodies = texts(n, seed=11)
    catalog.transaction()
    for start in range(0, n, 10_000):
        part = range(start, min(n, start + 10_000))
        vectors = rng.standard_normal((len(part), 384)).astype("float32")
        vectors /= np.linalg.norm(vectors, axis=1, keepdims=True)
        ids = [vector_id(f"m{i:06d}", 0) for i in part]
        store.add(ids, vectors)
        for i, vec in zip(part, ids, strict=True):
            row = ManifestRow(f"m{i:06d}", f"memories/m{i:06d}.md", False, 0, 0, "x",
                              "2026-01-01T00:00:00Z", "2026-01-01T00:00:00Z", 7.0, "episodic",
                              "fact", "", (), "", "", "bench", 0, 0, 1.0, ())  # fmt: skip
            catalog.upsert_row(row)
            catalog.set_text(row.id, bodies[i], ())
            catalog.set_chunks(row.id, [vec])
    store.save(vectors_file(vault.index_dir, 1))  # published with the rows, as a writer does
    catalog.set_meta("generation", "1")
    catalog.commit()
    index.close()
    return vault


def bench_watcher(vault: Vault, embedder: Embedder, edits: int = 50) -> None:
    from indexer.watch import Changes, VaultWatcher

    index = VaultIndex(vault, load_settings(None, {}), embedder=embedder)
    index.sync()

    def apply(changes: Changes) -> None:
        index.sync() if changes.rescan else index.apply(changes.paths)

    watcher = VaultWatcher(vault, apply)
    watcher.start()
    latencies = []
    try:
        for i in range(edits):
            word = f"zebrafish{i}quokka"
            path = vault.memories_dir / f"m{i:06d}.md"
            text = path.read_text()
            start = time.perf_counter()
            path.write_text(text.rstrip("\n") + f" {word}\n")
            while not index.catalog.keyword_search(f'"{word}"', 1):
                if time.perf_counter() - start > 10:
                    raise RuntimeError("edit never became visible")
                time.sleep(0.005)
            latencies.append(time.perf_counter() - start)
    finally:
        watcher.stop()
        index.close()
    print(f"watcher: edit visible to search after p50 {statistics.median(latencies):.2f} s, "
          f"p95 {pct(latencies, 0.95):.2f} s over {edits} edits (goal <= 1 s)")  # fmt: skip


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--n", type=int, default=10_000)
    parser.add_argument("--big", type=int, default=100_000)
    args = parser.parse_args()
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    embedder = serving_embedder("")  # what every index encodes with
    embedder.encode(["warm up"])
    with tempfile.TemporaryDirectory() as tmp:
        workdir = Path(tmp)
        vault = bench_build(args.n, workdir, embedder)
        bench_no_change(vault, embedder)
        bench_frontmatter_only(vault, embedder)
        bench_query(vault, embedder, f"{args.n} memories")
        big = synthetic_big(args.big, workdir, embedder)
        bench_query(big, embedder, f"{args.big} memories (synthetic vectors)")
        bench_watcher(vault, embedder)


if __name__ == "__main__":
    main()
