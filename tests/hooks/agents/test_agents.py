"""`vault install --agent NAME`: each tool's file stays valid for that tool (its
own format's parser, and the tool's own rules for an MCP entry), the person's
content and comments survive, and uninstall restores the files byte for byte."""

from __future__ import annotations

import json
import tomllib
from pathlib import Path

import pytest
from click.testing import CliRunner

from hooks.agents import gemini, jsonc
from hooks.agents.catalog import AGENTS
from hooks.agents.edits import RULES
from hooks.agents.installer import AgentInstaller, Setup, make_setup
from hooks.cli.main import main

VAULT_BIN = "/opt/memory vault/bin/vault"  # a space: quoting must hold
USER_FILES = {
    "codex": {
        ".codex/config.toml": '# my Codex settings\nmodel = "o4"\n\n[mcp_servers.docs]\n'
        'command = "docs-mcp"\nargs = []\n',
        ".codex/AGENTS.md": "# My rules\n\nBe brief.\n",
    },
    "gemini": {
        ".gemini/settings.json": '{\n  // theme first\n  "ui": {"theme": "dark"},\n'
        '  "mcpServers": {\n    "docs": {"command": "docs-mcp"}\n  }\n}\n',
        ".gemini/GEMINI.md": "Be brief.",
    },
    "opencode": {
        ".config/opencode/opencode.jsonc": '{\n  "$schema": "https://opencode.ai/config.json",\n'
        '  /* models */\n  "model": "anthropic/claude",\n}\n',
        ".config/opencode/AGENTS.md": "Be brief.\n\n",
    },
    "cursor": {".cursor/mcp.json": '{"mcpServers": {"docs": {"command": "docs-mcp"}}}\n'},
}


def _setup(home: Path, agent: str, project: Path | None = None) -> Setup:
    environ = {"HOME": str(home), "VAULT_HOME": str(home / "vault"),
               "XDG_DATA_HOME": str(home / ".local" / "share")}  # fmt: skip
    return make_setup(environ, agent, VAULT_BIN, project)


def _snapshot(home: Path) -> dict[str, bytes]:
    skip = home / ".local" / "share" / "memory-vault"  # our own ledger of what we changed
    return {str(p.relative_to(home)): p.read_bytes() for p in home.rglob("*")
            if p.is_file() and skip not in p.parents}  # fmt: skip


def _server(agent: str, home: Path) -> dict[str, object]:
    """The vault entry, read with the format's own parser, checked against the tool's rules."""
    if agent == "codex":
        server = tomllib.loads((home / ".codex/config.toml").read_text())["mcp_servers"]["vault"]
        return {"command": server["command"], "args": server["args"], "env": server["env"]}
    if agent == "gemini":
        text = (home / ".gemini/settings.json").read_text()
        server = json.loads(jsonc.blank_comments(text))["mcpServers"]["vault"]  # no trailing ,
        assert set(server) <= gemini.SERVER_KEYS
        return server  # type: ignore[no-any-return]
    if agent == "opencode":
        found = [p for p in (home / ".config/opencode").glob("opencode.json*")]
        server = jsonc.loads(found[0].read_text())["mcp"]["vault"]
        assert server["type"] == "local"
        return {"command": server["command"][0], "args": server["command"][1:],
                "env": server["environment"]}  # fmt: skip
    return json.loads((home / ".cursor/mcp.json").read_text())["mcpServers"]["vault"]  # type: ignore[no-any-return]


def _assert_kept(original: str, now: str, name: str) -> None:
    """The person's content is all still there: their data, and their comments."""
    comments = [line for line in original.splitlines() if "//" in line or "/*" in line
                or line.startswith("#")]  # fmt: skip
    assert all(line in now.splitlines() for line in comments)
    if name.endswith(".md"):
        assert now.startswith(original.rstrip("\n"))
        return
    parse = tomllib.loads if name.endswith(".toml") else jsonc.loads
    data = parse(now)
    for servers in ("mcp_servers", "mcpServers", "mcp"):
        if isinstance(data.get(servers), dict):
            data[servers].pop("vault", None)
            if not data[servers] and servers not in parse(original):
                del data[servers]
    assert data == parse(original)


