"""A busy daemon: a large transcript is captured in steps of bounded bytes (the
daemon serves prompts between them), and a prompt that finds the daemon busy
past the short budget is answered from keywords instead of waiting for it."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest

from benchmarks.busy_daemon import write_transcript
from hooks.claude_code.capture import cursor_offset
from hooks.claude_code.prompt import BUSY_NOTE
from hooks.claude_code.transcript import MAX_LINE, STEP_BYTES
from hooks.client import client
from hooks.daemon.server import Daemon
from hooks.ops.table import dispatch_reply
from memory.service import MemoryService
from vault.config import load_settings
from vault.layout import Vault

pytestmark = pytest.mark.model


def test_a_large_transcript_is_captured_in_steps_of_bounded_bytes(
    service: MemoryService, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    claude = tmp_path / "claude"
    monkeypatch.setenv("CLAUDE_CONFIG_DIR", str(claude))
    transcript = claude / "projects" / "-home-dev-api" / "big.jsonl"
    size = write_transcript(transcript, 60)
    assert size > MAX_LINE  # larger than the old single read (32 MiB)
    reply = dispatch_reply(service, "sweep", {"claude_config_dir": str(claude)})
    assert len(reply.steps) >= size // STEP_BYTES  # bounded steps, not one per transcript
    offsets = [0]
    for step in reply.steps[:3]:
        step()
        offsets.append(cursor_offset(service, transcript))
    moved = [after - before for before, after in zip(offsets, offsets[1:], strict=False)]
    assert all(0 < bytes_read <= STEP_BYTES for bytes_read in moved)


OTHERS = (
    "Deploys go out on Tuesdays after the change review.",
    "The staging database is refreshed from production every Sunday.",
    "Use ruff for formatting; black is no longer used in this repo.",
    "The on-call rotation changes every Monday at 10:00.",
)


@pytest.fixture
def warm(vault: Vault) -> Iterator[Daemon]:
    daemon = Daemon(vault, load_settings(vault.config_path, {}))
    daemon.acquire()
    serving = threading.Thread(target=daemon.serve_forever)
    serving.start()
    assert client.wait_until_up(vault.root, 120) is not None
    yield daemon
    daemon.stop()
    serving.join(timeout=60)
    daemon.shutdown()


def test_a_prompt_that_finds_the_daemon_busy_is_answered_from_keywords(
    warm: Daemon, tmp_path: Path
) -> None:
    root = warm.vault.root
    for other in OTHERS:
        client.request(root, "jot", {"text": other})
    memory = client.request(root, "jot", {"text": "The billing export runs nightly at 02:00."})
    event = {"prompt": "when does the billing export run?", "session_id": "s1", "cwd": "/x"}
    # A cold budget far longer than this test waits: only the busy budget can end the wait.
    environ = {**os.environ, "VAULT_HOME": str(root), "VAULT_HOOK_COLD_WAIT_SECONDS": "600"}
    with warm._work:  # the daemon is busy with a long step until the hook has answered
        hook = subprocess.Popen(
            [sys.executable, "-m", "hooks.claude_code.entry", "user-prompt-submit"],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
            env=environ,
        )
        try:
            out, _ = hook.communicate(json.dumps(event), timeout=60)
        finally:
            if hook.poll() is None:
                hook.kill()
                hook.communicate()
    assert hook.returncode == 0
    context = json.loads(out)["hookSpecificOutput"]["additionalContext"]
    assert memory["id"] in context
    assert BUSY_NOTE in (root / ".state" / "hooks.log").read_text()
