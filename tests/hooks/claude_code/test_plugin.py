"""The repository as a Claude Code plugin: manifests and the stdlib launchers."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from hooks.claude_code.install import EVENTS, MATCHERS

ROOT = Path(__file__).resolve().parents[3]


def launch(
    name: str, args: list[str], env: dict[str, str], stdin: str = ""
) -> subprocess.CompletedProcess[str]:
    return subprocess.run([str(ROOT / "bin" / name), *args], input=stdin, capture_output=True,
                          text=True, env={**os.environ, **env}, timeout=60)  # fmt: skip


def plugin_data(tmp_path: Path, ready: bool) -> Path:
    data = tmp_path / "plugin-data"
    data.mkdir()
    if ready:
        (data / "venv").symlink_to(Path(sys.executable).parent.parent)
        sys.path.insert(0, str(ROOT / "bin"))
        import plugin_env

        sys.path.remove(str(ROOT / "bin"))
        (data / "installed-version").write_text(plugin_env.wanted_version())
    else:
        (data / "bootstrapping").touch()  # a build is under way: nothing new is started
    return data


def test_manifests_agree_with_the_installer() -> None:
    plugin = json.loads((ROOT / ".claude-plugin" / "plugin.json").read_text())
    market = json.loads((ROOT / ".claude-plugin" / "marketplace.json").read_text())
    assert plugin["name"] == market["plugins"][0]["name"] == "memory-vault"
    hooks = json.loads((ROOT / "hooks" / "hooks.json").read_text())["hooks"]
    assert set(hooks) == set(EVENTS)
    for event, (name, timeout) in EVENTS.items():
        [group] = hooks[event]
        [handler] = group["hooks"]
        assert handler["command"] == f'"${{CLAUDE_PLUGIN_ROOT}}"/bin/vault-hook {name}'
        assert handler["timeout"] == timeout
        assert group.get("matcher") == MATCHERS.get(event)
    server = json.loads((ROOT / ".mcp.json").read_text())["mcpServers"]["vault"]
    assert (server["command"], server["args"]) == ("${CLAUDE_PLUGIN_ROOT}/bin/vault", ["mcp"])


def test_launchers_run_the_plugin_environment(tmp_path: Path) -> None:
    data = plugin_data(tmp_path, ready=True)
    env = {"CLAUDE_PLUGIN_DATA": str(data), "CLAUDE_CONFIG_DIR": str(tmp_path / "claude")}
    result = launch("vault", ["--help"], env)
    assert result.returncode == 0
    assert "memory-vault" in result.stdout
    hook = launch("vault-hook", ["no-such-event"], env, stdin="{}")
    assert (hook.returncode, hook.stdout) == (0, "")


def test_plugin_hooks_stay_quiet_when_vault_install_registered_them(tmp_path: Path) -> None:
    data = plugin_data(tmp_path, ready=True)
    (data / "venv").unlink()
    stand_in = data / "venv" / "bin" / "vault-hook"  # an environment whose hook says it ran
    stand_in.parent.mkdir(parents=True)
    stand_in.write_text("#!/bin/sh\necho ran $1\n")
    stand_in.chmod(0o755)
    claude = tmp_path / "claude"
    claude.mkdir()
    env = {"CLAUDE_PLUGIN_DATA": str(data), "CLAUDE_CONFIG_DIR": str(claude)}
    alone = launch("vault-hook", ["user-prompt-submit"], env, stdin="{}")
    assert alone.stdout == "ran user-prompt-submit\n"
    command = '"/opt/venv/bin/vault-hook" user-prompt-submit'
    installed = {
        "hooks": {"UserPromptSubmit": [{"hooks": [{"type": "command", "command": command}]}]}
    }
    (claude / "settings.json").write_text(json.dumps(installed))
    both = launch("vault-hook", ["user-prompt-submit"], env, stdin="{}")
    assert (both.returncode, both.stdout, both.stderr) == (0, "", "")


def test_while_the_environment_builds_hooks_pass_say_so_once_and_the_server_explains(
    tmp_path: Path,
) -> None:
    data = plugin_data(tmp_path, ready=False)
    env = {"CLAUDE_PLUGIN_DATA": str(data), "CLAUDE_CONFIG_DIR": str(tmp_path / "claude")}
    start = launch("vault-hook", ["session-start"], env, stdin="{}")
    assert start.returncode == 0
    said = json.loads(start.stdout)  # SessionStart, once per session, says so
    assert said["systemMessage"] == said["hookSpecificOutput"]["additionalContext"]
    assert said["systemMessage"].startswith("memory-vault is being set up")
    assert "ready in about 4 minutes" in said["systemMessage"]  # before any build was timed
    (data / "build-seconds").write_text("60\n")
    assert "ready in about a minute" in launch("vault-hook", ["session-start"], env, "{}").stdout
    prompt = launch("vault-hook", ["user-prompt-submit"], env, stdin="{}")
    assert (prompt.returncode, prompt.stdout) == (0, "")  # the other events pass silently
    server = launch("vault", ["mcp"], env)
    assert server.returncode == 1
    assert "still installing" in server.stderr


def test_after_a_failed_build_hooks_wait_before_trying_again(tmp_path: Path) -> None:
    data = tmp_path / "plugin-data"
    data.mkdir()
    (data / "build-failed").touch()  # offline, say: the last build failed moments ago
    env = {"CLAUDE_PLUGIN_DATA": str(data), "CLAUDE_CONFIG_DIR": str(tmp_path / "claude")}
    start = launch("vault-hook", ["session-start"], env, stdin="{}")
    assert start.returncode == 0
    assert "could not install" in json.loads(start.stdout)["systemMessage"]
    assert not (data / "bootstrapping").exists()  # no new build started
