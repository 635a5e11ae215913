"""Cursor: `vault mcp` under `mcpServers.vault` in ~/.cursor/mcp.json (cursor.com
docs, MCP). Cursor keeps user rules in its settings, not in a file, so the
rules go into a project (`--project DIR`: DIR/.cursor/rules/memory-vault.mdc,
always applied; cursor.com/docs/rules).
"""

from __future__ import annotations

from functools import partial
from typing import Any

from hooks.agents import jsonc
from hooks.agents.edits import RULES, Edit, is_our_server
from hooks.agents.installer import Setup

NAME, TITLE = "cursor", "Cursor"
NOTES = (
    "Cursor: reload it; Settings > MCP lists the vault server. User rules live in Cursor's "
    "settings; `--project DIR` adds the rules file to a project.",
)
RULE_FILE = (
    "---\ndescription: Use the user's long-term memory (memory-vault MCP server)\n"
    "alwaysApply: true\n---\n" + RULES
)


def edits(setup: Setup) -> list[Edit]:
    found = [
        Edit(setup.home / ".cursor" / "mcp.json", "MCP server", partial(add_server, setup),
             remove_server, check_config),
    ]  # fmt: skip
    if setup.project is not None:
        rule = setup.project / ".cursor" / "rules" / "memory-vault.mdc"
        found.append(Edit(rule, "project rule", lambda _: RULE_FILE, lambda _: None, _check_rule))
    return found


def entry(setup: Setup) -> dict[str, Any]:
    return {"type": "stdio", "command": setup.vault_command, "args": ["mcp"],
            "env": setup.server_env}  # fmt: skip


def add_server(setup: Setup, text: str | None) -> str:
    current = jsonc.loads(text) if text and text.strip() else {}
    theirs = (current.get("mcpServers") or {}).get("vault") if isinstance(current, dict) else None
    if isinstance(theirs, dict) and not is_our_server(theirs.get("command"), theirs.get("args")):
        raise ValueError("mcp.json already has an MCP server named vault that is not ours")
    return jsonc.set_member(text or "", ("mcpServers",), "vault", entry(setup))


def remove_server(text: str) -> str:
    return jsonc.remove_member(text, ("mcpServers",), "vault")


def check_config(text: str) -> None:
    try:
        server = jsonc.loads(text)["mcpServers"]["vault"]
    except (ValueError, KeyError, TypeError) as exc:
        raise ValueError(f"mcp.json would not be valid for Cursor: {exc}") from exc
    if not (isinstance(server.get("command"), str) and isinstance(server.get("args"), list)):
        raise ValueError("mcpServers.vault needs a command string and an args list")


def _check_rule(text: str) -> None:
    if not text.startswith("---\n") or "alwaysApply: true" not in text:
        raise ValueError("the rule file needs its frontmatter")
