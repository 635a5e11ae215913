"""The daily-log and periodic-note tools over stdio, as Claude calls them: the same
operations as `vault daily` and `vault weekly|monthly|...|periodic`."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path

import pytest
from mcp import Client

from hooks.client.control import stop
from tests.hooks.mcp.test_mcp import call, params
from vault.layout import Vault
from vault.periodic import containing

pytestmark = [pytest.mark.model, pytest.mark.anyio]


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


@pytest.fixture(autouse=True)
def _stop_spawned_daemon(vault: Vault) -> Iterator[None]:
    yield
    stop(vault)


async def test_notes_over_stdio(vault: Vault) -> None:
    week = containing("weekly", datetime.now(UTC)).key  # the server runs on the real clock
    async with Client(params(vault)) as c:
        await call(c, "daily_append", text="we decided to pin ruff in CI")
        days = (await call(c, "daily_load"))["days"]
        assert "we decided to pin ruff in CI" in days[-1]["text"]
        appended = await call(c, "periodic_append", level="weekly", text="shipped auth")
        assert Path(appended["path"]).name == f"{week}.md"
        report = await call(c, "periodic_synthesize", level="weekly")
        assert report["period"] == week
        assert report["decision_lines"] == 1
        loaded = await call(c, "periodic_load", max_chars=2000)
        assert loaded["notes"] == [week]
        assert "shipped auth" in loaded["text"]
        assert "we decided to pin ruff in CI" in loaded["text"]
        assert await call(c, "access_stats") == {"memories": []}  # nothing linked or shown
        bad = await c.call_tool("periodic_append", {"level": "daily", "text": "x"})
        assert bad.is_error
        assert "level must be one of weekly" in bad.content[0].text
