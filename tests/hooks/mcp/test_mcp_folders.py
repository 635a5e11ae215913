"""The MCP `recall` tool over stdio finds a folder's documents in place, with
their path and category, keeps to a `category`, and refuses an unknown one."""

from __future__ import annotations

from pathlib import Path

import pytest
from mcp import Client

from tests.hooks.cli.test_indexed_folders import AUTH, configure
from tests.hooks.mcp.test_mcp import _stop_spawned_daemon, anyio_backend, call, params
from vault.layout import Vault

pytestmark = [pytest.mark.model, pytest.mark.anyio]
__all__ = ["_stop_spawned_daemon", "anyio_backend"]  # the fixtures, used by name


async def test_recall_tool_finds_documents_by_category(vault: Vault, tmp_path: Path) -> None:
    notes = tmp_path / "notes"
    (notes / "team").mkdir(parents=True)
    (notes / "team" / "auth.md").write_text(AUTH)
    (notes / "other.md").write_text("The zanzibar office moved to the third floor.\n")
    configure(vault, notes, (f"{notes}/team/**=project",))
    async with Client(params(vault)) as c:
        await call(c, "remember", text="The zanzibar token audit is due every quarter.")
        found = await call(c, "recall", query="zanzibar token sessions", category="project")
        hits = found["confident"] + found["might_be_related"] + found["see_also"]
        assert [(h["path"], h["category"]) for h in hits] == [
            (str(notes / "team" / "auth.md"), "project")
        ]
        refused = await c.call_tool("recall", {"query": "zanzibar", "category": "work"})
        assert refused.is_error
        assert "unknown category 'work'; known: project" in str(refused.content)
