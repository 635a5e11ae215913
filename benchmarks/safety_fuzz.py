"""Fuzzed hook payloads across every event: invalid JSON, 5 MB prompts, wrong
types, transcript paths to /etc/passwd, a folder, a 200 MB file, invalid UTF-8,
truncated lines, over-long path parts. Each hook runs as Claude Code runs it (a
process, the payload on stdin) and must exit 0 within its event's timeout with
hook JSON or nothing on stdout; a snapshot of HOME, TMPDIR and the Claude
config folder (everything outside the vault) must not change."""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
import time
from collections import defaultdict
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from hooks.claude_code.install import EVENTS

BUDGETS = {name: float(timeout) for name, timeout in EVENTS.values()}
BUDGETS.update({"post-tool-use": 5.0, "unknown-event": 5.0})
NAMES = sorted(BUDGETS)
BIG_PROMPT = "x" * (5 * 1024 * 1024)


@dataclass
class FuzzPlace:
    """The folders a fuzz run uses: a HOME, a TMPDIR and a Claude config folder
    with a projects/ transcript, a truncated one, a 200 MB one and a folder."""

    root: Path
    vault_root: Path

    @property
    def home(self) -> Path:
        return self.root / "home"

    @property
    def tmpdir(self) -> Path:
        return self.root / "tmp"

    @property
    def claude(self) -> Path:
        return self.root / "claude"

    def environ(self) -> dict[str, str]:
        return {
            **os.environ,
            "HOME": str(self.home),
            "TMPDIR": str(self.tmpdir),
            "CLAUDE_CONFIG_DIR": str(self.claude),
            "VAULT_HOME": str(self.vault_root),
        }

    def create(self, transcript: Path) -> None:
        projects = self.claude / "projects" / "-work-api"
        for folder in (self.home, self.tmpdir, projects / "a-folder.jsonl"):
            folder.mkdir(parents=True, exist_ok=True)
        lines = transcript.read_text().splitlines()
        (projects / "good.jsonl").write_text("\n".join(lines) + "\n")
        (projects / "truncated.jsonl").write_text("\n".join(lines)[: len("".join(lines)) // 2])
        (projects / "bad-utf8.jsonl").write_bytes(b'{"type": "user", "message": "\xff\xfe\xc3"}\n')
        with (projects / "huge.jsonl").open("wb") as huge:
            huge.truncate(200 * 1024 * 1024)  # sparse: 200 MB of NUL bytes

    def transcripts(self) -> list[str]:
        projects = self.claude / "projects" / "-work-api"
        return [
            str(projects / name)
            for name in (
                "good.jsonl",
                "truncated.jsonl",
                "bad-utf8.jsonl",
                "huge.jsonl",
                "a-folder.jsonl",
            )
        ] + [
            "/etc/passwd",
            "/etc/shadow",
            "/proc/self/environ",
            "/dev/zero",
            "/",
            str(self.tmpdir),
            "relative/path.jsonl",
            "/tmp/" + "p" * 300 + ".jsonl",
        ]


WRONG = [None, 0, -1, 1.5, True, [], ["a"], {}, {"a": 1}, "", "\x00", "é" * 5000]


def payload(rng: random.Random, place: FuzzPlace, event: str) -> bytes:
    """One hostile stdin for `event`."""
    kind = rng.randrange(10)
    base: dict[str, Any] = {
        "session_id": f"fuzz-{rng.randrange(50)}",
        "cwd": str(place.root),
        "hook_event_name": event,
        "transcript_path": rng.choice(place.transcripts()),
        "prompt": "which bucket does the nightly export use?",
        "tool_name": "Bash",
        "tool_input": {"command": "ls"},
        "source": "startup",
    }
    if kind == 0:  # not JSON at all, or truncated JSON
        text = json.dumps(base)
        return rng.choice(
            [
                b"",
                b"{",
                b"null",
                b"[]",
                b'"s"',
                text[: rng.randrange(len(text))].encode(),
                bytes(rng.randrange(256) for _ in range(200)),
            ]
        )
    if kind == 1 and rng.random() < 0.3:  # a 5 MB prompt (kept rarer: it is slow to pipe)
        base["prompt"] = BIG_PROMPT
    elif kind == 2:  # wrong types everywhere
        for key in list(base):
            if rng.random() < 0.5:
                base[key] = rng.choice(WRONG)
    elif kind == 3:  # invalid UTF-8 inside otherwise valid JSON
        return json.dumps(base).replace("nightly", "\udcff").encode("utf-8", "surrogateescape")
    elif kind == 4:  # hostile working directories
        base["cwd"] = rng.choice(
            [
                "/",
                "/proc/self",
                "/etc/passwd",
                "",
                "/tmp/" + "c" * 300,
                "../../..",
                "\x00",
                str(place.home),
            ]
        )
    elif kind == 5:  # extra keys and deep nesting
        base["extra"] = {"a": [[[{"b": "c" * 1000}]]] * 50}
    return json.dumps(base).encode()


@dataclass
class FuzzResult:
    calls: int = 0
    failures: list[str] = field(default_factory=list)  # exit code, time or stdout wrong
    seconds: dict[str, list[float]] = field(default_factory=lambda: defaultdict(list))
    outside_changes: list[str] = field(default_factory=list)
    wall: float = 0.0

    def slowest(self) -> float:
        return max((max(v) for v in self.seconds.values() if v), default=0.0)


def snapshot(folders: list[Path]) -> dict[str, tuple[int, int]]:
    """(size, mtime) of every file and folder under `folders`."""
    seen = {}
    for folder in folders:
        for dirpath, names, files in os.walk(folder):
            for name in names + files:
                path = os.path.join(dirpath, name)
                try:
                    stat = os.lstat(path)
                except FileNotFoundError:
                    continue
                seen[path] = (stat.st_size, stat.st_mtime_ns)
    return seen


def run_one(event: str, data: bytes, environ: dict[str, str]) -> tuple[str, float, str | None]:
    began = time.monotonic()
    try:
        done = subprocess.run(
            [sys.executable, "-m", "hooks.claude_code.entry", event],
            input=data,
            capture_output=True,
            env=environ,
            timeout=BUDGETS[event] + 30,
        )
    except subprocess.TimeoutExpired:
        return event, time.monotonic() - began, "did not exit"
    took = time.monotonic() - began
    problem = None
    if done.returncode != 0:
        problem = f"exit {done.returncode}: {done.stderr[:200]!r}"
    elif took > BUDGETS[event]:
        problem = f"{took:.2f} s over the {BUDGETS[event]} s budget"
    elif done.stdout.strip():
        try:
            if not isinstance(json.loads(done.stdout), dict):
                problem = f"stdout is not a JSON object: {done.stdout[:100]!r}"
        except ValueError:
            problem = f"stdout is not JSON: {done.stdout[:100]!r}"
    return event, took, problem


def fuzz_hooks(place: FuzzPlace, calls: int, workers: int = 2, seed: int = 13) -> FuzzResult:
    """`calls` hook runs with hostile payloads, `workers` at a time."""
    rng, result = random.Random(seed), FuzzResult()
    watched = [place.home, place.tmpdir, place.claude]
    before = snapshot(watched)
    jobs = []
    for _ in range(calls):
        event = rng.choice(NAMES)
        jobs.append((event, payload(rng, place, event)))
    environ = place.environ()
    began = time.monotonic()
    with ThreadPoolExecutor(workers) as pool:
        for event, took, problem in pool.map(lambda job: run_one(*job, environ), jobs):
            result.calls += 1
            result.seconds[event].append(took)
            if problem is not None:
                result.failures.append(f"{event}: {problem}")
    result.wall = time.monotonic() - began
    after = snapshot(watched)
    result.outside_changes = sorted(
        path for path in set(before) | set(after) if before.get(path) != after.get(path)
    )
    return result
