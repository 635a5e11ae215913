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


async def test_changelog_over_stdio(vault: Vault) -> None:
    today = datetime.now(UTC).date()  # the server runs on the real clock
    secret = "ghp_" + "a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8"
    async with Client(params(vault)) as c:
        added = await call(c, "changelog_append", text=f"Shipped auth {secret}", project="acme/api")
        assert added["entry"] == f"- {today} Shipped auth [REDACTED]"
        again = await call(c, "changelog_append", text="Fixed login", project="acme/api")
        assert again["id"] == added["id"]
        empty = await c.call_tool("changelog_append", {"text": "  "})
        assert empty.is_error
    text = Path(added["path"]).read_text()
    assert f"- {today} Shipped auth [REDACTED]\n- {today} Fixed login\n" in text
    assert secret not in text
