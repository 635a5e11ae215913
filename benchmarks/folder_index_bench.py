"""Folders indexed in place: a generated docs folder of 10,000 Markdown files
(100 folders of 100, a heading and two to four paragraphs each), indexed through
the `index_paths` setting with the real model.

    nice -n 10 .venv/bin/python -m benchmarks.folder_index_bench [--n 10000] [--edits 20]

Prints the first index's speed (files/s, and the raw encoder's texts/s on the
same chunks for comparison), a no-change sync (full stat scan, and the quick
sync the CLI and hooks run), and how long an edit takes to be found by search
through the watcher. Asserts only that what it measures happened.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import tempfile
import time
from pathlib import Path

from indexer.chunking import chunk_words
from indexer.embedder import Embedder, serving_embedder
from indexer.index import VaultIndex
from memory.service import MemoryService
from vault.config import load_settings
from vault.layout import Vault

AREAS = "billing deploy auth search queue cache api frontend storage metrics".split()
NOUNS = (
    "retry budget|feature flag|read replica|blue-green switch|idempotency key|rate limit|"
    "connection pool|schema migration|nightly backup|trace sampler|error budget"
).split("|")
VERBS = "configures documents replaces monitors pins rotates drains warms shards audits".split()


def paragraph(rng: random.Random) -> str:
    return " ".join(
        f"The {rng.choice(AREAS)} service {rng.choice(VERBS)} the {rng.choice(NOUNS)} "
        f"before release {rng.randint(1, 900)}."
        for _ in range(rng.randint(3, 6))
    )


def write_docs(root: Path, n: int, seed: int = 5) -> list[Path]:
    rng = random.Random(seed)
    made = []
    for i in range(n):
        path = root / f"section-{i // 100:03d}" / f"page-{i:05d}.md"
        path.parent.mkdir(parents=True, exist_ok=True)
        area = rng.choice(AREAS)
        body = "\n\n".join(paragraph(rng) for _ in range(rng.randint(2, 4)))
        path.write_text(f"# {area.title()} runbook {i}\n\n{body}\n")
        made.append(path)
    return made


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(q * (len(ordered) - 1))))]


def index_for(vault: Vault, docs: Path, embedder: Embedder) -> VaultIndex:
    settings = load_settings(None, {"VAULT_INDEX_PATHS": str(docs)})
    return VaultIndex(vault, settings, embedder=embedder)


def bench_index(vault: Vault, docs: Path, files: list[Path], embedder: Embedder) -> None:
    chunks = [c for path in files[:200] for c in chunk_words(path.read_text())]
    start = time.perf_counter()
    embedder.encode(chunks)
    raw = len(chunks) / (time.perf_counter() - start)
    index = index_for(vault, docs, embedder)
    start = time.perf_counter()
    report = index.sync()
    elapsed = time.perf_counter() - start
    assert len(report.documents) == len(files), report.summary()
    vectors = index.stats()["vectors"]
    print(f"first index of {len(files)} files ({vectors} chunks): {elapsed:.1f} s, "
          f"{len(files) / elapsed:.0f} files/s; raw encoder on the same chunks "
          f"{raw:.0f} chunks/s, so {vectors / elapsed / raw:.2f} of it")  # fmt: skip
    index.close()


def bench_no_change(vault: Vault, docs: Path, embedder: Embedder) -> None:
    runs: dict[bool, list[float]] = {False: [], True: []}
    for quick in (False, True, False, True, False, True, True):
        index = index_for(vault, docs, embedder)
        start = time.perf_counter()
        report = index.sync(quick=quick)
        runs[quick].append(time.perf_counter() - start)
        assert report.changed == 0, report.summary()
        index.close()
    print(f"no-change sync: full scan median {statistics.median(runs[False]):.3f} s, "
          f"quick sync median {statistics.median(runs[True]):.3f} s")  # fmt: skip


def bench_watcher(vault: Vault, docs: Path, files: list[Path], embedder: Embedder,
                  edits: int) -> None:  # fmt: skip
    from indexer.watch import Changes, VaultWatcher

    index = index_for(vault, docs, embedder)

    def apply(changes: Changes) -> None:
        index.sync() if changes.rescan else index.apply(changes.paths)

    watcher = VaultWatcher(vault, apply, folders=index.folders)
    watcher.start()
    latencies = []
    try:
        for i in range(edits):
            word = f"axolotl{i}narwhal"
            path = files[(i * 487) % len(files)]
            text = path.read_text()
            start = time.perf_counter()
            path.write_text(text.rstrip("\n") + f" {word}\n")
            while not index.catalog.keyword_search(f'"{word}"', 1):
                if time.perf_counter() - start > 30:
                    raise RuntimeError("edit never became visible")
                time.sleep(0.005)
            latencies.append(time.perf_counter() - start)
    finally:
        watcher.stop()
        index.close()
    print(f"watcher: an edited document is found by search after p50 "
          f"{statistics.median(latencies):.2f} s, p95 {pct(latencies, 0.95):.2f} s, "
          f"max {max(latencies):.2f} s over {edits} edits")  # fmt: skip


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--n", type=int, default=10_000)
    parser.add_argument("--edits", type=int, default=20)
    args = parser.parse_args()
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    embedder = serving_embedder("")  # what every index encodes with
    embedder.encode(["warm up"])
    with tempfile.TemporaryDirectory() as tmp:
        docs = Path(tmp) / "docs"
        files = write_docs(docs, args.n)
        vault = Vault(Path(tmp) / "vault")
        MemoryService.init_vault(vault)
        print(f"load average before: {os.getloadavg()[0]:.2f} (1 min)")
        bench_index(vault, docs, files, embedder)
        bench_no_change(vault, docs, embedder)
        bench_watcher(vault, docs, files, embedder, args.edits)
        print(f"load average after: {os.getloadavg()[0]:.2f} (1 min)")


if __name__ == "__main__":
    main()
