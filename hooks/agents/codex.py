"""OpenAI Codex CLI: `vault mcp` as `[mcp_servers.vault]` in $CODEX_HOME/config.toml
(default ~/.codex; openai/codex docs/config.md "MCP integration") and the rules
block in ~/.codex/AGENTS.md (docs/agents_md.md). Codex passes MCP servers only a
few environment variables, so the vault's location goes in the entry's `env`.
The table is written by hand between marker comments (no TOML writer needed)
and read back with tomllib.
"""

from __future__ import annotations

import json
import tomllib
from functools import partial
from pathlib import Path

from hooks.agents.edits import Edit, add_block, check_block, is_our_server, remove_block
from hooks.agents.installer import Setup

NAME, TITLE = "codex", "Codex CLI"
NOTES = ("Codex: restart it; `codex mcp list` shows the vault server.",)
START = "# memory-vault:start (`vault uninstall --agent codex` removes this table)"
END = "# memory-vault:end"


def folder(setup: Setup) -> Path:
    return Path(setup.environ.get("CODEX_HOME") or setup.home / ".codex").expanduser()


def edits(setup: Setup) -> list[Edit]:
    home = folder(setup)
    return [
        Edit(home / "config.toml", "MCP server", partial(add_server, setup), remove_server,
             check_config),
        Edit(home / "AGENTS.md", "rules block", add_block, remove_block, check_block),
    ]  # fmt: skip


def _toml_string(value: str) -> str:
    return json.dumps(value, ensure_ascii=False)  # a TOML basic string, same escapes


def server_table(setup: Setup) -> str:
    env = ", ".join(f"{key} = {_toml_string(value)}" for key, value in setup.server_env.items())
    return "\n".join(
        (
            START,
            "[mcp_servers.vault]",
            f"command = {_toml_string(setup.vault_command)}",
            'args = ["mcp"]',
            f"env = {{ {env} }}",
            "startup_timeout_sec = 30",
            END,
        )
    )


def add_server(setup: Setup, text: str | None) -> str:
    base = remove_server(text or "")
    servers = tomllib.loads(base).get("mcp_servers", {})
    theirs = servers.get("vault") if isinstance(servers, dict) else None
    if isinstance(theirs, dict) and not is_our_server(theirs.get("command"), theirs.get("args")):
        raise ValueError(
            "config.toml already has an [mcp_servers.vault] that is not memory-vault's; "
            "rename or remove it first"
        )
    if isinstance(theirs, dict):  # ours, written by hand or by `codex mcp add`: leave it
        return base
    if base and not base.endswith("\n"):
        base += "\n"
    return base + ("\n" if base else "") + server_table(setup) + "\n"


def remove_server(text: str) -> str:
    start, end = text.find(START), text.find(END)
    if start < 0 or end < start:
        return text
    head, tail = text[:start], text[end + len(END) :].removeprefix("\n")
    if head.endswith("\n\n"):
        head = head[:-1]
    return head + tail


def check_config(text: str) -> None:
    """Codex's own rules for a stdio server table (a bad one fails its whole config)."""
    try:
        server = tomllib.loads(text)["mcp_servers"]["vault"]
    except (tomllib.TOMLDecodeError, KeyError, TypeError) as exc:
        raise ValueError(f"config.toml would not be valid for Codex: {exc}") from exc
    env = server.get("env", {})
    if not (
        isinstance(server.get("command"), str)
        and isinstance(server.get("args", []), list)
        and isinstance(env, dict)
        and all(isinstance(v, str) for v in env.values())
    ):
        raise ValueError("[mcp_servers.vault] needs a command string, an args list, string env")
