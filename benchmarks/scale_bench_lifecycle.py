"""Lifecycle work over a whole generated vault (issue 29): the SessionStart
briefing, `prune` and a consolidation run, each timed, with their progress on
stderr. Run it on a vault built and kept by the scale benchmark:

    .venv/bin/python -m benchmarks.scale_bench --memories 200000 --synthetic-vectors --keep DIR
    .venv/bin/python -m benchmarks.scale_bench_lifecycle --vault DIR [--json]

The briefing is computed in a fresh process by the function the SessionStart hook
prints (the hook itself would also hand a sweep to a daemon, whose real model
would re-embed a vault indexed with synthetic vectors). Prune and consolidation
run in this process with the synthetic embedder the vault was indexed with; both
change the vault (archive moves, journaled merges), and each stage's seconds are
reported (the plan's: reading, comparing, judging...). `--skip-prune` consolidates
the whole vault (prune at 200,000 takes half an hour). Asserts nothing.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time
from datetime import timedelta
from pathlib import Path

from benchmarks.scale_bench import progress_printer
from benchmarks.scale_bench_vault import START
from benchmarks.scale_bench_vectors import SyntheticEmbedder
from indexer.index import VaultIndex
from indexer.sync import Progress
from memory.consolidation.run import consolidate
from memory.service import MemoryService
from vault.clock import format_time, parse_time
from vault.config import load_settings
from vault.layout import Vault

MINUTES_PER_MEMORY = 3  # the generator's spacing of `created`


def vault_now(memories: int, days_after: float) -> str:
    """The clock `days_after` the generated vault's last memory was written."""
    last = START + timedelta(minutes=memories * MINUTES_PER_MEMORY)
    return format_time(last + timedelta(days=days_after))


def briefing_probe(root: Path, now: str, project: str) -> dict[str, float]:
    """In a fresh process, as the hook runs it: the briefing's seconds and length."""
    code = (
        "import json,os,sys,time;from pathlib import Path;"
        "from hooks.claude_code.session import briefing;t=time.perf_counter();"
        "text=briefing(Path(sys.argv[1]),None,os.environ);"
        "print(json.dumps({'briefing_s':time.perf_counter()-t,'chars':len(text)}))"
    )
    env = {**os.environ, "VAULT_NOW": now, "VAULT_PROJECT_OVERRIDE": project}
    start = time.perf_counter()
    done = subprocess.run([sys.executable, "-c", code, str(root)], env=env,
                          capture_output=True, text=True, check=True)  # fmt: skip
    figures: dict[str, float] = json.loads(done.stdout.strip().splitlines()[-1])
    figures["process_s"] = time.perf_counter() - start
    return figures


class StageTimes:
    """Stages for prune and consolidation: each stage's progress on stderr (first
    step and each tenth, seconds since the stage began), and each stage's seconds
    (a stage ends when the next begins or at `end()`)."""

    def __init__(self) -> None:
        self.seconds: dict[str, float] = {}
        self._current: tuple[str, float] | None = None

    def __call__(self, label: str) -> Progress:
        self.end()
        print(f"  {label} ...", file=sys.stderr, flush=True)
        self._current = (label, time.perf_counter())
        return progress_printer(label)

    def end(self) -> None:
        if self._current is not None:
            label, started = self._current
            self.seconds[label] = round(time.perf_counter() - started, 1)
            self._current = None


def measure(root: Path, days_after: float, skip_prune: bool = False) -> dict[str, object]:
    vault = Vault(root)
    settings = load_settings(vault.config_path, {})
    index = VaultIndex(vault, settings, embedder=SyntheticEmbedder())
    memories = index.stats()["memories"]
    assert isinstance(memories, int)
    now = vault_now(memories, days_after)
    project = next(row.project for row in index.rows(archived=False))
    brief = briefing_probe(root, now, project)
    service = MemoryService(vault, settings, index=index, clock=lambda: parse_time(now))
    figures: dict[str, object] = {
        "memories": memories, "now": now,
        "briefing_s": round(brief["briefing_s"], 2),
        "briefing_process_s": round(brief["process_s"], 2), "briefing_chars": brief["chars"],
    }  # fmt: skip
    if not skip_prune:
        start = time.perf_counter()
        print("  prune: syncing, then archiving", file=sys.stderr, flush=True)
        stages = StageTimes()
        archived = service.prune(stages=stages)
        stages.end()
        figures.update(prune_s=round(time.perf_counter() - start, 1), pruned=len(archived),
                       prune_stages_s=stages.seconds)  # fmt: skip
    start = time.perf_counter()
    print("  consolidation: syncing, then planning", file=sys.stderr, flush=True)
    stages = StageTimes()
    run = consolidate(service, stages=stages)
    stages.end()
    consolidate_s = time.perf_counter() - start
    index.close()
    after_plan = sum(stages.seconds.get(label, 0.0) for label in ("Applying", "Indexing"))
    figures.update(
        consolidate_s=round(consolidate_s, 1),
        consolidate_plan_s=round(consolidate_s - after_plan, 1),
        consolidate_stages_s=stages.seconds, consolidation_counts=run.counts,
        load=os.getloadavg()[0],
    )  # fmt: skip
    return figures


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--vault", type=Path, required=True)
    parser.add_argument(
        "--days-after", type=float, default=30.0, help="the clock, days after the last memory"
    )
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.add_argument("--skip-prune", action="store_true", help="consolidate the whole vault")
    args = parser.parse_args()
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    if not (args.vault / "memories").is_dir():
        raise SystemExit(f"no generated vault at {args.vault}: build one with scale_bench --keep")
    figures = measure(args.vault, args.days_after, args.skip_prune)
    if args.json:
        print(json.dumps(figures))
        return
    for key, value in figures.items():
        print(f"{key:28} {value}")


if __name__ == "__main__":
    main()
