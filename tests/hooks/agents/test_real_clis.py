"""The agents' own binaries read what `vault install --agent` wrote (opt-in:
set VAULT_AGENT_TOOLS to a folder holding `npm install --prefix <folder>/<tool>`
installs of @openai/codex, @google/gemini-cli and opencode-ai; ~850 MB, so
not part of `make check`). Gemini and OpenCode start `vault mcp` and connect."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from hooks.agents.catalog import AGENTS
from hooks.agents.installer import AgentInstaller, make_setup

TOOLS = Path(os.environ.get("VAULT_AGENT_TOOLS", "/nonexistent"))
pytestmark = pytest.mark.skipif(not TOOLS.is_dir(), reason="set VAULT_AGENT_TOOLS to run")
VAULT_BIN = str(Path(sys.executable).with_name("vault"))


def _installed(tmp_path: Path, agent: str) -> dict[str, str]:
    home = tmp_path / "home"
    environ = {**os.environ, "HOME": str(home), "VAULT_HOME": str(tmp_path / "vault"),
               "XDG_CONFIG_HOME": str(home / ".config"),
               "XDG_DATA_HOME": str(home / ".local" / "share"), "HF_HUB_OFFLINE": "1"}  # fmt: skip
    (tmp_path / "vault" / "memories").mkdir(parents=True)
    AgentInstaller(AGENTS[agent], make_setup(environ, agent, VAULT_BIN)).install()
    return environ


def _run(tool: str, args: list[str], environ: dict[str, str]) -> subprocess.CompletedProcess[str]:
    binary = TOOLS / tool / "node_modules" / ".bin" / tool
    return subprocess.run([str(binary), *args], capture_output=True, text=True, env=environ,
                          timeout=240, cwd=environ["HOME"])  # fmt: skip


def test_codex_reads_the_server_table(tmp_path: Path) -> None:
    environ = _installed(tmp_path, "codex")
    environ["CODEX_HOME"] = str(Path(environ["HOME"]) / ".codex")
    listed = _run("codex", ["mcp", "list", "--json"], environ)
    assert listed.returncode == 0, listed.stderr
    [server] = json.loads(listed.stdout)
    assert server["transport"]["command"] == VAULT_BIN
    assert server["transport"]["env"]["VAULT_AGENT"] == "codex"


def test_gemini_connects_to_the_server(tmp_path: Path) -> None:
    environ = _installed(tmp_path, "gemini")
    environ.update(GEMINI_CLI_HOME=environ["HOME"], GEMINI_CLI_TRUST_WORKSPACE="true")
    listed = _run("gemini", ["mcp", "list"], environ)
    said = listed.stdout + listed.stderr  # it prints the list on stderr
    assert f"vault: {VAULT_BIN} mcp (stdio) - Connected" in said
    assert "Invalid configuration" not in said


def test_opencode_connects_to_the_server(tmp_path: Path) -> None:
    environ = _installed(tmp_path, "opencode")
    listed = _run("opencode", ["mcp", "list"], environ)
    assert "vault" in listed.stdout
    assert "connected" in listed.stdout, listed.stdout + listed.stderr
