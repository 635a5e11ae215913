"""The story through the real Claude Code after `vault install`: what the model is
sent (the recorded request bodies) and what lands in the vault. One machine and
one daemon serve the module; each test brings its own project and clock."""

from __future__ import annotations

import json
import signal
import subprocess

import pytest

from hooks.client import client
from hooks.client.control import stop
from tests.claude_code.conftest import needs_cli
from tests.claude_code.machine import CLAUDE, VENV_BIN, Machine, wait_for
from tests.claude_code.story import DAY1, DAY19, DAY20, HEDGED, QUESTION, RECALLED, STORY
from tests.claude_code.stub_api import RecordedRequest, Reply, StubApi

pytestmark = [pytest.mark.model, needs_cli]


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


def test_mcp_tools_are_offered_and_remember_writes_a_memory(installed: Machine) -> None:
    """`vault mcp` can take seconds to start: the stand-in keeps Claude busy with a
    harmless command until the vault's tools are listed, then loads and calls one."""
    fact = "The staging database is refreshed from production every Sunday night."

    def script(request: RecordedRequest) -> Reply:
        if "toolu_remember" in request.raw_body:
            return Reply(text="Remembered.")
        if "toolu_search" in request.raw_body:
            return Reply.tool("mcp__vault__remember", {"text": fact}, "toolu_remember")
        if request.contains("mcp__vault__remember"):  # listed as a deferred tool
            return Reply.tool(
                "ToolSearch", {"query": "select:mcp__vault__remember"}, "toolu_search"
            )
        return Reply.tool("Bash", {"command": "sleep 1", "description": "Wait"})

    project = installed.project("infra")
    with StubApi(responder=script) as api:
        result = installed.claude(api, project, "-p", "remember when staging is refreshed",
                                  "--allowedTools", "Bash mcp__vault__remember",
                                  now=DAY20)  # fmt: skip
        assert result.returncode == 0, result.stderr
        requests = api.message_requests
    assert result.stdout.strip() == "Remembered."
    installed.settle()
    memory = installed.memory_saying("refreshed from production every Sunday")
    assert memory is not None
    assert memory.source == "claude"  # the MCP client is named in `source`
    blocks = [block for message in requests[-1].messages if isinstance(message["content"], list)
              for block in message["content"] if block.get("type") == "tool_result"]  # fmt: skip
    [result_block] = [block for block in blocks if block["tool_use_id"] == "toolu_remember"]
    assert memory.id in json.dumps(result_block)


def test_an_edit_of_a_test_file_brings_the_fixtures_preference_once(installed: Machine) -> None:
    if installed.memory_saying("pytest fixtures") is None:  # when run on its own
        jot = installed.run(str(VENV_BIN / "vault"), "jot", STORY, "--kind", "preference",
                            now=DAY20)  # fmt: skip
        assert jot.returncode == 0, jot.stderr
    project = installed.project("project-c")
    test_file = project / "tests" / "test_api.py"
    test_file.parent.mkdir(parents=True, exist_ok=True)
    old = "class TestApi(unittest.TestCase):\n    def setUp(self):\n        self.client = app()\n"
    test_file.write_text(f"import unittest\n\n\n{old}")
    edit = {"file_path": str(test_file), "old_string": old,
            "new_string": "@pytest.fixture\ndef client():\n    return app()\n"}  # fmt: skip
    again = {"file_path": str(test_file), "old_string": "import unittest",
             "new_string": "import pytest"}  # fmt: skip
    replies = [Reply.tool("Edit", edit, "toolu_edit"), Reply.tool("Edit", again, "toolu_again"),
               Reply(text="Converted.")]  # fmt: skip
    with StubApi(replies) as api:
        result = installed.claude(api, project, "-p", "tidy up the test setup",
                                  "--allowedTools", "Edit", now=DAY20)  # fmt: skip
        assert result.returncode == 0, result.stderr
        first, after_edit, after_again = api.message_requests
    pushed = "PreToolUse:Edit hook additional context: memory-vault"
    assert not first.contains(pushed)
    assert after_edit.contains(pushed)
    assert "pytest fixtures instead of setUp/tearDown" in after_edit.raw_body.split(pushed)[1]
    assert after_again.raw_body.count(pushed) == 1  # the same memory is not pushed twice
    assert test_file.read_text().startswith("import pytest\n\n\n@pytest.fixture")


def test_a_killed_session_is_captured_once_at_the_next_session_start(
    installed: Machine,
) -> None:
    assert CLAUDE is not None
    project = installed.project("billing")
    decision = "We decided to keep billing amounts as integer cents."
    replies = [Reply.tool("Bash", {"command": "ls", "description": "List"}, "toolu_ls"),
               Reply(text="never sent", delay_seconds=120)]  # fmt: skip
    with StubApi(replies) as api:
        session = subprocess.Popen([CLAUDE, "-p", decision, "--allowedTools", "Bash"],
                                   cwd=project, env=installed.env(api, DAY20),
                                   stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                                   stderr=subprocess.DEVNULL)  # fmt: skip
        assert api.wait_for_requests(2, timeout=120)
        wait_for(lambda: any("toolu_ls" in path.read_text() and decision in path.read_text()
                             for path in installed.transcripts()))  # fmt: skip
        session.send_signal(signal.SIGKILL)
        assert session.wait(timeout=60) == -signal.SIGKILL
    installed.settle()
    assert installed.memory_saying("integer cents") is None  # no Stop, no SessionEnd

    for _ in range(2):  # the next session starts, then one more
        with StubApi() as api:
            assert installed.claude(api, installed.project("elsewhere"), "-p", "hi",
                                    now=DAY20).returncode == 0  # fmt: skip
        wait_for(lambda: installed.memory_saying("integer cents") is not None)
        installed.settle()
    memory = installed.memory_saying("integer cents")
    assert memory is not None
    assert [m.id for m in installed.memories() if "integer cents" in m.body] == [memory.id]
    assert memory.stability == 7.0  # a second capture would have reinforced it


def test_pre_compact_captures_before_the_summary_and_a_short_briefing_follows(
    installed: Machine,
) -> None:
    rule = "From now on never log card numbers, only the last four digits."
    captured_before_summary: list[bool] = []

    def script(request: RecordedRequest) -> Reply | None:
        if not request.is_compaction:
            return None
        installed.settle()  # the daemon has what PreCompact handed it
        captured_before_summary.append(installed.memory_saying("card numbers") is not None)
        return Reply(text="<analysis>a</analysis>\n<summary>Card numbers are masked.</summary>")

    replies = [Reply(tool_calls=Reply.tool("Bash", {"command": "ls"}, "toolu_ls").tool_calls,
                     input_tokens=990_000),  # near the window: the CLI compacts
               Reply(text="Done.")]  # fmt: skip
    with StubApi(replies, responder=script) as api:
        result = installed.claude(api, installed.project("payments"), "-p", rule,
                                  "--allowedTools", "Bash", now=DAY20)  # fmt: skip
        assert result.returncode == 0, result.stderr
        requests = api.message_requests
    assert captured_before_summary == [True]
    [compaction] = [i for i, request in enumerate(requests) if request.is_compaction]
    after = requests[compaction + 1]
    briefing = "SessionStart hook additional context: memory-vault briefing"
    assert after.contains(briefing)
    text = after.raw_body.split(briefing)[1].split("Today's date")[0]
    assert "card numbers" in text
    assert "Recent session log" not in text  # the short briefing
