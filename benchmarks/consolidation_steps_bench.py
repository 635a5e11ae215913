"""How long each step of the automatic consolidation run holds the daemon (a
prompt waits at most one step). One vault holds every memory of a LoCoMo-format
folder (memories.jsonl), indexed with the real model; the steps are the ones
the daemon's sweep runs (memory/consolidation/run.py consolidation_steps).
Run: .venv/bin/python -m benchmarks.consolidation_steps_bench --data ../shared/bench/locomo-dev
"""

from __future__ import annotations

import argparse
import os
import tempfile
import time
from pathlib import Path

from indexer.embedder import SentenceTransformerEmbedder
from indexer.index import VaultIndex
from memory.consolidation.run import consolidation_steps
from memory.evaluation.retrieval import build_vault, load
from memory.service import MemoryService
from vault.clock import fixed_clock, parse_time
from vault.config import load_settings


def main() -> None:
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    parser = argparse.ArgumentParser()
    parser.add_argument("--data", type=Path, required=True)
    data = parser.parse_args().data
    memories, _ = load(data)
    items = [item for conv in sorted(memories) for item in memories[conv]]
    now = max(parse_time(i["timestamp"]) for i in items)
    with tempfile.TemporaryDirectory(prefix="vault-steps-") as tmp:
        vault = build_vault(Path(tmp) / "vault", items)
        settings = load_settings(None, {})
        index = VaultIndex(vault, settings, embedder=SentenceTransformerEmbedder())
        service = MemoryService(vault, settings, clock=fixed_clock(now), index=index)
        service.sync()
        steps = consolidation_steps(service)
        durations = []
        for step in steps:
            started = time.perf_counter()
            step()
            durations.append((time.perf_counter() - started) * 1000)
        worked = [d for d in durations if d >= 1.0]
        print(f"{len(items)} memories; {len(steps)} steps, {len(worked)} doing work")
        print(f"longest step {max(durations):.0f} ms; all steps {sum(durations) / 1000:.1f} s")
        print("steps over 1 ms (ms): " + ", ".join(f"{d:.0f}" for d in worked))
        print(f"runs: {service.consolidation_runs()[:1]}")
        index.close()


if __name__ == "__main__":
    main()
