"""Writers at once: processes reinforcing the same memories through `vault
reinforce` with the daemon up, down, or stopped and started during the run
(no update lost, no file broken or doubled), and `vault reindex --full` while
readers recall and writers jot (every memory findable after, nothing rebuilds)."""

from __future__ import annotations

import json
import sqlite3
import subprocess
import sys
import textwrap
import threading
import time
from dataclasses import dataclass
from pathlib import Path

from benchmarks.safety_checks import inspect, recalls, start_daemon, stop_daemon, vault_cli
from vault import frontmatter
from vault.layout import Vault

SERVICES = "billing search email export import audit payroll reports alerts backups".split()
# One process per writer; each `vault` command runs in it through click (the
# interpreter and any model load once). It prints how many of its calls succeeded.
REINFORCER = textwrap.dedent(
    """
    import json, sys
    from hooks.cli.main import main
    vault, ids, count, offset = sys.argv[1], sys.argv[2].split(","), *map(int, sys.argv[3:5])
    done, failed, errors = {}, 0, []
    for i in range(count):
        memory_id = ids[(i + offset) % len(ids)]
        try:
            main(["--vault", vault, "reinforce", memory_id], standalone_mode=False)
        except BaseException as exc:
            failed += 1
            errors.append(repr(exc)[:200])
            continue
        done[memory_id] = done.get(memory_id, 0) + 1
    print(json.dumps({"done": done, "failed": failed, "errors": errors[:3]}))
    """
)


def write_memories(vault: Vault, count: int, prefix: str = "runbook") -> list[str]:
    """Files as a person would drop them in; returns their ids."""
    ids = []
    for i in range(count):
        name, memory_id = SERVICES[i % len(SERVICES)], f"{prefix}-{i:04d}"
        meta = {"id": memory_id, "created": "2026-01-01T09:00:00Z", "tier": "episodic"}
        body = f"Runbook {i}: when the {name} queue stalls past {i} jobs, restart worker {i}.\n"
        (vault.memories_dir / f"{memory_id}.md").write_text(frontmatter.render(meta, body))
        ids.append(memory_id)
    return ids


@dataclass
class WritersResult:
    succeeded: int
    failed: int
    errors: list[str]  # what the failed calls said (a few)
    lost: int  # successful reinforcements the files do not count
    extra: int  # counted but reported failed (the daemon stopped after doing it)
    toggles: int
    health: str
    clean: bool
    seconds: float


class DaemonToggler:
    """Starts and stops the vault's daemon in turns in a thread until finished."""

    def __init__(self, root: Path, period: float) -> None:
        self.root, self.period, self.toggles = root, period, 0
        self._finished = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)
        self._thread.start()

    def _run(self) -> None:
        while not self._finished.is_set():
            process = start_daemon(self.root)
            self._finished.wait(self.period)
            stop_daemon(self.root, process)
            self.toggles += 2
            self._finished.wait(self.period / 2)

    def finish(self) -> int:
        self._finished.set()
        self._thread.join(timeout=600)
        return self.toggles


