"""`vault install` / `uninstall` against a Claude config dir, with a fake `claude`
on PATH (Claude Code cannot run here; the real command line stays in the code)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from hooks.claude_code.install import EVENTS

FAKE_CLAUDE = f"""#!{sys.executable}
# Stands in for `claude mcp add|remove --scope user`: logs the call and keeps the
# user-scope servers in <CLAUDE_CONFIG_DIR>/.claude.json, as Claude Code does.
import json, os, sys
args = sys.argv[1:]
with open(os.environ["FAKE_CLAUDE_LOG"], "a") as log:
    log.write(" ".join(args) + "\\n")
path = os.path.join(os.environ["CLAUDE_CONFIG_DIR"], ".claude.json")
data = json.load(open(path)) if os.path.exists(path) else {{}}
servers = data.setdefault("mcpServers", {{}})
if args[:2] == ["mcp", "add"]:
    name, command = args[args.index("--") - 1], args[args.index("--") + 1 :]
    if name in servers:
        sys.exit(f"MCP server {{name}} already exists in user config")
    servers[name] = {{"type": "stdio", "command": command[0], "args": command[1:], "env": {{}}}}
elif args[:2] == ["mcp", "remove"]:
    if args[2] not in servers:
        sys.exit(f"No MCP server found with name: {{args[2]}}")
    del servers[args[2]]
