"""The prompt op writes nothing before its reply (issue 27): confirming a "yes" and
the session's shown state are steps after it, and two fast prompts of one session
see what the one before showed even when their steps run in the other order."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from hooks.ops.table import dispatch_reply
from memory.service import MemoryService
from vault.clock import parse_time
from vault.store import MemoryStore

pytestmark = pytest.mark.model
STORY = (
    "let's always use pytest fixtures instead of setUp/tearDown for this codebase — tried "
    "unittest style on a past project and sharing fixtures across test files was a pain."
)
QUESTION = "should I use TestCase.setUp() here or something else?"
DAY1, DAY19 = "2026-01-01T09:00:00Z", "2026-01-20T09:00:00Z"
PEEK = """
import json, sys
from pathlib import Path
from hooks.claude_code.confirmation import previous
print(json.dumps(previous(Path(sys.argv[1]), "s2").ids))
"""


def prompt(text: str) -> dict[str, object]:
    event = {"session_id": "s2", "cwd": "/nowhere", "hook_event_name": "UserPromptSubmit",
             "prompt": text}  # fmt: skip
    return {"event": event, "now": DAY19}


def test_the_reply_comes_before_every_write_and_a_yes_confirms_once(
    service: MemoryService,
) -> None:
    memory = service.jot(STORY, kind="preference", created=parse_time(DAY1))
    path = memory.path
    written = path.read_bytes()
    shown_file = service.vault.state_dir / "shown.json"

    asked = dispatch_reply(service, "prompt_event", prompt(QUESTION))
    assert "pytest fixtures" in asked.result["output"]  # type: ignore[index]
    assert "Might be related" in asked.result["output"]  # type: ignore[index]
    assert asked.steps  # the shown state waits for the reply ...
    assert not shown_file.exists()  # ... and is not written at reply time

    # The person answers at once: the daemon may run the second prompt's steps
    # before the first one's (a step yields to a waiting prompt).
    yes = dispatch_reply(service, "prompt_event", prompt("yeah, still applies, good call"))
    assert path.read_bytes() == written  # not confirmed before the reply
    assert not shown_file.exists()
    for step in (*yes.steps, *asked.steps):
        step()
    confirmed = MemoryStore(service.vault).read_path(path)
    assert confirmed.confirmations == 1
    assert confirmed.stability == pytest.approx(17.5)

    # The first prompt's late step did not bring its hedge back: a fresh process
    # (a restarted daemon, the hook on its own) finds nothing left to confirm.
    peek = [sys.executable, "-c", PEEK, str(service.vault.root)]
    assert json.loads(subprocess.run(peek, capture_output=True, text=True, check=True).stdout) == []
    again = dispatch_reply(service, "prompt_event", prompt("yes, exactly"))
    for step in again.steps:
        step()
    assert MemoryStore(service.vault).read_path(path).confirmations == 1


def test_a_no_is_not_a_confirmation_and_still_uses_up_the_hedge(service: MemoryService) -> None:
    memory = service.jot(STORY, kind="preference", created=parse_time(DAY1))
    for text in (QUESTION, "no, that's outdated", "yes"):
        reply = dispatch_reply(service, "prompt_event", prompt(text))
        for step in reply.steps:
            step()
    assert MemoryStore(service.vault).read_path(Path(memory.path)).confirmations == 0
