"""Git sync benchmark: two clones of one vault (a bare remote in a temp
folder), N memories, then C changes on each side (reinforcements, some of the
same memories on both sides, and new memories), synced both ways; and the
index of the receiving side catching up.

    .venv/bin/python -m benchmarks.sync_bench [--n 10000] [--changes 100] [--overlap 10]
        [--transfer]

Prints seconds per step; asserts only that no conflict was left. Real git, our
merge driver (run by git as `vault merge-driver`), the real model. With
--transfer, also `vault export --jsonl` of the first clone and its import into
an empty vault, twice (the second run skips everything).
"""

from __future__ import annotations

import argparse
import subprocess
import tempfile
import time
from collections.abc import Callable
from datetime import datetime, timedelta
from pathlib import Path
from typing import TypeVar

from benchmarks.index_bench import texts, write_vault
from hooks.daemon.auto_sync import driver_command
from indexer.embedder import SentenceTransformerEmbedder
from indexer.index import VaultIndex
from memory.config import MemoryConfig
from memory.importers.core import Importer
from memory.importers.jsonl import export_lines, read_lines
from vault import frontmatter, git_sync
from vault.clock import format_time, parse_time, utc_now
from vault.config import load_settings
from vault.layout import Vault
from vault.store import MemoryStore

T = TypeVar("T")
LATER = parse_time("2026-01-10T00:00:00Z")


def timed(label: str, work: Callable[[], T]) -> T:
    start = time.perf_counter()
    result = work()
    print(f"{label:58} {time.perf_counter() - start:8.2f} s", flush=True)
    return result


def change(vault: Vault, reinforce: range, new: int, tag: str, moment: datetime) -> None:
    """Reinforce the memories in `reinforce` (frontmatter only) and add `new` memories.
    Each side at its own moment: byte-identical edits on both sides would be
    merged by git itself, without our driver (and counted once)."""
    store = MemoryStore(vault)
    for number in reinforce:
        store.update(
            f"m{number:06d}",
            lambda r: {
                "recalls": r.recalls + 1,
                "stability": (r.stability or 7.0) * 1.5,
                "last_access": moment,
            },  # fmt: skip
        )
    created = format_time(moment)
    for number, body in enumerate(texts(new, seed=hash(tag) % 1000)):
        memory_id = f"{tag}{number:05d}"
        meta = {"id": memory_id, "created": created, "last_access": created,
                "stability": 7.0, "tier": "episodic", "recalls": 0}  # fmt: skip
        text = f"{body} Added on the {tag}."
        (vault.memories_dir / f"{memory_id}.md").write_text(frontmatter.render(meta, text + "\n"))


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--n", type=int, default=10000)
    parser.add_argument("--changes", type=int, default=100)
    parser.add_argument("--overlap", type=int, default=10, help="memories reinforced on both")
    parser.add_argument("--transfer", action="store_true", help="also time export and import")
    args = parser.parse_args()
    reinforced = args.changes * 7 // 10
    new = args.changes - reinforced
    embedder = SentenceTransformerEmbedder()
    embedder.encode(["warm up"])
    settings = load_settings(None, {})
    with tempfile.TemporaryDirectory(prefix="sync-bench-") as folder:
        work = Path(folder)
        remote = work / "remote.git"
        subprocess.run(["git", "init", "--quiet", "--bare", str(remote)], check=True)
        laptop = write_vault(work / "laptop", texts(args.n))
        desktop = Vault(work / "desktop")
        desktop.create_folders()
        driver = driver_command()
        print(f"{args.n} memories; {args.changes} changes per side ({reinforced} reinforced, "
              f"{new} new; {args.overlap} reinforced on both sides)")  # fmt: skip
        timed("laptop: sync init (first commit and push)",
              lambda: git_sync.init(laptop, str(remote), driver, "laptop"))  # fmt: skip
        timed("desktop: sync init (takes in the remote)",
              lambda: git_sync.init(desktop, str(remote), driver, "desktop"))  # fmt: skip
        index = VaultIndex(desktop, settings, embedder=embedder)
        timed(f"desktop: index {args.n} memories from scratch", index.sync)
        change(laptop, range(0, reinforced), new, "laptop", LATER)
        start = reinforced - args.overlap
        change(
            desktop, range(start, start + reinforced), new, "desktop", LATER + timedelta(hours=1)
        )
        timed("laptop: vault sync (commit, push)",
              lambda: git_sync.sync(laptop, driver, "laptop"))  # fmt: skip
        result = timed("desktop: vault sync (commit, pull --rebase, merge, push)",
                       lambda: git_sync.sync(desktop, driver, "desktop"))  # fmt: skip
        back = timed("laptop: vault sync (pull)", lambda: git_sync.sync(laptop, driver, "laptop"))
        report = timed("desktop: index catches up after the pull", index.sync)
        print(f"  desktop received {len(result.pulled)} files; index: {report.summary()}")
        print(f"  laptop received {len(back.pulled)} files")
        merged = MemoryStore(laptop).read(f"m{reinforced - 1:06d}")
        print(f"  a memory reinforced on both sides: recalls {merged.recalls} (1 + 1)")
        assert result.conflicts == [], "a conflict was left"
        assert back.conflicts == [], "a conflict was left"
        index.close()
        if args.transfer:
            transfer(laptop, work / "imported")


def transfer(source: Vault, target_root: Path) -> None:
    """Export every memory as JSONL, import it into an empty vault, then again."""
    lines = timed("export --jsonl of the first clone", lambda: list(export_lines(source)))
    items, errors = read_lines("\n".join(lines))
    assert errors == []
    target = Vault(target_root)
    target.create_folders()
    importer = Importer(target, MemoryConfig.default(), utc_now)
    first = timed(f"import of {len(items)} lines into an empty vault", lambda: importer.run(items))
    again = timed("the same import again (all skipped)", lambda: importer.run(items))
    print(f"  first: {first.summary()}; again: {again.summary()}")


if __name__ == "__main__":
    main()