json.dump(data, open(path, "w"))
"""
ORIGINAL_SETTINGS = """{
    "model": "opus",
    "hooks": {
        "PostToolUse": [{"matcher": "Edit|Write",
                         "hooks": [{"type": "command", "command": "prettier --write"}]}],
        "UserPromptSubmit": [{"hooks": [{"type": "command", "command": "/opt/other-tool/hook"}]}]
    }
}
"""
ORIGINAL_GUIDE = "# My global notes\n\nPrefer small commits."


def run(tmp_path: Path, *args: str) -> subprocess.CompletedProcess[str]:
    bin_dir = tmp_path / "bin"
    env = {
        **os.environ,
        "CLAUDE_CONFIG_DIR": str(tmp_path / "claude"),
        "PATH": f"{bin_dir}{os.pathsep}{os.environ['PATH']}",
        "FAKE_CLAUDE_LOG": str(tmp_path / "claude-calls.log"),
    }
    return subprocess.run([sys.executable, "-m", "hooks.cli", *args], capture_output=True,
                          text=True, env=env, timeout=60)  # fmt: skip


def setup(tmp_path: Path) -> tuple[Path, Path]:
    (tmp_path / "bin").mkdir()
    fake = tmp_path / "bin" / "claude"
    fake.write_text(FAKE_CLAUDE)
    fake.chmod(0o755)
    claude = tmp_path / "claude"
    claude.mkdir()
    (claude / "settings.json").write_text(ORIGINAL_SETTINGS)
    (claude / "CLAUDE.md").write_text(ORIGINAL_GUIDE)
    return claude / "settings.json", claude / "CLAUDE.md"


def test_install_twice_then_uninstall_restores_everything(tmp_path: Path) -> None:
    settings, guide = setup(tmp_path)
    first = run(tmp_path, "install")
    assert first.returncode == 0, first.stderr
    data = json.loads(settings.read_text())
    commands = [h["command"] for g in data["hooks"]["UserPromptSubmit"] for h in g["hooks"]]
    assert commands[0] == "/opt/other-tool/hook"
    assert commands[1].startswith('"/')
    assert commands[1].endswith('vault-hook" user-prompt-submit')
    assert set(data["hooks"]) >= {"SessionStart", "Stop", "PreCompact", "SessionEnd", "PostToolUse"}
    assert "memory-vault:start" in guide.read_text()
    assert (settings.parent / "settings.json.bak").read_text() == ORIGINAL_SETTINGS
    snapshot = (settings.read_bytes(), guide.read_bytes())

    assert run(tmp_path, "install").returncode == 0
    assert (settings.read_bytes(), guide.read_bytes()) == snapshot

    assert run(tmp_path, "uninstall").returncode == 0
    assert settings.read_text() == ORIGINAL_SETTINGS
    assert guide.read_text() == ORIGINAL_GUIDE
    calls = (tmp_path / "claude-calls.log").read_text().splitlines()
    add = [c for c in calls if c.startswith("mcp add")]
    assert add[-1].startswith("mcp add --scope user --transport stdio vault -- /")
    assert add[-1].endswith("/vault mcp")
    assert calls[-1] == "mcp remove vault --scope user"


def test_install_into_an_empty_config_and_back(tmp_path: Path) -> None:
    (tmp_path / "bin").mkdir()
    assert run(tmp_path, "install").returncode == 0  # no claude on PATH: told what to run
    assert (tmp_path / "claude" / "settings.json").exists()
    assert run(tmp_path, "uninstall").returncode == 0
    assert sorted(p.name for p in (tmp_path / "claude").iterdir()) == []


def test_dry_run_changes_nothing_and_broken_settings_are_refused(tmp_path: Path) -> None:
    settings, guide = setup(tmp_path)
    result = run(tmp_path, "install", "--dry-run")
    assert result.returncode == 0
    assert f"would: hooks: add {len(EVENTS)} events" in result.stdout
    assert settings.read_text() == ORIGINAL_SETTINGS
    settings.write_text("{ not json")
    broken = run(tmp_path, "install")
    assert broken.returncode == 1
    assert "settings.json is not valid JSON" in broken.stderr
    assert settings.read_text() == "{ not json"


def test_a_vault_mcp_server_that_is_not_ours_is_left_alone(tmp_path: Path) -> None:
    setup(tmp_path)
    theirs = {"mcpServers": {"vault": {"type": "stdio", "command": "/opt/hashicorp/vault-mcp",
                                       "args": [], "env": {}}}, "numStartups": 3}  # fmt: skip
    config = tmp_path / "claude" / ".claude.json"
    config.write_text(json.dumps(theirs))
    installed = run(tmp_path, "install")
    assert installed.returncode == 0, installed.stderr
    assert "/opt/hashicorp/vault-mcp" in installed.stdout
    assert "left as it is" in installed.stdout
    removed = run(tmp_path, "uninstall")
    assert removed.returncode == 0, removed.stderr
    assert "left as it is" in removed.stdout
    assert json.loads(config.read_text()) == theirs
    log = tmp_path / "claude-calls.log"
    assert not log.exists() or "mcp" not in log.read_text()


def test_push_on_success_adds_post_tool_use_for_edits_and_a_later_install_takes_it_back(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    settings, guide = setup(tmp_path)

    def ours(event: str) -> list[dict[str, object]]:
        groups = json.loads(settings.read_text())["hooks"].get(event, [])
        return [g for g in groups if "vault-hook" in json.dumps(g)]

    assert run(tmp_path, "install").returncode == 0
    assert ours("PostToolUse") == []  # off by default
    monkeypatch.setenv("VAULT_PUSH_ON_SUCCESS", "true")
    result = run(tmp_path, "install")
    monkeypatch.delenv("VAULT_PUSH_ON_SUCCESS")
    assert result.returncode == 0, result.stderr
    assert f"hooks: add {len(EVENTS) + 1} events" in result.stdout
    [group] = ours("PostToolUse")
    assert group["matcher"] == "Edit|Write|MultiEdit|NotebookEdit"
    assert json.dumps(group).endswith('vault-hook\\" post-tool-use", "timeout": 5}]}')
    prettier = json.loads(settings.read_text())["hooks"]["PostToolUse"][0]
    assert prettier["hooks"][0]["command"] == "prettier --write"  # another tool's, kept

    assert run(tmp_path, "install").returncode == 0  # the option off again
    assert ours("PostToolUse") == []
    assert run(tmp_path, "uninstall").returncode == 0
    assert settings.read_text() == ORIGINAL_SETTINGS
    assert guide.read_text() == ORIGINAL_GUIDE