def reinforcers(vault: Vault, writers: int, each: int, mode: str, period: float) -> WritersResult:
    """`writers` processes x `each` reinforcements over a few shared memories;
    mode: "up", "down" or "toggle" (the daemon stopped and started in turns)."""
    ids = list(recalls(vault))
    before = recalls(vault)
    daemon = start_daemon(vault.root) if mode == "up" else None
    toggler = DaemonToggler(vault.root, period) if mode == "toggle" else None
    started = time.monotonic()
    workers = [
        subprocess.Popen(
            [sys.executable, "-c", REINFORCER, str(vault.root), ",".join(ids), str(each), str(n)],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        for n in range(writers)
    ]
    done: dict[str, int] = {}
    failed, errors = 0, []
    for worker in workers:
        out, _ = worker.communicate(timeout=3600)
        report = json.loads(out.strip().splitlines()[-1])
        failed += report["failed"]
        errors += report["errors"]
        for memory_id, count in report["done"].items():
            done[memory_id] = done.get(memory_id, 0) + count
    seconds = time.monotonic() - started
    toggles = toggler.finish() if toggler is not None else 0
    stop_daemon(vault.root, daemon)
    after = recalls(vault)
    counted = {i: after[i] - before[i] for i in ids}
    lost = sum(max(0, done.get(i, 0) - counted[i]) for i in ids)
    extra = sum(max(0, counted[i] - done.get(i, 0)) for i in ids)
    health = inspect(vault)
    clean = health.clean and health.files == len(ids)
    return WritersResult(
        sum(done.values()),
        failed,
        errors[:5],
        lost,
        extra,
        toggles,
        health.summary(),
        clean,
        seconds,
    )


def catalog_meta(vault: Vault, key: str) -> str | None:
    db = sqlite3.connect(f"file:{vault.index_dir / 'meta.sqlite'}?mode=ro", uri=True)
    try:
        row = db.execute("SELECT value FROM meta WHERE key = ?", (key,)).fetchone()
    finally:
        db.close()
    return None if row is None else str(row[0])


# Readers recall until a stop file appears; writers jot their texts once each.
LOADER = textwrap.dedent(
    """
    import sys
    from pathlib import Path
    from hooks.cli.main import main
    vault, role, number, count, stop = sys.argv[1:6]
    failed = calls = 0
    def run(*args):
        global failed, calls
        calls += 1
        try:
            main(["--vault", vault, *args], standalone_mode=False)
        except BaseException as exc:
            failed += 1
            print(repr(exc)[:300], file=sys.stderr)
    if role == "writer":
        for i in range(int(count)):
            run("jot", f"Writer {number} note {i}: the {number}x{i} report ships on day {i}.")
    else:
        while not Path(stop).exists():
            run("recall", "when does the report ship?", "--json", "--no-reinforce")
    print(calls, failed)
    """
)


@dataclass
class ReindexResult:
    rebuilt: str
    reads: int
    writes: int
    failed: int
    memories: int
    not_found: list[str]
    next_run: str
    rebuilds: str | None
    clean: bool


def reindex_under_load(
    vault: Vault, embedder: object, readers: int, writers: int, jots: int, daemon: bool
) -> ReindexResult:
    """`vault reindex --full` while `readers` recall and `writers` jot, then every
    memory searched by its exact text, and the next process's `vault reindex`."""
    from indexer.index import VaultIndex
    from vault.config import load_settings

    process = start_daemon(vault.root) if daemon else None
    stop_file = vault.root.parent / "stop-readers"
    stop_file.unlink(missing_ok=True)
    loaders = [
        subprocess.Popen(
            [
                sys.executable,
                "-c",
                LOADER,
                str(vault.root),
                role,
                str(n),
                str(jots),
                str(stop_file),
            ],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        for role, count in (("writer", writers), ("reader", readers))
        for n in range(count)
    ]
    try:
        rebuilt = vault_cli(vault.root, "reindex", "--full")
        for loader in loaders[:writers]:
            loader.wait(timeout=3600)
        stop_file.touch()
        # the last line: calls and failures (jot prints ids before it)
        calls = [
            tuple(map(int, p.communicate(timeout=600)[0].splitlines()[-1].split())) for p in loaders
        ]
    finally:
        stop_file.touch()
        for loader in loaders:
            if loader.poll() is None:  # only after a failure above
                loader.kill()
                loader.communicate()
        stop_daemon(vault.root, process)
    next_run = vault_cli(vault.root, "reindex")
    index = VaultIndex(vault, load_settings(vault.config_path, {}), embedder=embedder)  # type: ignore[arg-type]
    not_found = []
    paths = sorted(vault.memories_dir.glob("*.md"))
    for path in paths:
        text = frontmatter.parse(path.read_text()).body.strip()
        hits = index.search(text, k=1)
        if not hits or hits[0].row.id != path.stem:
            not_found.append(path.stem)
    index.close()
    writes = sum(c for c, _ in calls[:writers])
    return ReindexResult(
        rebuilt=(rebuilt.stdout + rebuilt.stderr).strip().splitlines()[-1],
        reads=sum(c for c, _ in calls[writers:]),
        writes=writes,
        failed=sum(f for _, f in calls),
        memories=len(paths),
        not_found=not_found,
        next_run=(next_run.stdout + next_run.stderr).strip(),
        rebuilds=catalog_meta(vault, "rebuilds"),
        clean=inspect(vault).clean,
    )
