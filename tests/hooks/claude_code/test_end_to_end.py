"""Claude Code integration end to end: hook subprocesses, a live daemon,
transcripts in Claude Code's format, real files and the real model."""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
import textwrap
from collections.abc import Iterator
from pathlib import Path

import pytest

from hooks.client import client
from hooks.client.control import stop
from vault.layout import Vault
from vault.store import MemoryStore

pytestmark = pytest.mark.model
STORY = (
    "let's always use pytest fixtures instead of setUp/tearDown for this codebase — tried "
    "unittest style on a past project and sharing fixtures across test files was a pain."
)
QUESTION = "should I use TestCase.setUp() here or something else?"
DAY1, DAY19 = "2026-01-01T09:00:00Z", "2026-01-20T09:00:00Z"


def repo(tmp_path: Path, name: str) -> Path:
    folder = tmp_path / "code" / name
    (folder / ".git").mkdir(parents=True)
    (folder / ".git" / "config").write_text(
        f'[remote "origin"]\n\turl = git@github.com:acme/{name}.git\n'
    )
    return folder


def transcript(path: Path, session: str, cwd: Path, turns: list[tuple[str, str]]) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("a") as handle:
        for number, (role, text) in enumerate(turns):
            message: dict[str, object] = {"role": role, "content": text}
            if role == "assistant":
                message = {
                    "id": f"msg-{session}-{number}",
                    "role": role,
                    "content": [{"type": "text", "text": text}],
                }
            line = {
                "type": role,
                "uuid": f"{session}-{number}",
                "sessionId": session,
                "cwd": str(cwd),
                "timestamp": DAY1,
                "message": message,
            }
            handle.write(json.dumps(line) + "\n")
    return path


