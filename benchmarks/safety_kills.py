"""SIGKILL at random moments of jot, confirm, capture, a full reindex and the
daemon's own work, then the next start: no partial or corrupt Markdown file at
any point, no temp file of ours left after the next start, `vault reindex
--check` healthy after the next command, and the next prompt hook answers.

The workers are forked from this process after it loaded the numpy encoder (the
daemon's), so a kill lands in the work rather than in Python's start; each runs
the daemon's operations (hooks.ops.table) on its own service, in a loop."""

from __future__ import annotations

import json
import os
import random
import shutil
import signal
import subprocess
import sys
import threading
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from benchmarks.safety_checks import (
    index_healthy,
    inspect,
    start_daemon,
    stop_daemon,
    vault_cli,
)
from hooks.client import client
from vault.layout import Vault

TRANSCRIPT = Path(__file__).parents[1] / "tests" / "fixtures" / "transcript_sample.jsonl"
TARGETS = ("jot", "confirm", "capture", "reindex")
MAX_DELAY = {"jot": 1.0, "confirm": 0.6, "capture": 2.0, "reindex": 3.0, "daemon": 3.0}


@dataclass
class KillResult:
    kills: Counter[str] = field(default_factory=Counter)
    unparsable: set[str] = field(default_factory=set)
    duplicates: set[str] = field(default_factory=set)
    temp_before_start: int = 0
    temp_after_start: int = 0
    index_check: str = ""
    index_ok: bool = False
    hook: str = ""
    hook_ok: bool = False
    hook_seconds: float = 0.0
    seconds: float = 0.0

    @property
    def clean(self) -> bool:
        return (
            not self.unparsable
            and not self.duplicates
            and self.temp_after_start == 0
            and self.index_ok
            and self.hook_ok
        )


def allow_transcripts(vault: Vault) -> Path:
    folder = vault.root.parent / "transcripts"
    folder.mkdir(exist_ok=True)
    with vault.config_path.open("a") as config:
        config.write(f"[capture]\ntranscripts_allowed = [{str(folder)!r}]\n")
    return folder


def _work(vault: Vault, target: str, round_no: int, embedder: Any, folder: Path) -> None:
    """The forked worker: the operation over and over until it is killed."""
    from hooks.ops.table import dispatch
    from indexer.index import VaultIndex
    from memory.service import MemoryService
    from vault.config import load_settings

    settings = load_settings(vault.config_path, {})
    index = VaultIndex(vault, settings, embedder=embedder)
    service = MemoryService(vault, settings, index=index)
    ids = sorted(p.stem for p in vault.memories_dir.glob("*.md"))
    for step in range(10**6):
        tag = f"{round_no}-{step}"
        if target == "jot":
            text = f"Kill round {tag}: the nightly {tag} export writes to bucket {round_no % 7}."
            dispatch(service, "jot", {"text": text})
        elif target == "confirm":
            dispatch(service, "confirm", {"id": ids[(round_no + step) % len(ids)]})
        elif target == "capture":
            transcript = folder / f"session-{tag}.jsonl"
            shutil.copyfile(TRANSCRIPT, transcript)
            dispatch(
                service,
                "capture",
                {"transcript": str(transcript), "wait": True, "session": f"s-{tag}"},
            )
        else:
            dispatch(service, "reindex", {"full": True})


def kill_a_worker(vault: Vault, target: str, round_no: int, embedder: Any, folder: Path) -> None:
    pid = os.fork()
    if pid == 0:  # the child: never returns into the benchmark
        code = 0
        try:
            _work(vault, target, round_no, embedder, folder)
        except BaseException:
            code = 1
        os._exit(code)
    time.sleep(random.uniform(0.0, MAX_DELAY[target]))
    os.kill(pid, signal.SIGKILL)
    os.waitpid(pid, 0)


def kill_the_daemon(vault: Vault, round_no: int) -> None:
    """The real daemon, given jots and a rebuild, killed at a random moment."""
    process = start_daemon(vault.root)
    stop = threading.Event()

    def feed() -> None:
        for step in range(10**6):
            if stop.is_set():
                return
            op, args = (
                ("reindex", {"full": True})
                if step % 5 == 4
                else (
                    "jot",
                    {"text": f"Daemon round {round_no}-{step}: alerts page the on-call {step}."},
                )
            )
            try:
                client.request(vault.root, op, args, timeout=60)
            except (client.DaemonUnavailable, client.DaemonError, client.DaemonSlow, OSError):
                return

    feeder = threading.Thread(target=feed, daemon=True)
    feeder.start()
    time.sleep(random.uniform(0.0, MAX_DELAY["daemon"]))
    process.send_signal(signal.SIGKILL)
    process.wait(timeout=60)
    stop.set()
    feeder.join(timeout=120)


def after_the_kills(vault: Vault, result: KillResult) -> None:
    """The next start, the next command, the index check and the next hook."""
    result.temp_before_start = len(inspect(vault).temp_files)
    started = vault_cli(vault.root, "status")  # the next start cleans up
    result.temp_after_start = len(inspect(vault).temp_files) + (started.returncode != 0)
    vault_cli(vault.root, "reindex")  # the next command
    result.index_ok, result.index_check = index_healthy(vault.root)
    payload = {
        "prompt": "which bucket does the nightly export write to?",
        "session_id": "k",
        "cwd": str(vault.root.parent),
        "hook_event_name": "UserPromptSubmit",
    }
    began = time.monotonic()
    hook = subprocess.run(
        [sys.executable, "-m", "hooks.claude_code.entry", "user-prompt-submit"],
        input=json.dumps(payload),
        capture_output=True,
        text=True,
        timeout=60,
        env={**os.environ, "VAULT_HOME": str(vault.root)},
    )
    result.hook_seconds = time.monotonic() - began
    result.hook = hook.stdout[:200] + hook.stderr[:200]
    try:
        answered = bool(hook.stdout.strip()) and isinstance(json.loads(hook.stdout), dict)
    except ValueError:
        answered = False
    result.hook_ok = hook.returncode == 0 and answered and result.hook_seconds < 20


def kill_rounds(vault: Vault, kills: int, daemon_share: float, seed: int = 13) -> KillResult:
    """`kills` SIGKILLs: a `daemon_share` of them to the daemon, the rest spread
    over jot, confirm, capture and reindex; every file checked after each."""
    from indexer.embedder import bundled_encoder

    random.seed(seed)
    embedder = bundled_encoder(threads=1)  # no thread pool: children fork
    embedder.encode(["warm up"])  # the weights load before the forks
    folder = allow_transcripts(vault)
    result, began = KillResult(), time.monotonic()
    daemon_kills = round(kills * daemon_share)
    plan = ["daemon"] * daemon_kills + [TARGETS[i % 4] for i in range(kills - daemon_kills)]
    random.shuffle(plan)
    for round_no, target in enumerate(plan):
        if target == "daemon":
            kill_the_daemon(vault, round_no)
        else:
            kill_a_worker(vault, target, round_no, embedder, folder)
        result.kills[target] += 1
        health = inspect(vault, temp_files_count=False)
        result.unparsable.update(health.unparsable)
        result.duplicates.update(health.duplicate_ids)
        if (round_no + 1) % 100 == 0:
            print(f"  {round_no + 1} kills, {time.monotonic() - began:.0f} s", flush=True)
    client.starting_path_clear(vault.root)
    try:
        after_the_kills(vault, result)
    finally:
        stop_daemon(vault.root, None)  # the prompt hook may have started one
    result.seconds = time.monotonic() - began
    return result
