"""The data-safety suite at full size, with real processes (CLI runs, the real
daemon, real hook processes), printing each figure next to the bar the issue's
black-box probe set:

    nice .venv/bin/python -m benchmarks.safety_bench [--only writers,kills,reindex,fuzz]

writers: 16 processes x 200 `vault reinforce` on shared memories, the daemon up,
down, and stopped and started during the run; kills: 1,000 SIGKILLs of jot,
confirm, capture, a full reindex and the daemon; reindex: `vault reindex --full`
during 8 readers and 4 writers; fuzz: 10,000 hostile hook payloads."""

from __future__ import annotations

import argparse
import os
import tempfile
import time
from pathlib import Path

from benchmarks.safety_checks import stop_daemon
from benchmarks.safety_fuzz import FuzzPlace, fuzz_hooks
from benchmarks.safety_kills import TRANSCRIPT, kill_rounds
from benchmarks.safety_writers import reindex_under_load, reinforcers, write_memories
from memory.service import MemoryService
from vault.config import load_settings
from vault.layout import Vault


def indexed_vault(root: Path, count: int, embedder: object) -> Vault:
    """A vault of `count` memories, indexed with the daemon's encoder, links off."""
    from indexer.index import VaultIndex

    vault = Vault(root)
    MemoryService.init_vault(vault)
    vault.config_path.write_text("[association]\nlinks_max = 2\n")
    write_memories(vault, count)
    settings = load_settings(vault.config_path, {})
    index = VaultIndex(vault, settings, embedder=embedder)  # type: ignore[arg-type]
    service = MemoryService(vault, settings, index=index)
    service.on_files_changed()
    index.close()
    return vault


def writers_section(work: Path, embedder: object, args: argparse.Namespace) -> None:
    print(f"\n## {args.writers} writers x {args.each} reinforcements of {args.targets} memories")
    for mode in args.modes.split(","):
        vault = indexed_vault(work / f"writers-{mode}", args.targets, embedder)
        r = reinforcers(vault, args.writers, args.each, mode, args.period)
        print(
            f"daemon {mode}: {r.succeeded} reinforcements counted by their writers, "
            f"{r.lost} lost, {r.extra} done but reported failed, {r.failed} failed, "
            f"{r.toggles} daemon starts+stops; failures said {r.errors}; files: {r.health}; "
            f"{r.seconds:.0f} s ({r.succeeded / max(r.seconds, 1e-9):.1f}/s)"
        )
    print("bar: 16 writers, 5,200 operations, daemon up and down: nothing lost")


def kills_section(work: Path, embedder: object, args: argparse.Namespace) -> None:
    print(f"\n## {args.kills} SIGKILLs ({args.daemon_share:.0%} of them the daemon)")
    vault = indexed_vault(work / "kills", 60, embedder)
    r = kill_rounds(vault, args.kills, args.daemon_share, seed=args.seed)
    print(f"kills: {dict(r.kills)} in {r.seconds:.0f} s")
    print(
        f"partial or corrupt Markdown files seen after any kill: {len(r.unparsable)} "
        f"{sorted(r.unparsable)[:3]}; duplicate ids: {len(r.duplicates)}"
    )
    print(
        f"temp files left by the kills: {r.temp_before_start}; after the next start: "
        f"{r.temp_after_start}"
    )
    print(
        f"`vault reindex --check` after the next command: "
        f"{'healthy' if r.index_ok else 'NOT healthy'} ({r.index_check.splitlines()[0]})"
    )
    print(f"next prompt hook: {'answered' if r.hook_ok else 'FAILED'} in {r.hook_seconds:.2f} s")
    print("bar: 107 writers killed with SIGKILL mid-write left no partial file")


def reindex_section(work: Path, embedder: object, args: argparse.Namespace) -> None:
    print(f"\n## `vault reindex --full` during {args.readers} readers and 4 writers")
    for daemon in (True, False):
        vault = indexed_vault(work / f"reindex-{daemon}", args.reindex_memories, embedder)
        r = reindex_under_load(vault, embedder, args.readers, 4, args.jots, daemon)
        print(
            f"daemon {'up' if daemon else 'down'}: {r.rebuilt!r}; {r.reads} recalls and "
            f"{r.writes} jots during it, {r.failed} failed; {r.memories - len(r.not_found)}"
            f"/{r.memories} memories found first by their exact text; next process: "
            f"{r.next_run!r}; rebuilds counted: {r.rebuilds}; files clean: {r.clean}"
        )


def fuzz_section(work: Path, embedder: object, args: argparse.Namespace) -> None:
    print(f"\n## {args.fuzz} fuzzed hook payloads")
    vault = indexed_vault(work / "fuzz" / "vault", 30, embedder)
    place = FuzzPlace(work / "fuzz", vault.root)
    place.create(TRANSCRIPT)
    r = fuzz_hooks(place, args.fuzz, seed=args.seed)
    stop_daemon(vault.root, None)  # capture hooks may have started one
    print(
        f"{r.calls} hook runs in {r.wall:.0f} s: {len(r.failures)} failures "
        f"{r.failures[:5]}; slowest {r.slowest():.2f} s"
    )
    for event, seconds in sorted(r.seconds.items()):
        ordered = sorted(seconds)
        print(
            f"  {event}: {len(seconds)} runs, p50 {ordered[len(ordered) // 2]:.2f} s, "
            f"max {ordered[-1]:.2f} s"
        )
    print(
        f"files changed outside the vault (HOME, TMPDIR, Claude's folder): "
        f"{len(r.outside_changes)} {r.outside_changes[:5]}"
    )
    print("bar: 10,000 fuzzed hook payloads all exited 0 within 0.58 s")


SECTIONS = {
    "writers": writers_section,
    "kills": kills_section,
    "reindex": reindex_section,
    "fuzz": fuzz_section,
}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--only", default=",".join(SECTIONS))
    parser.add_argument("--writers", type=int, default=16)
    parser.add_argument("--each", type=int, default=200)
    parser.add_argument("--targets", type=int, default=8)
    parser.add_argument("--modes", default="toggle,up,down")
    parser.add_argument("--period", type=float, default=8.0, help="seconds the daemon stays up")
    parser.add_argument("--kills", type=int, default=1000)
    parser.add_argument("--daemon-share", type=float, default=0.05)
    parser.add_argument("--readers", type=int, default=8)
    parser.add_argument("--jots", type=int, default=10)
    parser.add_argument("--reindex-memories", type=int, default=500)
    parser.add_argument("--fuzz", type=int, default=10000)
    parser.add_argument("--seed", type=int, default=13, help="for the kills' and fuzz's choices")
    args = parser.parse_args()
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    from indexer.embedder import bundled_encoder

    embedder = bundled_encoder(threads=1)  # no thread pool: children fork
    with tempfile.TemporaryDirectory(prefix="safety-bench-") as tmp:
        for name in args.only.split(","):
            began = time.monotonic()
            SECTIONS[name](Path(tmp), embedder, args)
            print(f"({name}: {time.monotonic() - began:.0f} s)", flush=True)


if __name__ == "__main__":
    main()
