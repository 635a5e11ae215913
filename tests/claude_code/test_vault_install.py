"""The story through the real Claude Code after `vault install`: what the model is
sent (the recorded request bodies) and what lands in the vault. One machine and
one daemon serve the module; each test brings its own project and clock."""

from __future__ import annotations

import json
import signal
import subprocess

import pytest

from hooks.daemon import client
from hooks.daemon.control import stop
from tests.claude_code.conftest import CLAUDE, Machine, needs_cli, wait_for
from tests.claude_code.stub_api import RecordedRequest, Reply, StubApi

pytestmark = [pytest.mark.model, needs_cli]
STORY = (
    "let's always use pytest fixtures instead of setUp/tearDown for this codebase - tried "
    "unittest style on a past project and sharing fixtures across test files was a pain."
)
QUESTION = "should I use TestCase.setUp() here or something else?"
DAY1, DAY19, DAY20 = "2026-01-01T09:00:00Z", "2026-01-20T09:00:00Z", "2026-01-21T09:00:00Z"
RECALLED = "UserPromptSubmit hook additional context: memory-vault: notes from the user's own"
HEDGED = "Might be related (weak match)"


def test_the_story_with_a_cold_daemon_on_day_19(installed: Machine) -> None:
    machine = installed
    with StubApi([Reply(text="Good call, I'll convert them.")]) as api:
        day1 = machine.claude(api, machine.project("project-a"), "-p", STORY, now=DAY1)
    assert day1.returncode == 0, day1.stderr
    machine.settle()
    memory = machine.memory_saying("pytest fixtures")
    assert memory is not None
    assert (memory.project, memory.stability, memory.kind) == (
        "github.com/acme/project-a", 7.0, "preference"
    )  # fmt: skip

    stop(machine.vault)  # a new morning: the daemon has gone idle
    assert client.ping(machine.vault.root) is None
    project_b = machine.project("project-b")
    with StubApi([Reply(text="Did you want fixtures here?")]) as api:
        day19 = machine.claude(api, project_b, "-p", QUESTION, now=DAY19)
        assert day19.returncode == 0, day19.stderr
        [request] = api.message_requests
    assert request.contains(RECALLED)
    assert request.contains(HEDGED)
    assert request.contains("pytest fixtures instead of setUp/tearDown")
    assert request.contains(memory.id)

    with StubApi([Reply(text="Noted.")]) as api:
        again = machine.claude(api, project_b, "-p", "--continue", "yeah, still applies", now=DAY19)
        assert again.returncode == 0, again.stderr
        assert api.message_requests[0].session_id == request.session_id
    machine.settle()
    confirmed = machine.memory_saying("pytest fixtures")
    assert confirmed is not None
    assert (confirmed.stability, confirmed.confirmations) == (pytest.approx(17.5), 1)
