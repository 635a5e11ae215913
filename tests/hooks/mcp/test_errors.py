"""The MCP server tells the model why a request failed when it is the request's
fault, and logs a bug in full, answering it as an internal error."""

from __future__ import annotations

import logging

import pytest
from mcp.server.mcpserver.exceptions import ToolError

from hooks.mcp.server import Backend
from hooks.ops import table as ops
from memory.service import MemoryService
from vault.layout import Vault


def explode(service: MemoryService, args: ops.Args) -> ops.Reply:
    """An operation with a bug in it."""
    return ops.Reply({}["missing"])


def test_our_errors_are_explained_and_a_bug_is_logged(
    vault: Vault, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    backend = Backend(vault.root)
    backend._spawned = True  # no daemon answers here, and none is started: work in-process
    with pytest.raises(ToolError, match="path separators"):
        backend.call("show", {"id": "../../etc/passwd"})
    monkeypatch.setitem(ops.OPS, "explode", explode)
    with (
        caplog.at_level(logging.ERROR, logger="memory_vault.mcp"),
        pytest.raises(ToolError, match=r"^internal error: 'missing'$"),
    ):
        backend.call("explode", {})
    [record] = caplog.records
    assert record.exc_info is not None