def hook(event: str, payload: object, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    data = payload if isinstance(payload, str) else json.dumps(payload)
    return subprocess.run(
        [sys.executable, "-m", "hooks.claude_code.entry", event],
        input=data,
        capture_output=True,
        text=True,
        env={**os.environ, **env},
        timeout=60,
    )


def capture_cli(vault: Vault, path: Path, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    """`vault capture --transcript PATH`, the command the hooks hand capture to."""
    command = ["capture", "--transcript", str(path)]
    return subprocess.run([sys.executable, "-m", "hooks.cli", "--vault", str(vault.root), *command],
                          capture_output=True, text=True, env=env, timeout=300)  # fmt: skip


def settle(vault: Vault) -> None:
    """Wait until the daemon has finished the work queued before this call."""
    client.request(vault.root, "status", {}, timeout=120)


@pytest.fixture
def live(vault: Vault, tmp_path: Path) -> Iterator[tuple[Vault, dict[str, str]]]:
    env = {"VAULT_HOME": str(vault.root), "CLAUDE_CONFIG_DIR": str(tmp_path / "claude")}
    process = subprocess.Popen(
        [sys.executable, "-m", "hooks.cli", "--vault", str(vault.root), "serve"],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        env={**os.environ, **env},
    )
    assert client.wait_until_up(vault.root, 120) is not None
    yield vault, env
    stop(vault)
    process.wait(timeout=30)


def memories(vault: Vault) -> list[Path]:
    return sorted(vault.memories_dir.glob("*.md"))


def test_the_story_across_two_repositories(
    live: tuple[Vault, dict[str, str]], tmp_path: Path
) -> None:
    vault, env = live
    project_a, project_b = repo(tmp_path, "project-a"), repo(tmp_path, "project-b")
    day1 = transcript(
        tmp_path / "claude" / "projects" / "-a" / "s1.jsonl",
        "s1",
        project_a,
        [("user", STORY), ("assistant", "Sounds good, I'll convert the tests.")],
    )
    stop_event = {
        "session_id": "s1",
        "transcript_path": str(day1),
        "cwd": str(project_a),
        "hook_event_name": "Stop",
        "stop_hook_active": False,
    }
    result = hook("stop", stop_event, {**env, "VAULT_NOW": DAY1})
    assert (result.returncode, result.stdout) == (0, "")
    settle(vault)
    [captured] = memories(vault)
    record = MemoryStore(vault).read_path(captured)
    assert (record.kind, record.project, record.session) == (
        "preference",
        "github.com/acme/project-a",
        "s1",
    )
    assert "pytest fixtures" in (vault.daily_dir / "2026-01-01.md").read_text()

    day19 = {**env, "VAULT_NOW": DAY19}
    start = {
        "session_id": "s2",
        "cwd": str(project_b),
        "hook_event_name": "SessionStart",
        "source": "startup",
        "transcript_path": str(tmp_path / "none.jsonl"),
    }
    assert hook("session-start", start, day19).returncode == 0
    prompt = {
        "session_id": "s2",
        "cwd": str(project_b),
        "hook_event_name": "UserPromptSubmit",
        "prompt": QUESTION,
    }
    result = hook("user-prompt-submit", prompt, day19)
    context = json.loads(result.stdout)["hookSpecificOutput"]["additionalContext"]
    assert "Might be related" in context
    assert "pytest fixtures" in context
    assert "Remembered (confident)" not in context
    assert MemoryStore(vault).read_path(captured).stability == 7.0

    reply = {**prompt, "prompt": "yeah, still applies, good call"}
    assert hook("user-prompt-submit", reply, day19).returncode == 0
    settle(vault)
    confirmed = MemoryStore(vault).read_path(captured)
    assert confirmed.stability == pytest.approx(17.5)
    assert confirmed.confirmations == 1


def test_crashed_session_is_captured_at_next_session_start_exactly_once(
    live: tuple[Vault, dict[str, str]], tmp_path: Path
) -> None:
    vault, env = live
    crashed = transcript(
        tmp_path / "claude" / "projects" / "-c" / "crashed.jsonl",
        "crashed",
        repo(tmp_path, "api"),
        [
            ("user", "We decided to keep billing amounts as integer cents."),
            ("user", "From now on never log card numbers, only the last four."),
        ],
    )
    start = {
        "session_id": "new",
        "cwd": str(tmp_path),
        "hook_event_name": "SessionStart",
        "source": "startup",
    }
    for _ in range(2):
        assert hook("session-start", start, {**env, "VAULT_NOW": DAY1}).returncode == 0
        settle(vault)
    texts = [MemoryStore(vault).read_path(p).body for p in memories(vault)]
    assert len(texts) == 2
    assert any("integer cents" in t for t in texts)
    cursors = json.loads((vault.state_dir / "cursors.json").read_text())
    assert cursors[str(crashed.resolve())]["offset"] == crashed.stat().st_size


FUZZ_WORKER = textwrap.dedent(
    """
    import io, json, random, sys, time
    from hooks.claude_code import entry
    random.seed(int(sys.argv[1]))
    events = ["user-prompt-submit", "session-start", "stop", "pre-compact", "session-end",
              "subagent-stop", "pre-tool-use", "post-tool-use-failure"]
    garbage = sys.argv[2]
    def payload():
        kind = random.randrange(8)
        if kind == 7:
            return json.dumps({"tool_name": random.choice(["Edit", "Bash", "mcp__vault__x", 5]),
                               "tool_input": random.choice([{}, {"file_path": 3}, [], "x",
                                                            {"command": "pytest -q tests"}]),
                               "session_id": random.choice(["f", None, 4]), "cwd": garbage,
                               "error": random.choice([None, 7, "Exit code 1"])})
        if kind == 0:
            return "".join(chr(random.randrange(1, 0x2FFF)) for _ in range(random.randrange(200)))
        if kind == 1:
            return json.dumps({"prompt": random.choice([None, 1, [], {}, "", "x" * 50000, "hi"])})
        if kind == 2:
            return json.dumps({"transcript_path": random.choice([garbage, "/nonexistent", 5, None]),
                               "session_id": random.choice(["s", 3, None]), "cwd": garbage})
        if kind == 3:
            text = json.dumps({"prompt": "should I use fixtures?", "session_id": "f"})
            return text[: random.randrange(len(text))]
        if kind == 4:
            return random.choice(["", "null", "[]", "{}", "0", "\\"str\\"", "{{{"])
        if kind == 5:
            return json.dumps({"prompt": "yes", "session_id": "f", "cwd": 7})
        return json.dumps({"source": "startup", "cwd": random.choice(["/", None, 1])})
    slowest = 0.0
    for _ in range(int(sys.argv[3])):
        sys.stdin, out = io.StringIO(payload()), io.StringIO()
        sys.stdout = out
        started = time.perf_counter()
        code = entry.main([random.choice(events)])
        slowest = max(slowest, time.perf_counter() - started)
        sys.stdout = sys.__stdout__
        text = out.getvalue()
        assert code == 0
        if text:
            data = json.loads(text)
            assert set(data) == {"hookSpecificOutput"}, data
    print(f"slowest {slowest:.3f}")
    """
)


def test_two_thousand_garbage_payloads_exit_zero_and_write_nothing_malformed(
    live: tuple[Vault, dict[str, str]], tmp_path: Path
) -> None:
    vault, env = live
    garbage = tmp_path / "garbage.jsonl"
    rng = random.Random(3)
    lines = [
        '{"type":"user","message":{"content":"We decided to use tabs."}}',
        "{",
        "null",
        '{"type":"assistant","message":"x"}',
        '{"type":"user","message":{"content":[1,2]}}',
    ]
    garbage.write_text("\n".join(rng.choice(lines) for _ in range(300)) + '\n{"type": "us')
    result = subprocess.run(
        [sys.executable, "-c", FUZZ_WORKER, "7", str(garbage), "2000"],
        capture_output=True,
        text=True,
        env={**os.environ, **env, "VAULT_NOW": DAY1},
        timeout=600,
    )
    assert result.returncode == 0, result.stderr[-2000:]
    assert float(result.stdout.split()[-1]) < 5.0
    settle(vault)
    for path in vault.root.rglob("*.md"):
        MemoryStore(vault).read_path(path) if "memories" in path.parts else path.read_text()
    for path in vault.state_dir.glob("*.json"):
        json.loads(path.read_text())
    for _ in range(3):  # and as real processes
        assert hook("stop", "{{{ not json", env).returncode == 0


FAKE_CLAUDE_P = """#!/bin/sh
# Stands in for `claude -p` (Claude Code cannot run here). It checks the guard the
# real call must carry, records its arguments, and answers like `--output-format json`.
printf '%s\\n' "$@" > "$FAKE_LOG"
cat > "$FAKE_LOG.stdin"
fail='{"type":"result","subtype":"error_during_execution","is_error":true,"result":"guard"}'
[ "$MEMORY_VAULT_CHILD" = "1" ] && [ -z "$CLAUDECODE" ] || { echo "$fail"; exit 0; }
memory='{"text":"The team deploys project-a every Tuesday after standup.","kind":"fact"}'
echo '{"type":"result","subtype":"success","is_error":false,"total_cost_usd":0.001,'\\
'"structured_output":{"memories":['"$memory"']}}'
"""


def test_optional_llm_extraction_runs_claude_p_without_hooks(vault: Vault, tmp_path: Path) -> None:
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    (bin_dir / "claude").write_text(FAKE_CLAUDE_P)
    (bin_dir / "claude").chmod(0o755)
    path = transcript(
        tmp_path / "home" / ".claude" / "projects" / "-t" / "llm.jsonl",
        "llm",
        tmp_path,
        [("user", "ok so we ship on tuesdays, after standup")],
    )
    env = {
        **os.environ,
        "PATH": f"{bin_dir}{os.pathsep}{os.environ['PATH']}",
        "FAKE_LOG": str(tmp_path / "args.log"),
        "VAULT_LLM_EXTRACTION": "true",
        "CLAUDECODE": "1",
    }
    result = capture_cli(vault, path, env)
    assert result.returncode == 0, result.stderr
    [memory] = memories(vault)
    assert "every Tuesday" in memory.read_text()
    args = (tmp_path / "args.log").read_text().splitlines()
    assert args[args.index("--settings") + 1] == '{"disableAllHooks": true}'
    assert {"-p", "--no-session-persistence", "--strict-mcp-config"} <= set(args)
    assert "ship on tuesdays" in (tmp_path / "args.log.stdin").read_text()
