"""The opt-in model help for the SessionStart briefing (`llm_briefing`) and the
episode gists (`llm_gist`), through the real `claude -p` against the local
stand-in API: off by default nothing is sent; what is sent is redacted; a model
that fails or is slow gives the rule-based result within the bounded time."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from hooks.claude_code.llm_gist import gist_writer
from hooks.client.control import stop
from tests.claude_code.conftest import needs_cli
from tests.claude_code.machine import CLAUDE
from tests.claude_code.stub_api import RecordedRequest, Reply, StubApi
from vault.config import load_settings
from vault.layout import Vault

pytestmark = needs_cli
NOW = "2027-01-27T10:00:00Z"
SECRET = "ghp_" + "a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8"
LOG = f"# 2027-01-27\n\n- 09:10 Renamed the billing queue to invoices; token {SECRET}\n"
WRITTEN = "Billing work: the queue is now called invoices."


def structured(answer: dict[str, object]) -> object:
    """A stand-in model that answers through Claude Code's StructuredOutput tool."""

    def respond(request: RecordedRequest) -> Reply:
        if "toolu_answer" in request.raw_body:
            return Reply(text="Done.")
        return Reply.tool("StructuredOutput", answer, "toolu_answer")

    return respond


def environment(tmp_path: Path, api: StubApi, **settings: str) -> dict[str, str]:
    assert CLAUDE is not None
    home = tmp_path / "home"
    home.mkdir(exist_ok=True)
    return {
        **os.environ,
        "PATH": f"{Path(CLAUDE).parent}{os.pathsep}{os.environ.get('PATH', '/usr/bin:/bin')}",
        "HOME": str(home),
        "ANTHROPIC_API_KEY": "sk-ant-stand-in",
        "ANTHROPIC_BASE_URL": api.base_url,
        "CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC": "1",
        "DISABLE_TELEMETRY": "1",
        "DISABLE_AUTOUPDATER": "1",
        "VAULT_HOME": str(tmp_path / "vault"),
        "VAULT_NOW": NOW,
        "VAULT_DAEMON_IDLE_SECONDS": "1",
        **{f"VAULT_{key.upper()}": value for key, value in settings.items()},
    }


def session_start(tmp_path: Path, env: dict[str, str]) -> tuple[str, float]:
    """The hook as Claude Code runs it: its briefing and how long it took."""
    vault = Vault(tmp_path / "vault")
    if not vault.exists():
        vault.create_folders()
        (vault.daily_dir / "2027-01-27.md").write_text(LOG)  # written by hand: not redacted
    payload = json.dumps({"hook_event_name": "SessionStart", "source": "startup",
                          "session_id": "s1", "cwd": str(tmp_path)})  # fmt: skip
    started = time.monotonic()
    result = subprocess.run([sys.executable, "-m", "hooks.claude_code.entry", "session-start"],
                            input=payload, capture_output=True, text=True, env=env,
                            timeout=120)  # fmt: skip
    took = time.monotonic() - started
    stop(vault)  # the hook asked a daemon for a sweep
    assert (result.returncode, result.stderr) == (0, "")
    return json.loads(result.stdout)["hookSpecificOutput"]["additionalContext"], took


def test_off_by_default_nothing_is_sent(tmp_path: Path) -> None:
    with StubApi(responder=structured({"briefing": WRITTEN})) as api:  # type: ignore[arg-type]
        briefing, _ = session_start(tmp_path, environment(tmp_path, api))
        assert api.requests == []
    assert "Recent session log:" in briefing
    assert "Renamed the billing queue to invoices" in briefing


