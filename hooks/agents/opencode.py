"""OpenCode: `vault mcp` under `mcp.vault` (type "local", the command as a list,
`environment`) in ~/.config/opencode/opencode.json or .jsonc ($XDG_CONFIG_HOME;
opencode.ai/docs/mcp-servers), and the rules block in its global AGENTS.md
(opencode.ai/docs/rules). The file is JSONC: edited as text, comments kept.
"""

from __future__ import annotations

from functools import partial
from pathlib import Path
from typing import Any

from hooks.agents import jsonc
from hooks.agents.edits import Edit, add_block, check_block, is_our_server, remove_block
from hooks.agents.installer import Setup

NAME, TITLE = "opencode", "OpenCode"
NOTES = ("OpenCode: `opencode mcp list` shows the vault server.",)
SCHEMA = "https://opencode.ai/config.json"


def folder(setup: Setup) -> Path:
    base = setup.environ.get("XDG_CONFIG_HOME") or setup.home / ".config"
    return Path(base).expanduser() / "opencode"


def config_file(setup: Setup) -> Path:
    """The global config OpenCode reads: an existing .jsonc or config.json, else opencode.json."""
    home = folder(setup)
    for name in ("opencode.jsonc", "opencode.json", "config.json"):
        if (home / name).is_file():
            return home / name
    return home / "opencode.json"


def edits(setup: Setup) -> list[Edit]:
    return [
        Edit(config_file(setup), "MCP server", partial(add_server, setup), remove_server,
             check_config),
        Edit(folder(setup) / "AGENTS.md", "rules block", add_block, remove_block, check_block),
    ]  # fmt: skip


def entry(setup: Setup) -> dict[str, Any]:
    return {
        "type": "local",
        "command": [setup.vault_command, "mcp"],
        "environment": setup.server_env,
        "enabled": True,
    }


def add_server(setup: Setup, text: str | None) -> str:
    if not (text and text.strip()):
        text = jsonc.set_member("", (), "$schema", SCHEMA)
    theirs = (jsonc.loads(text).get("mcp") or {}).get("vault")
    if isinstance(theirs, dict) and not is_our_server(theirs.get("command")):
        raise ValueError("the OpenCode config already has an MCP server named vault, not ours")
    return jsonc.set_member(text, ("mcp",), "vault", entry(setup))


def remove_server(text: str) -> str | None:
    remaining = jsonc.remove_member(text, ("mcp",), "vault")
    if jsonc.loads(remaining) in ({"$schema": SCHEMA, "mcp": {}}, {"$schema": SCHEMA}):
        return None  # only what we wrote into a new file is left
    return remaining


def check_config(text: str) -> None:
    """OpenCode's rules (its config schema): type local, command a non-empty list."""
    try:
        server = jsonc.loads(text)["mcp"]["vault"]
    except (ValueError, KeyError, TypeError) as exc:
        raise ValueError(f"the OpenCode config would not be valid: {exc}") from exc
    command = server.get("command")
    if server.get("type") != "local" or not isinstance(command, list) or not command:
        raise ValueError("mcp.vault needs type local and command as a list (program, args)")
