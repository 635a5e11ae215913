"""Every MCP tool that takes a memory id refuses `..`, absolute paths and NUL
bytes as a tool error (through the SDK's real stdio client), reads and writes
nothing for them, and the server keeps answering."""

from __future__ import annotations

import os

import pytest
from mcp import Client

from tests.hooks.mcp.test_mcp import _stop_spawned_daemon, anyio_backend, call, params
from vault.layout import Vault

pytestmark = [pytest.mark.model, pytest.mark.anyio]
__all__ = ["_stop_spawned_daemon", "anyio_backend"]  # fixtures used from test_mcp
ID_TOOLS = [("confirm", {}), ("reinforce", {}), ("forget", {}), ("revive", {}),
            ("validate", {"up": True})]  # fmt: skip
BAD_IDS = ["..", "../../etc/passwd", "/etc/passwd", "a\x00b", "\x00", "memories/../x"]


async def test_every_id_tool_refuses_traversal_absolute_and_nul_ids(vault: Vault) -> None:
    outside = vault.root.parent / "passwd.md"
    outside.write_text("---\nid: passwd\n---\nnot a memory of ours\n")
    before = outside.stat()
    async with Client(params(vault)) as c:
        for tool, extra in ID_TOOLS:
            for bad in BAD_IDS:
                result = await c.call_tool(tool, {"id": bad, **extra})
                assert result.is_error, (tool, bad)
                text = result.content[0].text
                assert "invalid memory id" in text or "path separators" in text, (tool, text)
        for path in ("\x00", "a\x00b.md", "../../etc/passwd", "/etc/passwd"):
            assert (await c.call_tool("ingest", {"path": path})).is_error, path
        assert (await c.call_tool("remember", {"text": "\x00"})).is_error
        assert (await call(c, "status"))["active"]["episodic"] == 0  # still answering
    assert outside.stat().st_mtime_ns == before.st_mtime_ns
    assert os.listdir(vault.memories_dir) == []
