"""A hook whose handler raises still lets the session go on: every event exits 0
with nothing but hook JSON on stdout, says one line on stderr and logs the
traceback to .state/hooks.log. The error is a real one a person can cause: a
config.toml that is not valid TOML makes every handler fail while loading the
settings. Claude Code then still sends the prompt to the model."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.claude_code.conftest import needs_cli
from tests.claude_code.machine import VENV_BIN, Machine, new_machine
from tests.claude_code.stub_api import Reply, StubApi
from vault.layout import Vault

EVENTS = ["user-prompt-submit", "session-start", "pre-tool-use", "post-tool-use",
          "post-tool-use-failure", "stop", "pre-compact", "subagent-stop",
          "session-end"]  # fmt: skip
BROKEN = "links_max = [\n"


def payload(tmp_path: Path) -> str:
    return json.dumps({
        "session_id": "s-broken", "cwd": str(tmp_path), "prompt": "which port does auth use?",
        "hook_event_name": "UserPromptSubmit", "tool_name": "Bash",
        "tool_input": {"command": "ls"}, "transcript_path": str(tmp_path / "none.jsonl"),
    })  # fmt: skip


@pytest.mark.parametrize("event", EVENTS)
def test_a_handler_that_raises_exits_0_says_one_line_and_logs(
    vault: Vault, tmp_path: Path, event: str
) -> None:
    vault.config_path.write_text(BROKEN)
    env = {**os.environ, "VAULT_HOME": str(vault.root), "CLAUDE_CONFIG_DIR": str(tmp_path)}
    result = subprocess.run([str(VENV_BIN / "vault-hook"), event], input=payload(tmp_path),
                            capture_output=True, text=True, env=env, timeout=60)  # fmt: skip
    assert result.returncode == 0  # 2 would block the prompt; 1 shows an error
    assert result.stdout == ""  # stdout carries hook JSON only
    [line] = result.stderr.splitlines()
    assert line.startswith(f"memory-vault {event}: VaultError: ")
    assert "config.toml: not valid TOML" in line
    log = (vault.state_dir / "hooks.log").read_text()
    assert event in log
    assert "Traceback (most recent call last)" in log
    assert "not valid TOML" in log


def test_an_unknown_event_and_our_own_child_do_nothing(vault: Vault, tmp_path: Path) -> None:
    vault.config_path.write_text(BROKEN)
    base = {**os.environ, "VAULT_HOME": str(vault.root)}
    for event, env in [("no-such-event", base), ("stop", {**base, "MEMORY_VAULT_CHILD": "1"})]:
        result = subprocess.run([sys.executable, "-m", "hooks.claude_code.entry", event],
                                input=payload(tmp_path), capture_output=True, text=True,
                                env=env, timeout=60)  # fmt: skip
        assert (result.returncode, result.stdout, result.stderr) == (0, "", "")
    assert not (vault.state_dir / "hooks.log").exists()


@pytest.fixture(scope="module")
def broken_machine(tmp_path_factory: pytest.TempPathFactory) -> Machine:
    machine = new_machine(tmp_path_factory.mktemp("broken"))
    installed = machine.run(str(VENV_BIN / "vault"), "install")
    assert installed.returncode == 0, installed.stderr
    machine.vault.config_path.write_text(BROKEN)
    return machine


@needs_cli
def test_with_a_broken_config_claude_code_still_sends_the_prompt(broken_machine: Machine) -> None:
    machine = broken_machine
    with StubApi([Reply(text="Port 8443.")]) as api:
        run = machine.claude(api, machine.project("api"), "-p", "which port does auth use?")
        assert run.returncode == 0, run.stderr
        assert "Port 8443." in run.stdout
        [request] = api.message_requests
    assert request.contains("which port does auth use?")
    log = (machine.vault.state_dir / "hooks.log").read_text()
    assert "user-prompt-submit\nTraceback" in log  # the failure was the hook's, and logged


def test_a_hook_whose_log_cannot_be_written_still_exits_0(vault: Vault, tmp_path: Path) -> None:
    vault.config_path.write_text(BROKEN)
    (vault.state_dir / "hooks.log").mkdir(parents=True)  # appending to it fails
    env = {**os.environ, "VAULT_HOME": str(vault.root)}
    result = subprocess.run([str(VENV_BIN / "vault-hook"), "stop"], input=payload(tmp_path),
                            capture_output=True, text=True, env=env, timeout=60)  # fmt: skip
    assert (result.returncode, result.stdout) == (0, "")
    assert result.stderr.startswith("memory-vault stop: VaultError: ")


def test_the_stderr_line_is_cut_at_300_characters(tmp_path: Path) -> None:
    deep = tmp_path.joinpath(*["a-folder-with-a-long-name"] * 12, "vault")
    Vault(deep).create_folders()
    (deep / "config.toml").write_text(BROKEN)
    env = {**os.environ, "VAULT_HOME": str(deep)}
    result = subprocess.run([str(VENV_BIN / "vault-hook"), "stop"], input=payload(tmp_path),
                            capture_output=True, text=True, env=env, timeout=60)  # fmt: skip
    [line] = result.stderr.splitlines()
    assert len(line) == 300


def test_an_interrupted_handler_exits_0_and_logs_nothing(
    vault: Vault, monkeypatch: pytest.MonkeyPatch
) -> None:
    from hooks.claude_code import entry

    def interrupted() -> None:
        raise KeyboardInterrupt

    monkeypatch.setitem(entry.HANDLERS, "stop", interrupted)
    assert entry.main(["stop"]) == 0
    assert not (vault.state_dir / "hooks.log").exists()


def test_an_event_we_do_not_handle_costs_no_more_than_the_interpreter(vault: Vault) -> None:
    """Claude Code runs the hook for every event it is configured for; before the
    handler is chosen, the entry loads nothing beyond os and sys (not even
    `collections`, ~15 ms of start-up here), whatever type checkers see."""
    code = (
        "import os, sys\n"
        "before = set(sys.modules)\n"
        "from hooks.claude_code import entry\n"
        "entry.main(['no-such-event'])\n"
        "print(sorted(set(sys.modules) - before))\n"
    )
    env = {**os.environ, "VAULT_HOME": str(vault.root),
           "PYTHONPATH": os.pathsep.join(p for p in sys.path if p)}  # fmt: skip
    result = subprocess.run([sys.executable, "-S", "-c", code], capture_output=True, text=True,
                            env=env, timeout=60)  # fmt: skip
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout.replace("'", '"')) == [
        "__future__", "hooks", "hooks.claude_code", "hooks.claude_code.entry",
    ]  # fmt: skip