@pytest.mark.parametrize("agent", sorted(AGENTS))
@pytest.mark.parametrize("with_user_files", [False, True])
def test_install_is_valid_and_uninstall_restores_every_byte(
    tmp_path: Path, agent: str, with_user_files: bool
) -> None:
    home = tmp_path / "home"
    home.mkdir()
    for relative, text in USER_FILES[agent].items() if with_user_files else ():
        (home / relative).parent.mkdir(parents=True, exist_ok=True)
        (home / relative).write_text(text)
    before = _snapshot(home)
    installer = AgentInstaller(AGENTS[agent], _setup(home, agent))
    assert any("add to" in line for line in installer.install())
    server = _server(agent, home)
    assert server["command"] == VAULT_BIN
    assert server["args"] == ["mcp"]
    assert server["env"] == {"VAULT_HOME": str(home / "vault"), "VAULT_AGENT": agent}
    rules = [p for p in home.rglob("*.md") if RULES in p.read_text()]
    assert len(rules) == (0 if agent == "cursor" else 1)
    for relative, text in USER_FILES[agent].items() if with_user_files else ():
        _assert_kept(text, (home / relative).read_text(), relative)
    again = AgentInstaller(AGENTS[agent], _setup(home, agent)).install()
    edits = [line for line in again if line.startswith(("MCP server:", "rules block:"))]
    assert edits
    assert all(": already in " in line for line in edits)
    AgentInstaller(AGENTS[agent], _setup(home, agent)).uninstall()
    assert _snapshot(home) == before
    left = [p for p in home.rglob("*") if p.is_dir() and not any(p.iterdir())
            and home / ".local" not in p.parents and p != home / ".local"]  # fmt: skip
    assert left == []  # the folders install made are gone too


def test_uninstall_after_the_person_edited_removes_only_ours(tmp_path: Path) -> None:
    home = tmp_path / "home"
    settings = home / ".gemini" / "settings.json"
    settings.parent.mkdir(parents=True)
    settings.write_text(USER_FILES["gemini"][".gemini/settings.json"])
    AgentInstaller(gemini, _setup(home, "gemini")).install()
    edited = jsonc.set_member(settings.read_text(), ("mcpServers",), "notes", {"command": "n"})
    settings.write_text(edited)
    actions = AgentInstaller(gemini, _setup(home, "gemini")).uninstall()
    assert any("edited since" in line for line in actions)
    data = jsonc.loads(settings.read_text())
    assert set(data["mcpServers"]) == {"docs", "notes"}
    assert "// theme first" in settings.read_text()
    assert not (home / ".gemini" / "GEMINI.md").exists()  # untouched since: restored (absent)


def test_a_foreign_vault_server_is_not_overwritten(tmp_path: Path) -> None:
    home = tmp_path / "home"
    config = home / ".codex" / "config.toml"
    config.parent.mkdir(parents=True)
    config.write_text('[mcp_servers.vault]\ncommand = "hashicorp-vault-mcp"\n')
    with pytest.raises(ValueError, match="not memory-vault's"):
        AgentInstaller(AGENTS["codex"], _setup(home, "codex")).install()
    assert config.read_text() == '[mcp_servers.vault]\ncommand = "hashicorp-vault-mcp"\n'


def test_cursor_rules_go_into_a_project(tmp_path: Path) -> None:
    home, project = tmp_path / "home", tmp_path / "repo"
    project.mkdir()
    AgentInstaller(AGENTS["cursor"], _setup(home, "cursor", project)).install()
    rule = project / ".cursor" / "rules" / "memory-vault.mdc"
    assert rule.read_text().startswith("---\ndescription:")
    AgentInstaller(AGENTS["cursor"], _setup(home, "cursor")).uninstall()  # no --project needed
    assert not (project / ".cursor").exists()


def test_the_cli_installs_and_uninstalls(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    home = tmp_path / "home"
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.setenv("XDG_CONFIG_HOME", str(home / ".config"))
    monkeypatch.setenv("XDG_DATA_HOME", str(home / ".local" / "share"))
    runner = CliRunner()
    dry = runner.invoke(main, ["install", "--agent", "opencode", "--dry-run"])
    assert dry.exit_code == 0, dry.output
    assert dry.stdout.startswith("would: MCP server: add to")
    assert not (home / ".config" / "opencode").exists()
    done = runner.invoke(main, ["install", "--agent", "opencode"])
    assert done.exit_code == 0, done.output
    assert (home / ".config" / "opencode" / "opencode.json").is_file()
    gone = runner.invoke(main, ["uninstall", "--agent", "opencode"])
    assert gone.exit_code == 0, gone.output
    assert not (home / ".config" / "opencode").exists()
    bad = runner.invoke(main, ["install", "--agent", "notepad"])
    assert bad.exit_code == 2
