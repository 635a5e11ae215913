"""The MCP server driven by the SDK's real stdio client (a subprocess), and by
the MCP Inspector CLI when it is installed (`make check` installs it)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from mcp import Client, StdioServerParameters

from hooks.client.control import stop
from vault.layout import Vault
from vault.store import MemoryStore

pytestmark = [pytest.mark.model, pytest.mark.anyio]
TOOLS = {"recall", "remember", "confirm", "reinforce", "forget", "recall_cold", "revive",
         "ingest", "search_by_tag", "status", "daily_append", "prune", "daily_load",
         "periodic_load", "periodic_append", "periodic_synthesize", "access_stats", "consolidate",
         "validate", "changelog_append"}  # fmt: skip
INSPECTOR = (
    Path(__file__).resolve().parents[3] / ".tools" / "node_modules" / ".bin" / "mcp-inspector"
)


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


@pytest.fixture(autouse=True)
def _stop_spawned_daemon(vault: Vault) -> Iterator[None]:
    yield
    stop(vault)  # the server starts a warm daemon on demand


def params(vault: Vault, project: Path | None = None) -> StdioServerParameters:
    env = {"VAULT_HOME": str(vault.root), "PATH": os.environ["PATH"], "HF_HUB_OFFLINE": "1",
           "VAULT_MODEL_CACHE": os.environ["VAULT_MODEL_CACHE"],
           "VAULT_DAEMON_IDLE_SECONDS": "60",
           "CLAUDE_PROJECT_DIR": str(project or vault.root.parent)}  # fmt: skip
    return StdioServerParameters(command=sys.executable, args=["-m", "hooks.cli", "mcp"], env=env)


async def call(c: Client, tool: str, **args: Any) -> Any:
    result = await c.call_tool(tool, args)
    assert not result.is_error, result.content
    return result.structured_content


async def test_every_tool_over_stdio_changes_the_vault(vault: Vault, tmp_path: Path) -> None:
    note = tmp_path / "adr.md"
    note.write_text("# ADR 7\n\nWe chose PostgreSQL 16 for the billing service.\n")
    async with Client(params(vault)) as c:
        assert {t.name for t in (await c.list_tools()).tools} == TOOLS
        made = await call(c, "remember", text="Billing amounts are stored as integer cents.",
                          kind="decision", tags=["billing"])  # fmt: skip
        path = vault.memories_dir / f"{made['id']}.md"
        assert MemoryStore(vault).read_path(path).kind == "decision"
        found = await call(c, "recall", query="how are billing amounts stored?")
        hits = found["confident"] + found["might_be_related"]
        assert hits[0]["id"] == made["id"]
        assert (await call(c, "confirm", id=made["id"]))["confirmations"] == 1
        assert (await call(c, "reinforce", id=made["id"]))["recalls"] >= 1
        assert (await call(c, "validate", id=made["id"], up=False))["confidence"] == 0.45
        planned = await call(c, "consolidate")
        assert (planned["dry_run"], planned["run"]) == (True, None)
        tagged = await call(c, "search_by_tag", tag="billing")
        assert [m["id"] for m in tagged["memories"]] == [made["id"]]
        ingested = await call(c, "ingest", path=str(note), topic="architecture")
        assert ingested["tier"] == "curated"
        assert (await call(c, "forget", id=made["id"]))["archived"] is True
        assert not path.exists()
        cold = await call(c, "recall_cold", query="billing amounts are stored as integer cents")
        assert [h["id"] for h in cold["archived"]] == [made["id"]]
        assert (await call(c, "revive", id=made["id"]))["archived"] is False
        assert path.exists()
        logged = await call(c, "daily_append", text="reviewed billing storage; token=abc123456789")
        daily = Path(logged["file"]).read_text()
        assert "reviewed billing storage" in daily
        assert "abc123456789" not in daily
        assert (await call(c, "prune"))["dry_run"] is True
        status = await call(c, "status")
        assert status["active"]["episodic"] == 1
        assert status["active"]["curated"] == 1


async def test_bad_input_is_a_tool_error_and_the_server_survives(vault: Vault) -> None:
    async with Client(params(vault)) as c:
        for tool, args in [("confirm", {"id": "../../etc/passwd"}), ("forget", {"id": "nope"}),
                           ("recall", {"query": ""}), ("recall", {"query": 5}),
                           ("ingest", {"path": "/nonexistent/file.md"})]:  # fmt: skip
            result = await c.call_tool(tool, args)
            assert result.is_error, (tool, args)
            assert "Error executing tool" in result.content[0].text
        assert "purge" not in {t.name for t in (await c.list_tools()).tools}
        assert (await call(c, "status"))["active"]["episodic"] == 0


def test_mcp_inspector_cli_lists_tools_and_calls_recall(vault: Vault) -> None:
    assert INSPECTOR.exists(), "install it: make tools (make check does)"
    env = dict(os.environ)
    # The inspector parses options anywhere on its command line (it ate "-m" and
    # "--vault"), so the server command has none, and the vault comes in through -e.
    vault_cli = str(Path(sys.executable).with_name("vault"))
    base = [str(INSPECTOR), "--cli", vault_cli, "mcp", "-e", f"VAULT_HOME={vault.root}"]
    listed = subprocess.run([*base, "--method", "tools/list"], capture_output=True, text=True,
                            env=env, timeout=180)  # fmt: skip
    assert listed.returncode == 0, listed.stderr
    assert {t["name"] for t in json.loads(listed.stdout)["tools"]} == TOOLS
    args = ["--tool-args-json", '{"query": "pytest fixtures"}', "--format", "json"]
    called = subprocess.run([*base, "--method", "tools/call", "--tool-name", "recall", *args],
                            capture_output=True, text=True, env=env, timeout=180)  # fmt: skip
    assert called.returncode == 0, called.stderr
    assert "confident" in json.loads(called.stdout)["result"]["content"][0]["text"]


async def test_ingest_reads_only_the_project_the_vault_and_allowed_folders(
    vault: Vault, tmp_path: Path
) -> None:
    project, notes = tmp_path / "project", tmp_path / "notes"
    for folder in (project, notes):
        folder.mkdir()
        (folder / "adr.md").write_text(f"The {folder.name} folder's decision: use Postgres.\n")
    (project / "passwd.md").symlink_to("/etc/passwd")
    async with Client(params(vault, project)) as c:
        assert (await call(c, "ingest", path="adr.md"))["tier"] == "curated"  # project-relative
        for path in ("/etc/passwd", "/proc/self/environ", str(notes / "adr.md"), "passwd.md",
                     "../notes/adr.md"):  # fmt: skip
            result = await c.call_tool("ingest", {"path": path})
            assert result.is_error, path
            assert "outside the folders" in result.content[0].text or "special" in (
                result.content[0].text
            ), result.content[0].text
    vault.config_path.write_text(f'[ingest]\ningest_allowed = ["{notes}"]\n')
    async with Client(params(vault, project)) as c:
        assert (await call(c, "ingest", path=str(notes / "adr.md")))["tier"] == "curated"
    bodies = " ".join(p.read_text() for p in vault.memories_dir.glob("*.md"))
    assert "root:" not in bodies
