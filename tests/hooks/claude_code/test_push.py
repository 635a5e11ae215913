"""Push channels: the query a tool call makes, and what the daemon answers for it."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from collections.abc import Iterator

import pytest

from hooks.claude_code.push import answer_tool_event, path_words, tool_query
from hooks.client import client
from hooks.client.control import stop
from memory.service import MemoryService
from vault.layout import Vault

STORY = (
    "let's always use pytest fixtures instead of setUp/tearDown for this codebase — tried "
    "unittest style on a past project and sharing fixtures across test files was a pain."
)
EDIT = {
    "file_path": "/home/dev/api/tests/test_api.py",
    "old_string": "class TestApi(unittest.TestCase):\n    def setUp(self):",
    "new_string": "@pytest.fixture\ndef client():",
    "replace_all": False,
}


def event(tool_name: str, tool_input: dict[str, object], session: str = "s1") -> dict[str, object]:
    return {"session_id": session, "cwd": "/nowhere", "hook_event_name": "PreToolUse",
            "tool_name": tool_name, "tool_input": tool_input, "tool_use_id": "toolu_1"}  # fmt: skip


def test_path_words_split_a_path_into_the_words_near_the_file() -> None:
    assert path_words("/home/dev/api/tests/test_api.py") == "api tests test api py"
    assert path_words("src\\My-Module.rs") == "src My Module rs"


def test_the_query_holds_the_path_the_edit_and_the_command() -> None:
    edit = tool_query("Edit", EDIT)
    assert edit.splitlines()[0] == "api tests test api py"
    assert "unittest.TestCase" in edit
    assert "@pytest.fixture" in edit
    bash = tool_query("Bash", {"command": "pytest -q tests", "description": "Run the tests"})
    assert bash == "pytest -q tests\nRun the tests"
    failed = tool_query("Bash", {"command": "make deploy"}, error="Exit code 2\nno rule")
    assert failed.endswith("Exit code 2\nno rule")
    many = tool_query("MultiEdit", {"file_path": "a.py", "edits": [{"new_string": "x = 1"}, 3]})
    assert many == "a py\nx = 1"
    assert len(tool_query("Write", {"file_path": "b.txt", "content": "y" * 9000})) < 2000


@pytest.mark.model
def test_an_edit_of_a_test_file_brings_the_fixtures_preference_once_per_session(
    service: MemoryService,
) -> None:
    memory = service.jot(STORY, project="github.com/acme/project-a", kind="preference")
    service.jot("The billing service stores amounts as integer cents.")
    first = json.loads(answer_tool_event(service, event("Edit", EDIT), None))
    output = first["hookSpecificOutput"]
    assert output["hookEventName"] == "PreToolUse"
    assert memory.id in output["additionalContext"]
    assert "integer cents" not in output["additionalContext"]
    assert answer_tool_event(service, event("Edit", EDIT), None) == ""  # pushed already
    assert memory.id in answer_tool_event(service, event("Edit", EDIT, session="s2"), None)
    assert service.show(memory.id)[0].recalls == 0  # never reinforced by a push


@pytest.mark.model
def test_our_own_tools_and_other_tools_are_never_answered(service: MemoryService) -> None:
    service.jot(STORY)
    for name in ("mcp__vault__remember", "mcp__plugin_memory-vault_vault__recall", "Read"):
        assert answer_tool_event(service, event(name, {"text": STORY, **EDIT}), None) == ""
    assert answer_tool_event(service, "not an event", None) == ""


@pytest.fixture
def running(vault: Vault, service: MemoryService) -> Iterator[Vault]:
    service.jot(STORY, kind="preference")
    service.index.close()
    daemon = subprocess.Popen([sys.executable, "-m", "hooks.daemon", "--vault", str(vault.root)])
    assert client.wait_until_up(vault.root, 120) is not None
    yield vault
    stop(vault)
    daemon.wait(timeout=60)


WARM_HOOK = textwrap.dedent(
    """
    import sys
    from hooks.claude_code import entry
    entry.main(["pre-tool-use"])
    slow = ("json", "socket", "pathlib", "typing", "enum", "re")
    print(sorted(m for m in slow if m in sys.modules), file=sys.stderr)
    """
)


@pytest.mark.model
def test_the_tool_hook_asks_the_warm_daemon_without_slow_imports_and_can_be_off(
    running: Vault,
) -> None:
    env = {**os.environ, "VAULT_HOME": str(running.root), "VAULT_NOW": "2026-01-01T10:00:00Z",
           "PYTHONPATH": os.pathsep.join(sys.path)}  # fmt: skip

    def hook(**extra: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run([sys.executable, "-S", "-c", WARM_HOOK],
                              input=json.dumps(event("Edit", EDIT, session="hook")),
                              capture_output=True, text=True, env={**env, **extra},
                              timeout=60)  # fmt: skip

    off = hook(VAULT_PUSH_CHANNELS="false")
    assert (off.returncode, off.stdout) == (0, "")
    result = hook()
    assert "pytest fixtures" in json.loads(result.stdout)["hookSpecificOutput"]["additionalContext"]
    assert result.stderr.strip().splitlines()[-1] == "[]"


def test_without_a_daemon_the_tool_hook_skips_at_once_and_starts_one(vault: Vault) -> None:
    env = {**os.environ, "VAULT_HOME": str(vault.root)}
    try:
        result = subprocess.run(
            [sys.executable, "-m", "hooks.claude_code.entry", "pre-tool-use"],
            input=json.dumps(event("Edit", EDIT)), capture_output=True, text=True, env=env,
            timeout=60,
        )  # fmt: skip
        assert (result.returncode, result.stdout) == (0, "")
        assert client.daemon_starting(vault.root) or client.ping(vault.root) is not None
    finally:
        client.wait_until_up(vault.root, 120)
        stop(vault)
