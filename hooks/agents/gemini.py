"""Google Gemini CLI: `vault mcp` under `mcpServers.vault` in ~/.gemini/settings.json
($GEMINI_CLI_HOME moves the home folder; google-gemini/gemini-cli
docs/tools/mcp-server.md, docs/reference/configuration.md) and the rules block
in ~/.gemini/GEMINI.md. The file may hold comments (Gemini accepts them, not
trailing commas): it is edited as text, so they survive.
"""

from __future__ import annotations

import json
from functools import partial
from pathlib import Path
from typing import Any

from hooks.agents import jsonc
from hooks.agents.edits import Edit, add_block, check_block, is_our_server, remove_block
from hooks.agents.installer import Setup

NAME, TITLE = "gemini", "Gemini CLI"
NOTES = ("Gemini CLI: `gemini mcp list` shows the vault server (in a trusted folder).",)
# Gemini's settings schema ($defs.MCPServerConfig) allows these keys and no others.
SERVER_KEYS = frozenset(
    "command args env cwd url httpUrl headers tcp type timeout trust description includeTools "
    "excludeTools extension oauth authProviderType targetAudience targetServiceAccount".split()
)


def folder(setup: Setup) -> Path:
    return Path(setup.environ.get("GEMINI_CLI_HOME") or setup.home).expanduser() / ".gemini"


def edits(setup: Setup) -> list[Edit]:
    home = folder(setup)
    return [
        Edit(home / "settings.json", "MCP server", partial(add_server, setup), remove_server,
             check_settings),
        Edit(home / "GEMINI.md", "rules block", add_block, remove_block, check_block),
    ]  # fmt: skip


def entry(setup: Setup) -> dict[str, Any]:
    return {
        "command": setup.vault_command,
        "args": ["mcp"],
        "env": setup.server_env,
        "timeout": 30000,
        "description": "memory-vault: the user's long-term memory",
    }


def add_server(setup: Setup, text: str | None) -> str:
    current = (jsonc.loads(text) if text and text.strip() else None) or {}
    theirs = (current.get("mcpServers") or {}).get("vault") if isinstance(current, dict) else None
    if isinstance(theirs, dict) and not is_our_server(theirs.get("command"), theirs.get("args")):
        raise ValueError("settings.json already has an MCP server named vault that is not ours")
    return jsonc.set_member(text or "", ("mcpServers",), "vault", entry(setup))


def remove_server(text: str) -> str:
    return jsonc.remove_member(text, ("mcpServers",), "vault")


def check_settings(text: str) -> None:
    try:
        data = json.loads(jsonc.blank_comments(text))  # comments yes, trailing commas no
        server = data["mcpServers"]["vault"]
    except (ValueError, KeyError, TypeError) as exc:
        raise ValueError(f"settings.json would not be valid for Gemini CLI: {exc}") from exc
    unknown = set(server) - SERVER_KEYS
    if unknown or not isinstance(server.get("args"), list):
        raise ValueError(f"mcpServers.vault: unknown keys {sorted(unknown)} or args not a list")
