"""A daemon that is starting: requests wait for its warm-up instead of failing, ping
says whether it is ready, and the first prompt of a session waits for it."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from hooks.client import client, control
from hooks.client.control import stop
from hooks.daemon.server import Daemon
from memory.service import MemoryService
from vault.config import load_settings
from vault.layout import Vault
from vault.store import MemoryStore

pytestmark = pytest.mark.model
STORY = (
    "let's always use pytest fixtures instead of setUp/tearDown for this codebase — tried "
    "unittest style on a past project and sharing fixtures across test files was a pain."
)
QUESTION = "should I use TestCase.setUp() here or something else?"
DAY1, DAY19 = "2026-01-01T09:00:00Z", "2026-01-20T09:00:00Z"


class HeldDaemon(Daemon):
    """A daemon whose warm-up waits until the test lets it go (the start of a slow
    machine, made deterministic); everything else is the real daemon."""

    release = threading.Event()

    def warm_up(self) -> None:
        assert self.release.wait(60)
        super().warm_up()


@pytest.fixture
def held(vault: Vault) -> Iterator[HeldDaemon]:
    daemon = HeldDaemon(vault, load_settings(vault.config_path, {}))
    HeldDaemon.release.clear()
    daemon.acquire()
    serving = threading.Thread(target=daemon.serve_forever)
    serving.start()
    yield daemon
    HeldDaemon.release.set()
    daemon.stop()
    serving.join(timeout=60)
    daemon.shutdown()


def wait_for_socket(root: Path) -> None:
    deadline = time.monotonic() + 30
    while client.ping(root) is None:  # a real socket appearing: bounded polling
        assert time.monotonic() < deadline
        time.sleep(0.02)


def test_requests_wait_for_the_warm_up_and_ping_says_when_ready(held: HeldDaemon) -> None:
    root = held.vault.root
    wait_for_socket(root)
    warming = client.ping(root)
    assert warming is not None
    assert warming["ready"] is False
    assert control.describe(control.act(held.vault, "status")).startswith("Daemon starting: pid")
    assert client.wait_until_up(root, 0.3) is None
    event = json.dumps({"prompt": QUESTION, "session_id": "s1", "cwd": "/nowhere"}).encode()
    with pytest.raises(client.DaemonSlow):  # delivered; the daemon still owes it
        client.prompt_event(str(root), event, DAY1, timeout=0.3)
    jot = {"text": "Deploys go out on Tuesdays after standup.", "now": DAY1}
    assert client.hand_off(root, "jot", jot, wait=0.0)
    assert not list(held.vault.memories_dir.glob("*.md"))  # nothing done before warm
    HeldDaemon.release.set()
    answer = client.wait_until_up(root, 60)
    assert answer is not None
    assert answer["ready"]
    assert answer["ready_seconds"] > 0
    client.request(root, "status", {}, timeout=60)  # after the queued jot
    [memory] = held.vault.memories_dir.glob("*.md")
    assert "Tuesdays" in MemoryStore(held.vault).read_path(memory).body


def test_first_prompt_without_any_daemon_waits_for_one_and_recalls_by_meaning(
    vault: Vault, service: MemoryService
) -> None:
    """No SessionStart ran and no daemon is up: the hook starts one and waits (the
    question shares no keyword with the memory, so only recall by meaning finds it)."""
    service.jot(STORY, project="github.com/acme/project-a")
    service.index.close()
    event = {"prompt": QUESTION, "session_id": "s2", "cwd": "/nowhere"}
    env = {**os.environ, "VAULT_HOME": str(vault.root), "VAULT_NOW": DAY19,
           "VAULT_HOOK_COLD_WAIT_SECONDS": "120"}  # fmt: skip
    try:
        result = subprocess.run(
            [sys.executable, "-m", "hooks.claude_code.entry", "user-prompt-submit"],
            input=json.dumps(event), capture_output=True, text=True, env=env, timeout=180,
        )  # fmt: skip
        context = json.loads(result.stdout)["hookSpecificOutput"]["additionalContext"]
        assert "Might be related" in context
        assert "pytest fixtures" in context
        assert client.ping(vault.root) is not None
    finally:
        stop(vault)


def test_the_daily_maintenance_waits_until_nobody_has_asked_for_a_while(
    vault: Vault, tmp_path: Path
) -> None:
    """Its topic refit took 7 s here: run right after SessionStart's sweep, it would
    hold up the first prompt of the day. Monotonic times are passed in, not waited."""
    from hooks.daemon.server import QUIET_SECONDS

    daemon = Daemon(vault, load_settings(vault.config_path, {}))
    daemon._warm_then_answer()  # the warm-up, in this thread
    try:
        sweep = {"op": "sweep", "args": {"claude_config_dir": str(tmp_path), "now": DAY1}}
        reply, steps = daemon._reply(sweep)
        assert reply["ok"]
        assert steps == ()  # nothing to capture; the maintenance is left for later
        daemon._reply(sweep)  # a second sweep queues nothing more
        asked = daemon.last_request
        assert not daemon.idle_work_due(asked + QUIET_SECONDS / 2)
        runs = 0
        while daemon.idle_work_due(asked + QUIET_SECONDS):
            daemon._start_idle_work(asked + QUIET_SECONDS)
            assert daemon._idle_worker is not None
            daemon._idle_worker.join(timeout=120)
            runs += 1
        assert runs == 4  # prune, refile, relink, mark the day: one step at a time
        state = json.loads((vault.state_dir / "maintenance.json").read_text())
        assert state["last_prune"].startswith("2026-01-01")
        assert not daemon.idle_work_due(asked + QUIET_SECONDS)
    finally:
        daemon.shutdown()
