"""What a person's reply to a hedged memory does, through the real Claude Code:
only a clear "yes" confirms it. A "no, that's outdated" and a reply about
something else leave it as it was, and a "yes" after them still works (the
memory was shown hedged again)."""

from __future__ import annotations

import pytest

from tests.claude_code.conftest import needs_cli
from tests.claude_code.machine import Machine
from tests.claude_code.story import DAY1, DAY19, HEDGED, QUESTION, STORY
from tests.claude_code.stub_api import Reply, StubApi

pytestmark = [pytest.mark.model, needs_cli]


def ask_then_reply(machine: Machine, reply: str) -> None:
    """The day-19 question (the fixtures memory comes back hedged), then `reply`
    in the same session."""
    project = machine.project("project-b")
    with StubApi([Reply(text="Fixtures or setUp?")]) as api:
        asked = machine.claude(api, project, "-p", QUESTION, now=DAY19)
        assert asked.returncode == 0, asked.stderr
        [request] = api.message_requests
        assert request.contains(HEDGED)
    with StubApi([Reply(text="Understood.")]) as api:
        replied = machine.claude(api, project, "-p", "--continue", reply, now=DAY19)
        assert replied.returncode == 0, replied.stderr
    machine.settle()


def test_only_a_clear_yes_confirms_a_hedged_memory(installed: Machine) -> None:
    machine = installed
    with StubApi([Reply(text="Will do.")]) as api:
        day1 = machine.claude(api, machine.project("project-a"), "-p", STORY, now=DAY1)
        assert day1.returncode == 0, day1.stderr
    machine.settle()

    def confirmations() -> int:
        memory = machine.memory_saying("pytest fixtures")
        assert memory is not None
        return memory.confirmations

    ask_then_reply(machine, "no, that's outdated: we went back to unittest")
    assert confirmations() == 0
    ask_then_reply(machine, "yeah, but that's not true any more")
    assert confirmations() == 0
    ask_then_reply(machine, "how do I rename a git branch?")
    assert confirmations() == 0
    ask_then_reply(machine, "yes, still applies")
    assert confirmations() == 1
