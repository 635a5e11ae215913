"""Recall during `vault reindex --full`, with the daemon (it rebuilds and answers
between its steps) and without one (a reader process never waits for the
writer's lock). Real processes, real files, the real model.

    .venv/bin/python -m benchmarks.reindex_bench [--n 2000]

Prints recall latency while the rebuild runs, then checks what the rebuild left:
no process holds a deleted meta.sqlite, the next `vault reindex` has nothing to
do, and the catalog counted exactly one rebuild.
"""

from __future__ import annotations

import argparse
import os
import sqlite3
import subprocess
import sys
import tempfile
import textwrap
import time
from pathlib import Path

from benchmarks.index_bench import pct, texts, write_vault
from hooks.client import client
from hooks.client.control import stop
from memory.service import MemoryService
from vault.config import load_settings
from vault.layout import Vault

NOW = "2026-01-02T00:00:00Z"  # the memories were written the day before: all strong
QUERY = "which service retries with a retry budget since sprint 12?"
# A process with its own service, recalling in a loop until told to stop.
READER = textwrap.dedent(
    """
    import sys, time
    from pathlib import Path
    from memory.recall.ranking import RecallOptions
    from memory.service import MemoryService
    from vault.clock import fixed_clock, parse_time
    from vault.config import load_settings
    from vault.layout import Vault
    vault = Vault(Path(sys.argv[1]))
    clock = fixed_clock(parse_time(sys.argv[2]))
    service = MemoryService(vault, load_settings(vault.config_path, {}), clock=clock)
    service.recall(sys.argv[3], RecallOptions(reinforce=False))
    print("ready", flush=True)
    while not Path(sys.argv[4]).exists():
        start = time.time()
        found = service.recall(sys.argv[3], RecallOptions(reinforce=False))
        print(start, time.time() - start, len(found), flush=True)
    """
)


def vault_cli(root: Path, *args: str, wait: bool = True) -> subprocess.Popen[str]:
    process = subprocess.Popen(
        [sys.executable, "-m", "hooks.cli", "--vault", str(root), *args],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
    )  # fmt: skip
    if wait:
        process.wait()
    return process


def report(label: str, latencies: list[float], empty: int) -> None:
    if not latencies:
        print(f"{label}: no recall ran during the rebuild")
        return
    slow = sum(1 for value in latencies if value > 5)
    print(f"{label}: {len(latencies)} recalls during the rebuild, p50 "
          f"{pct(latencies, 0.5) * 1000:.0f} ms, p95 {pct(latencies, 0.95) * 1000:.0f} ms, "
          f"max {max(latencies):.2f} s, {slow} over 5 s, {empty} empty")  # fmt: skip


def aftermath(vault: Vault, pid: int | None) -> None:
    deleted = []
    if pid is not None:
        for fd in Path(f"/proc/{pid}/fd").iterdir():
            try:
                target = os.readlink(fd)
            except FileNotFoundError:
                continue
            deleted += [target] if "meta.sqlite" in target and "(deleted)" in target else []
        stop(vault)
    out, _ = vault_cli(vault.root, "reindex").communicate()
    db = sqlite3.connect(f"file:{vault.index_dir / 'meta.sqlite'}?mode=ro", uri=True)
    rebuilds = db.execute("SELECT value FROM meta WHERE key = 'rebuilds'").fetchone()
    db.close()
    print(f"  afterwards: {len(deleted)} deleted meta.sqlite files held open; next run "
          f"{out.strip()!r}; rebuilds counted: {rebuilds[0] if rebuilds else 0}")  # fmt: skip


def with_daemon(vault: Vault) -> None:
    daemon = vault_cli(vault.root, "serve", wait=False)
    answer = client.wait_until_up(vault.root, 600)
    assert answer is not None, "the daemon did not start"
    rebuild = vault_cli(vault.root, "reindex", "--full", wait=False)
    latencies, empty = [], 0
    args = {"query": QUERY, "reinforce": False, "now": NOW}
    while rebuild.poll() is None:
        start = time.monotonic()
        empty += not client.request(vault.root, "recall", args, timeout=600)
        latencies.append(time.monotonic() - start)
    report("with the daemon", latencies, empty)
    aftermath(vault, int(answer["pid"]))
    daemon.wait(timeout=60)


def without_daemon(vault: Vault, workdir: Path) -> None:
    done = workdir / "stop-reader"
    reader = subprocess.Popen(
        [sys.executable, "-c", READER, str(vault.root), NOW, QUERY, str(done)],
        stdout=subprocess.PIPE, text=True,
    )  # fmt: skip
    assert reader.stdout is not None
    assert reader.stdout.readline().strip() == "ready"
    started = time.time()
    vault_cli(vault.root, "reindex", "--full")
    ended = time.time()
    done.touch()
    out, _ = reader.communicate(timeout=600)
    rows = [line.split() for line in out.splitlines()]
    during = [(float(t), int(n)) for s, t, n in rows if started <= float(s) <= ended]
    report("without a daemon", [t for t, _ in during], sum(1 for _, n in during if n == 0))
    aftermath(vault, None)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--n", type=int, default=2000)
    args = parser.parse_args()
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    with tempfile.TemporaryDirectory() as tmp:
        workdir = Path(tmp)
        vault = write_vault(workdir / "v", texts(args.n))
        service = MemoryService(vault, load_settings(vault.config_path, {}))
        service.sync()  # indexed, filed and linked: the steady state a rebuild starts from
        service.index.close()
        without_daemon(vault, workdir)
        with_daemon(vault)


if __name__ == "__main__":
    main()
