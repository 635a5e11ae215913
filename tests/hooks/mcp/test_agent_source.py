"""A memory saved through MCP names the agent that saved it."""

from __future__ import annotations

import os
import sys
from collections.abc import Iterator

import pytest
from mcp import Client, StdioServerParameters
from mcp.types import Implementation

from hooks.client.control import stop
from hooks.mcp.agent_source import agent_source
from vault.layout import Vault
from vault.store import MemoryStore


@pytest.mark.parametrize(
    ("environ", "client", "source"),
    [
        ({"VAULT_AGENT": "gemini"}, "gemini-cli-mcp-client", "gemini"),
        ({"VAULT_AGENT": "Codex CLI"}, None, "codex-cli"),  # the installer's word wins
        ({}, "codex-mcp-client", "codex"),
        ({}, "opencode", "opencode"),
        ({}, "claude-code", "claude"),
        ({}, "Some Editor/2", "some-editor-2"),
        ({}, None, "mcp"),
        ({"VAULT_AGENT": " "}, "", "mcp"),
    ],
)
def test_the_source_names_the_agent(environ: dict[str, str], client: str | None,
                                    source: str) -> None:  # fmt: skip
    assert agent_source(environ, client) == source


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


@pytest.fixture(autouse=True)
def _stop_spawned_daemon(vault: Vault) -> Iterator[None]:
    yield
    stop(vault)


@pytest.mark.model
@pytest.mark.anyio
async def test_remember_over_stdio_keeps_the_client_name(vault: Vault) -> None:
    env = {"VAULT_HOME": str(vault.root), "PATH": os.environ["PATH"], "HF_HUB_OFFLINE": "1",
           "VAULT_MODEL_CACHE": os.environ["VAULT_MODEL_CACHE"],
           "VAULT_DAEMON_IDLE_SECONDS": "60"}  # fmt: skip
    params = StdioServerParameters(command=sys.executable, args=["-m", "hooks.cli", "mcp"], env=env)
    codex = Implementation(name="codex-mcp-client", version="0.169.0")
    async with Client(params, client_info=codex) as c:
        result = await c.call_tool("remember", {"text": "Deploys go out on Tuesdays only."})
        assert not result.is_error, result.content
        memory_id = result.structured_content["id"]  # type: ignore[index]
    assert MemoryStore(vault).read(memory_id).source == "codex"
