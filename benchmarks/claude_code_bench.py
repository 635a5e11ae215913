"""Claude Code benchmark: the first prompt of a cold session, the warm prompt hook,
the daemon's start and RSS, and what memory-vault adds to a real `claude -p`.

    .venv/bin/python -m benchmarks.claude_code_bench [--rounds 10] [--filler 999]

Hook figures are whole-process wall times of `vault-hook EVENT` fed the event on
stdin, as Claude Code runs it. "Cold": no daemon; SessionStart's hook runs and the
prompt's hook starts the moment it exits (Claude Code itself leaves ~0.1-3 s
between them). A prompt counts as answered with semantic recall when its output
holds the story's memory: the question shares no keyword with it. The `claude -p`
figures run the pinned CLI (.tools/) offline against the tests' Messages API
stand-in (tests/claude_code/stub_api.py); they are skipped without the CLI.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import statistics
import subprocess
import tempfile
import time
from pathlib import Path

from benchmarks.hook_bench import RandomEmbedder
from benchmarks.index_bench import pct, texts, write_vault
from hooks.client import client
from hooks.client.control import stop
from indexer.embedder import serving_embedder
from indexer.index import VaultIndex
from memory.service import MemoryService
from tests.claude_code.machine import CLAUDE, VENV_BIN, Machine, new_machine
from tests.claude_code.story import DAY1, DAY19, HEDGED, QUESTION, STORY
from tests.claude_code.stub_api import StubApi
from vault.clock import fixed_clock, parse_time
from vault.config import load_settings
from vault.layout import Vault

HOOK = str(VENV_BIN / "vault-hook")


def story_vault(root: Path, filler: int) -> tuple[Vault, str]:
    """The day-1 story memory among `filler` generated ones, indexed."""
    vault = write_vault(root, texts(filler, seed=11))
    settings = load_settings(None, {})
    service = MemoryService(
        vault, settings, index=VaultIndex(vault, settings, serving_embedder(""))
    )
    service.sync()
    story = service.at(fixed_clock(parse_time(DAY1))).jot(STORY, kind="preference")
    service.index.close()
    return vault, story.id


def hook(root: Path, event: str, payload: dict[str, object], now: str) -> tuple[float, str]:
    env = {**os.environ, "VAULT_HOME": str(root), "VAULT_NOW": now}
    started = time.perf_counter()
    result = subprocess.run([HOOK, event], input=json.dumps(payload), capture_output=True,
                            text=True, env=env, timeout=120)  # fmt: skip
    return (time.perf_counter() - started) * 1000, result.stdout


def prompt_event(session: str) -> dict[str, object]:
    return {"session_id": session, "cwd": "/nowhere", "hook_event_name": "UserPromptSubmit",
            "prompt": QUESTION}  # fmt: skip


def start_event(session: str) -> dict[str, object]:
    return {"session_id": session, "cwd": "/nowhere", "hook_event_name": "SessionStart",
            "source": "startup", "transcript_path": "/nowhere.jsonl"}  # fmt: skip


def line(label: str, times: list[float], unit: str = "ms") -> float:
    p50 = statistics.median(times)
    print(f"{label}: p50 {p50:.0f} {unit}, p95 {pct(times, 0.95):.0f} {unit} ({len(times)} runs)")
    return p50


def cold_down(root: Path) -> None:
    stop(Vault(root))
    client.starting_path_clear(root)


def bench_ready(root: Path, rounds: int) -> None:
    outside, inside = [], []
    for _ in range(rounds):
        cold_down(root)
        started = time.perf_counter()
        client.spawn(root, os.environ)
        answer = client.wait_until_up(root, 180)
        assert answer is not None
        outside.append(time.perf_counter() - started)
        inside.append(float(answer["ready_seconds"]))
    line("daemon ready to answer, from spawn", [t * 1000 for t in outside])
    line("  of which inside the daemon (warm-up after its imports)", [t * 1000 for t in inside])


def bench_cold_prompt(root: Path, story_id: str, rounds: int, with_start: bool) -> None:
    times, starts, semantic = [], [], 0
    for number in range(rounds):
        cold_down(root)
        session = f"cold-{with_start}-{number}"
        if with_start:
            starts.append(hook(root, "session-start", start_event(session), DAY19)[0])
        took, output = hook(root, "user-prompt-submit", prompt_event(session), DAY19)
        times.append(took)
        semantic += story_id in output
    name = "SessionStart, then the prompt at once" if with_start else "no SessionStart"
    if starts:
        line("  SessionStart hook (spawns the daemon)", starts)
    line(f"first prompt of a cold session ({name}): prompt hook", times)
    print(f"  answered with semantic recall: {semantic}/{rounds}")


def bench_warm(root: Path, rounds: int) -> None:
    assert client.wait_until_up(root, 180) is not None
    hook(root, "user-prompt-submit", prompt_event("warm"), DAY19)
    line("warm prompt hook, back to back (goal p50 <= 50)",
         [hook(root, "user-prompt-submit", prompt_event("warm"), DAY19)[0]
          for _ in range(rounds * 3)])  # fmt: skip
    spaced = []
    for _ in range(rounds * 3):
        time.sleep(0.5)  # people type: the last reinforcement is done
        spaced.append(hook(root, "user-prompt-submit", prompt_event("warm"), DAY19)[0])
    line("warm prompt hook, prompts 0.5 s apart", spaced)


def rss_of(root: Path, label: str) -> None:
    cold_down(root)
    client.spawn(root, os.environ)
    assert client.wait_until_up(root, 300) is not None
    for _ in range(3):
        hook(root, "user-prompt-submit", prompt_event("rss"), DAY19)
    warm = client.ping(root)
    client.request(root, "jot", {"text": "Releases are cut on Thursdays.", "now": DAY19}, 120)
    jotted = client.ping(root)
    assert warm is not None
    assert jotted is not None
    print(f"daemon RSS, {label}: {warm['rss_bytes'] / 1e6:.0f} MB after warm-up and 3 prompts, "
          f"{jotted['rss_bytes'] / 1e6:.0f} MB after a jot (topic model loaded)")  # fmt: skip
    stop(Vault(root))


def debug_hook_ms(debug_file: Path, event: str) -> list[float]:
    pattern = re.compile(
        rf"Hooks: {event}\S* \[.*vault-hook.*\] finished with status \d+ \((\d+)ms\)"
    )
    return [float(m) for m in pattern.findall(debug_file.read_text(errors="replace"))]


def bench_claude(base: Path, rounds: int) -> None:
    """`claude -p` without memory-vault, with its hooks only, and with hooks and the
    MCP server (what `vault install` sets up), interleaved rounds, warm daemons;
    then the first prompt of the day."""
    machines = {name: new_machine(base / name) for name in ("none", "hooks", "all")}
    for name in ("hooks", "all"):
        machine = machines[name]
        assert machine.run(str(VENV_BIN / "vault"), "install").returncode == 0
        assert machine.run(str(VENV_BIN / "vault"), "jot", STORY, now=DAY1).returncode == 0
    assert CLAUDE is not None
    assert (
        machines["hooks"].run(CLAUDE, "mcp", "remove", "vault", "--scope", "user").returncode == 0
    )
    try:
        overhead(machines, base, rounds)
        first_prompt_of_the_day(machines["all"], rounds)
    finally:
        for machine in machines.values():
            stop(machine.vault)


def overhead(machines: dict[str, Machine], base: Path, rounds: int) -> None:
    labels = {"none": "no memory-vault", "hooks": "memory-vault hooks only (warm daemon)",
              "all": "memory-vault hooks and MCP server (warm daemon)"}  # fmt: skip
    walls: dict[str, list[float]] = {name: [] for name in machines}
    debug = base / "debug.txt"
    with StubApi() as api:
        for number in range(rounds + 1):
            for name, machine in machines.items():
                extra = ("--debug-file", str(debug)) if name == "hooks" else ()
                started = time.perf_counter()
                result = machine.claude(api, machine.project("b"), "-p", "hi", *extra, now=DAY19)
                assert result.returncode == 0, result.stderr
                if number:  # the first round warms the CLI and the daemon
                    walls[name].append(time.perf_counter() - started)
    p50 = {name: line(f"claude -p hi, {labels[name]}", [t * 1000 for t in walls[name]])
           for name in machines}  # fmt: skip
    print(
        f"  per session: hooks +{p50['hooks'] - p50['none']:.0f} ms, "
        f"hooks and MCP server +{p50['all'] - p50['none']:.0f} ms (p50 differences)"
    )
    for event in ("SessionStart", "UserPromptSubmit", "Stop"):  # SessionEnd's is not timed
        line(f"  {event} hook as timed by Claude Code", debug_hook_ms(debug, event)[1:])


def first_prompt_of_the_day(machine: Machine, rounds: int) -> None:
    """What a person sees: `claude -p QUESTION` with no daemon (after its idle exit),
    then the same with the daemon warm."""
    for cold in (True, False):
        walls, hedged = [], 0
        for _ in range(rounds):
            if cold:
                cold_down(machine.vault.root)
            with StubApi() as api:
                started = time.perf_counter()
                result = machine.claude(api, machine.project("b"), "-p", QUESTION, now=DAY19)
                walls.append(time.perf_counter() - started)
                assert result.returncode == 0, result.stderr
                hedged += api.message_requests[0].contains(HEDGED)
        state = "first of the day (no daemon)" if cold else "daemon warm"
        line(f"claude -p QUESTION, {state}", [t * 1000 for t in walls])
        print(f"  the request held the day-1 memory as 'might be related': {hedged}/{rounds}")


def bench_hooks(base: Path, args: argparse.Namespace) -> None:
    vault, story_id = story_vault(base / "story", args.filler)
    try:
        print(f"vault: the story's memory and {args.filler} others")
        bench_ready(vault.root, args.rounds)
        bench_cold_prompt(vault.root, story_id, args.rounds, with_start=True)
        bench_cold_prompt(vault.root, story_id, args.rounds, with_start=False)
        bench_warm(vault.root, args.rounds)
        rss_of(vault.root, f"{args.filler + 1} memories")
        single, _ = story_vault(base / "single", 0)
        rss_of(single.root, "1 memory")
        big = write_vault(base / "big", texts(args.big, seed=3))
        index = VaultIndex(big, load_settings(None, {}), embedder=RandomEmbedder())
        index.sync()
        index.close()
        rss_of(big.root, f"{args.big} memories (random vectors)")
    finally:
        for root in (base / "story", base / "single", base / "big"):
            stop(Vault(root))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--rounds", type=int, default=10)
    parser.add_argument("--filler", type=int, default=999)
    parser.add_argument("--big", type=int, default=10_000)
    parser.add_argument("--claude-only", action="store_true", help="only the claude -p figures")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        if args.claude_only:
            bench_claude(Path(tmp), args.rounds)
        else:
            bench_hooks(Path(tmp), args)
            if CLAUDE is None:
                print("claude -p figures skipped: no Claude Code CLI (make tools)")
            else:
                bench_claude(Path(tmp) / "claude", args.rounds)


if __name__ == "__main__":
    main()
