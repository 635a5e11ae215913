"""Which coding agent a memory saved through MCP came from, kept as its `source`:
$VAULT_AGENT when the agent's configuration set it (`vault install --agent`),
else the client name the agent sent in MCP's initialize request, else "mcp"."""

from __future__ import annotations

import re
from collections.abc import Mapping

# clientInfo.name as each agent sends it (seen with Codex 0.169, Gemini CLI 0.61,
# OpenCode 1.18; Claude Code and Cursor as other MCP servers report them).
CLIENT_AGENTS = {
    "claude-code": "claude",
    "codex-mcp-client": "codex",
    "gemini-cli-mcp-client": "gemini",
    "opencode": "opencode",
    "cursor-vscode": "cursor",
}
FALLBACK = "mcp"


def agent_source(environ: Mapping[str, str], client_name: str | None) -> str:
    named = _word(environ.get("VAULT_AGENT", ""))
    if named:
        return named
    if client_name:
        return CLIENT_AGENTS.get(client_name) or _word(client_name) or FALLBACK
    return FALLBACK


def _word(text: str) -> str:
    """A safe one-word source: lower case, letters, digits and dashes."""
    return re.sub(r"[^a-z0-9]+", "-", text.strip().lower()).strip("-")[:40]
