"""VAULT_<KEY> settings travel with each request to a running daemon, which
applies them to that request only, checked as the environment's are; a
setting the daemon reads once at start is refused with one line. Real daemon."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from hooks.client import client
from memory.service import MemoryService
from tests.hooks.daemon.test_daemon import QUESTION, hook, running, seeded, seeded_once
from vault.layout import Vault

pytestmark = pytest.mark.model
__all__ = ["running", "seeded", "seeded_once"]  # the fixtures, used by name
DAY19 = "2026-01-20T09:00:00Z"


def recall(vault: Vault, *args: str, **env: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "hooks.cli", "--vault", str(vault.root), "recall", *args,
         "--json", "--no-reinforce", "--now", "2026-01-02"],
        capture_output=True, text=True, timeout=60, env={**os.environ, **env},
    )  # fmt: skip


def test_a_cli_override_reaches_the_daemon_for_that_call_only(running: Vault) -> None:
    requests = client.ping(running.root)["requests"]  # type: ignore[index]
    plain = recall(running, "queue stalls")
    assert plain.returncode == 0, plain.stderr
    assert json.loads(plain.stdout)
    strict = recall(running, "queue stalls", VAULT_MIN_SIMILARITY="0.99", VAULT_MIN_COSINE="0.99")
    assert strict.returncode == 0, strict.stderr
    assert json.loads(strict.stdout) == []  # nothing is that similar
    assert json.loads(recall(running, "queue stalls").stdout) == json.loads(plain.stdout)
    assert client.ping(running.root)["requests"] == requests + 3  # type: ignore[index]


def test_a_bad_override_fails_as_it_does_without_a_daemon(running: Vault) -> None:
    result = recall(running, "queue stalls", VAULT_MIN_SIMILARITY="abc")
    assert result.returncode == 3
    assert result.stderr.strip().splitlines() == [
        "Error: VAULT_MIN_SIMILARITY: min_similarity must be a number 0 to 1, got 'abc'"
    ]


def test_a_setting_read_at_start_is_refused_not_ignored(running: Vault) -> None:
    result = recall(running, "queue stalls", VAULT_VECTOR_WEIGHT="0.9")
    assert result.returncode == 3
    [line] = result.stderr.splitlines()
    assert "VAULT_VECTOR_WEIGHT: vector_weight is read when the daemon starts" in line
    assert "vault daemon stop" in line
    same = recall(running, "queue stalls", VAULT_VECTOR_WEIGHT="0.4")  # the daemon's value
    assert same.returncode == 0, same.stderr


def test_the_prompt_hooks_context_size_from_its_environment_reaches_the_daemon(
    running: Vault,
) -> None:
    event = {"hook_event_name": "UserPromptSubmit", "prompt": QUESTION, "cwd": "/nowhere"}
    full = hook(running, event, VAULT_NOW=DAY19)
    context = json.loads(full.stdout)["hookSpecificOutput"]["additionalContext"]
    assert "pytest fixtures" in context
    small = hook(running, event, VAULT_NOW=DAY19, VAULT_HOOK_CONTEXT_CHARS="60")
    assert small.returncode == 0
    assert "pytest fixtures" not in small.stdout  # the memory does not fit in 60 characters
    assert client.ping(running.root) is not None  # the same warm daemon answered
    start_only = hook(running, event, VAULT_NOW=DAY19, VAULT_VECTOR_WEIGHT="0.9")
    assert "pytest fixtures" in start_only.stdout  # a hook never fails over it: left out


def test_llm_extraction_follows_the_request(service: MemoryService) -> None:
    from hooks.ops.requests import with_request_settings

    view = with_request_settings(service, {"settings": {"llm_extraction": "true"}}, strict=True)
    assert view.settings.llm_extraction is True
    assert service.settings.llm_extraction is False  # the daemon's own settings are untouched
    assert view.config is not service.config or view.settings is not service.settings


def test_llm_extraction_asked_for_by_a_capture_runs_in_the_daemon(
    vault: Vault, tmp_path: Path
) -> None:
    """`VAULT_LLM_EXTRACTION=true vault capture` with a daemon started without it:
    the daemon runs the (stand-in) `claude -p` for this capture."""
    from hooks.client.control import stop
    from tests.hooks.claude_code.test_end_to_end import (
        FAKE_CLAUDE_P,
        capture_cli,
        memories,
        transcript,
    )

    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    (bin_dir / "claude").write_text(FAKE_CLAUDE_P)
    (bin_dir / "claude").chmod(0o755)
    path = transcript(tmp_path / "home" / ".claude" / "projects" / "-t" / "llm.jsonl", "llm",
                      tmp_path, [("user", "ok so we ship on tuesdays, after standup")])  # fmt: skip
    env = {**os.environ, "PATH": f"{bin_dir}{os.pathsep}{os.environ['PATH']}",
           "FAKE_LOG": str(tmp_path / "args.log"), "CLAUDECODE": "1"}  # fmt: skip
    daemon = subprocess.Popen(
        [sys.executable, "-m", "hooks.cli", "--vault", str(vault.root), "serve"],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env,
    )  # fmt: skip
    try:
        assert client.wait_until_up(vault.root, 120) is not None
        result = capture_cli(vault, path, {**env, "VAULT_LLM_EXTRACTION": "true"})
        assert result.returncode == 0, result.stderr
        [memory] = memories(vault)
        assert "every Tuesday" in memory.read_text()  # the stand-in's answer
    finally:
        stop(vault)
        daemon.wait(timeout=60)