def test_the_model_writes_the_briefing_from_the_redacted_rule_based_one(tmp_path: Path) -> None:
    with StubApi(responder=structured({"briefing": WRITTEN})) as api:  # type: ignore[arg-type]
        env = environment(tmp_path, api, llm_briefing="true", llm_briefing_seconds="12")
        briefing, _ = session_start(tmp_path, env)  # 12 s: node starts slowly on a busy machine
        [asked, *_] = api.message_requests
    assert briefing.startswith("memory-vault briefing, summarised by haiku")
    assert WRITTEN in briefing
    assert asked.contains("Renamed the billing queue to invoices")
    assert asked.contains("[REDACTED]")
    assert SECRET not in json.dumps([r.raw_body for r in api.requests])


def test_a_slow_model_gives_the_rule_based_briefing_in_bounded_time(tmp_path: Path) -> None:
    slow = Reply.tool("StructuredOutput", {"briefing": WRITTEN}, "toolu_answer")
    slow = Reply(tool_calls=slow.tool_calls, delay_seconds=60)
    with StubApi([slow]) as api:
        env = environment(tmp_path, api, llm_briefing="true", llm_briefing_seconds="2")
        briefing, took = session_start(tmp_path, env)  # the child is killed after 2 s
    assert took < 12  # the child was killed after 2 s (the rest is the hook's own start)
    assert "summarised by" not in briefing
    assert "Recent session log:" in briefing
    log = (tmp_path / "vault" / ".state" / "hooks.log").read_text()
    assert "briefing: claude -p failed" in log


def test_a_failing_model_gives_the_rule_based_briefing(tmp_path: Path) -> None:
    with StubApi(responder=structured({"other": "no briefing"})) as api:  # type: ignore[arg-type]
        env = environment(tmp_path, api, llm_briefing="true", llm_briefing_seconds="12")
        briefing, _ = session_start(tmp_path, env)
        assert api.message_requests
    assert "summarised by" not in briefing
    assert "Renamed the billing queue to invoices" in briefing


LONG = (
    "On Monday we looked at the flaky payment tests for a while. They failed on CI only. "
    "After an hour we found the cause in the shared fixtures, which leaked state between "
    f"tests through a module global holding {SECRET}. We decided to always build the payment "
    "client inside a fixture with function scope from now on."
)


def test_the_gist_writer_sends_redacted_notes_and_maps_the_answers_back(tmp_path: Path) -> None:
    settings = load_settings(None, {"VAULT_LLM_GIST": "true"})
    assert gist_writer(load_settings(None, {}), tmp_path, os.environ) is None  # off by default
    answer = {"gists": [{"n": 2, "gist": "Build the payment client in a function fixture."}]}
    with StubApi(responder=structured(answer)) as api:  # type: ignore[arg-type]
        write = gist_writer(settings, tmp_path / ".state", environment(tmp_path, api))
        assert write is not None
        assert write(["A short note.", LONG]) == [
            None,
            "Build the payment client in a function fixture.",
        ]
        [asked, *_] = api.message_requests
    assert asked.contains("shared fixtures")
    assert asked.contains("[REDACTED]")
    assert SECRET not in json.dumps([r.raw_body for r in api.requests])


def test_a_slow_gist_model_leaves_every_gist_to_the_rules(tmp_path: Path) -> None:
    settings = load_settings(None, {"VAULT_LLM_GIST": "true", "VAULT_LLM_GIST_SECONDS": "2"})
    slow = Reply(text="...", delay_seconds=60)
    with StubApi([slow]) as api:
        write = gist_writer(settings, tmp_path / ".state", environment(tmp_path, api))
        assert write is not None
        started = time.monotonic()
        assert write([LONG, LONG]) == [None, None]
        assert time.monotonic() - started < 10


@pytest.mark.parametrize("bad", [None, "", LONG + " And more."])
def test_a_missing_or_longer_model_gist_falls_back_to_the_rule_based_one(bad: str | None) -> None:
    from memory.consolidation.gist import decision_gist, written_gist

    assert written_gist(bad, LONG) is None
    rule = decision_gist(LONG)
    assert rule is not None
    assert rule.startswith("We decided to always build the payment client")
