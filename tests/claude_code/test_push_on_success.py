"""`push_on_success` through the real Claude Code after `vault install`: a Write and
an Edit that succeed fire PostToolUse, whose memories reach the model beside the
tool's result; an edit of one line brings what the file as a whole is about."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from hooks.client.control import stop
from tests.claude_code.conftest import needs_cli
from tests.claude_code.machine import VENV_BIN, Machine, new_machine
from tests.claude_code.stub_api import Reply, StubApi

pytestmark = [pytest.mark.model, needs_cli]
DAY = "2027-01-27T10:00:00Z"
RETRIES = "The invoice retry worker backs off exponentially, at most five attempts, then pages."
WORKER = (
    '"""Invoice retry worker: retries failed invoice deliveries with exponential backoff."""\n'
    "import os\n\nMAX_ATTEMPTS = 5\n"
)
POSTED = "PostToolUse:Edit hook additional context: memory-vault"


@pytest.fixture(scope="module")
def pushing(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Machine]:
    machine = new_machine(tmp_path_factory.mktemp("pushing"))
    machine.extra["VAULT_PUSH_ON_SUCCESS"] = "true"
    installed = machine.run(str(VENV_BIN / "vault"), "install")
    assert installed.returncode == 0, installed.stderr
    assert "add 9 events" in installed.stdout
    jot = machine.run(str(VENV_BIN / "vault"), "jot", RETRIES, "--kind", "decision", now=DAY)
    assert jot.returncode == 0, jot.stderr
    started = machine.run(str(VENV_BIN / "vault"), "daemon", "start")
    assert started.returncode == 0, started.stderr
    yield machine
    stop(machine.vault)


def test_a_successful_edit_brings_what_the_file_is_about(pushing: Machine) -> None:
    project = pushing.project("billing")
    worker = project / "billing" / "retry_worker.py"
    worker.parent.mkdir(parents=True, exist_ok=True)
    worker.write_text(WORKER)
    edit = {"file_path": str(worker), "old_string": "import os", "new_string": "import sys"}
    replies = [Reply.tool("Edit", edit, "toolu_edit"), Reply(text="Done.")]
    pushing.settle()  # warm: the tool hooks never wait for a starting daemon
    with StubApi(replies) as api:
        result = pushing.claude(api, project, "-p", "use sys instead of os there",
                                "--allowedTools", "Edit", now=DAY)  # fmt: skip
        assert result.returncode == 0, result.stderr
        first, after_edit = api.message_requests
    assert "import sys" in worker.read_text()
    assert not first.contains(POSTED)
    assert after_edit.contains(POSTED)  # the edit alone ("import os" -> "import sys") is not
    assert "at most five attempts" in after_edit.raw_body.split(POSTED)[1]
    assert not after_edit.contains("PreToolUse:Edit hook additional context: memory-vault")


def test_without_the_option_no_post_tool_use_is_registered(tmp_path: Path) -> None:
    machine = new_machine(tmp_path)
    installed = machine.run(str(VENV_BIN / "vault"), "install")
    assert installed.returncode == 0, installed.stderr
    assert "add 8 events" in installed.stdout
    settings = (machine.home / ".claude" / "settings.json").read_text()
    assert '"PostToolUse"' not in settings
    assert '"PostToolUseFailure"' in settings
