"""`vault mcp`: the memory API as MCP tools over stdio (official `mcp` SDK 2.x).

Each tool talks to the warm daemon when one answers (starting one if none
does) and otherwise runs the same operation in-process. Results are compact
and bounded; bad input is a tool error and the server never dies on it.
Stdout is the protocol: logs go to stderr. `purge` is not exposed to the
model; `ingest` reads only the project, the vault and `ingest_allowed`.
"""

from __future__ import annotations

import logging
import os
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from mcp.server.mcpserver import Context, MCPServer
from mcp.server.mcpserver.exceptions import ToolError

from hooks.client import client
from hooks.client.protocol import error_line
from hooks.mcp.agent_source import agent_source
from hooks.mcp.note_tools import add_note_tools
from hooks.ops.table import EXPECTED_ERRORS, dispatch
from memory.service import MemoryService
from vault.config import env_overrides, load_settings
from vault.indexed_folders import is_document_path
from vault.layout import Vault

log = logging.getLogger("memory_vault.mcp")
MAX_TEXT = 500
MAX_ITEMS = 20


class Backend:
    """Daemon first (spawned on demand), in-process service otherwise."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self._service: MemoryService | None = None
        self._spawned = False

    def call(self, op: str, args: dict[str, Any]) -> Any:
        if not (self.root / "memories").is_dir():
            raise ToolError(f"no vault at {self.root}; run `vault init` first")
        try:
            overrides = env_overrides(
                os.environ, per_call_only=True
            )  # the daemon applies them to this call
            request = {**args, "settings": overrides} if overrides else args
            return client.request(self.root, op, request, timeout=60)
        except client.DaemonError as exc:
            raise ToolError(str(exc)) from None
        except client.DaemonUnavailable:
            if not self._spawned:
                self._spawned = client.spawn(self.root, os.environ) or True
        try:
            return dispatch(self.service, op, args)
        except EXPECTED_ERRORS as exc:  # the request's fault: the model is told why
            raise ToolError(error_line(exc)) from None
        except Exception as exc:  # a bug: logged in full, reported as ours
            log.exception("%s crashed", op)
            raise ToolError(f"internal error: {error_line(exc)}") from None

    @property
    def service(self) -> MemoryService:
        if self._service is None:
            vault = Vault(self.root)
            settings = load_settings(vault.config_path, os.environ)
            self._service = MemoryService(vault, settings, embed_on_write=True)
        return self._service


def ingest_folders(root: Path, environ: Mapping[str, str]) -> tuple[str, list[str]]:
    """The current project (CLAUDE_PROJECT_DIR, else the server's working folder)
    and every folder MCP `ingest` may read: the project, the vault and the
    `ingest_allowed` setting's folders."""
    project = environ.get("CLAUDE_PROJECT_DIR") or os.getcwd()
    configured = load_settings(root / "config.toml", environ).ingest_allowed
    return project, [project, str(root), *(os.path.expanduser(f) for f in configured)]


def _short(text: str) -> str:
    flat = " ".join(str(text).split())
    return flat if len(flat) <= MAX_TEXT else flat[: MAX_TEXT - 1] + "…"


def _hit(hit: dict[str, Any], label: str) -> dict[str, Any]:
    shown = {
        "id": hit["id"],
        "recall": label,
        "tier": hit.get("tier"),
        "strength": hit.get("strength"),
        "age_days": hit.get("age_days"),
        "text": _short(hit.get("text", "")),
    }
    if hit.get("category"):
        shown["category"] = hit["category"]
    if is_document_path(str(hit.get("path", ""))):  # a document of a folder indexed in place
        shown["path"] = hit["path"]
    return shown


def _memory(record: dict[str, Any]) -> dict[str, Any]:
    return {
        "id": record["id"],
        "tier": record["tier"],
        "archived": record["archived"],
        "strength": record["strength"],
        "stability_days": round(float(record["stability"] or 0), 2),
        "recalls": record["recalls"],
        "confirmations": record["confirmations"],
        "text": _short(record["text"]),
    }


def _listing(item: dict[str, Any]) -> dict[str, Any]:
    return {key: item[key] for key in ("id", "tier", "strength", "last_access", "preview")}


def _client_name(ctx: Context) -> str | None:
    """The name the client gave in its initialize request (None if unknown)."""
    params = ctx.session.client_params
    return params.client_info.name if params is not None else None


def build_server(root: Path) -> MCPServer:
    backend = Backend(root)
    server = MCPServer("vault")
    _add_recall_tools(server, backend)
    _add_memory_tools(server, backend)
    _add_vault_tools(server, backend)
    add_note_tools(server, backend)
    _add_consolidation_tools(server, backend)
    return server


def _add_recall_tools(server: MCPServer, backend: Backend) -> None:
    @server.tool()
    def recall(query: str, limit: int = 5, project: str = "", topic_hint: str = "",
               exclude_topic: str = "", category: str = "") -> dict[str, Any]:  # fmt: skip
        """Search the user's long-term memory before answering questions about past
        decisions, preferences, conventions or project facts. Returns `confident`
        memories (state them as facts; they are reinforced), `might_be_related`
        ones (weak matches: mention them tentatively and ask whether they still
        apply; call `confirm` when the user says yes) and `see_also` (memories
        linked to those; background only). Each has id, tier, strength (0-1, fades
        with disuse) and age in days. topic_hint boosts a topic; exclude_topic
        leaves one out; category keeps only that category (from the user's
        category_rules). A hit with a `path` is a document of the user's own
        folders (read-only)."""
        args = {"query": query, "limit": min(limit, MAX_ITEMS), "project": project or None,
                "topic_hint": topic_hint or None, "exclude_topic": exclude_topic or None,
                "category": category or None}  # fmt: skip
        result = backend.call("recall_associative", args)
        return {
            "confident": [_hit(h, "confident") for h in result["confident"]],
            "might_be_related": [_hit(h, "might be related") for h in result["activated"]],
            "see_also": [_hit(h, "see also") for h in result.get("see_also", [])],
        }

    @server.tool()
    def recall_cold(query: str, limit: int = 5) -> dict[str, Any]:
        """Search only archived (faded or forgotten) memories; needs a specific query."""
        hits = backend.call("recall_cold", {"query": query, "limit": min(limit, MAX_ITEMS)})
        return {"archived": [_hit(h, "cold") for h in hits]}

    @server.tool()
    def search_by_tag(
        tag: str, limit: int = 10, more_tags: list[str] | None = None
    ) -> dict[str, Any]:
        """List active memories carrying a tag (or any of `more_tags`), strongest first."""
        items = backend.call("list", {"tag": tag, "tags": more_tags or []})
        return {"memories": [_listing(i) for i in items[: min(limit, MAX_ITEMS)]]}


def _add_memory_tools(server: MCPServer, backend: Backend) -> None:
    @server.tool()
    def remember(ctx: Context, text: str, kind: str = "fact", topic: str = "",
                 tags: list[str] | None = None, project: str = "") -> dict[str, Any]:  # fmt: skip
        """Save one durable statement worth remembering across sessions and projects:
        a decision, preference, convention or project fact, in one or two sentences.
        kind: preference | decision | fact | procedure. Secrets are redacted. Returns
        the new memory's id."""
        source = agent_source(os.environ, _client_name(ctx))  # which agent said it
        args = {"text": text, "kind": kind, "topic": topic, "tags": tags or [],
                "project": project, "source": source}  # fmt: skip
        record = backend.call("jot", args)
        return _memory(record)

    @server.tool()
    def confirm(id: str) -> dict[str, Any]:
        """The user confirmed that a "might be related" memory still applies: strengthen
        it (stability x2.5). Call only after an explicit yes."""
        return _memory(backend.call("confirm", {"id": id}))

    @server.tool()
    def reinforce(id: str) -> dict[str, Any]:
        """Strengthen a memory that proved useful (stability x1.5), as a recall hit does."""
        return _memory(backend.call("reinforce", {"id": id}))

    @server.tool()
    def forget(id: str) -> dict[str, Any]:
        """Archive a memory that is wrong or obsolete (reversible with `revive`)."""
        return _memory(backend.call("forget", {"id": id}))

    @server.tool()
    def revive(id: str) -> dict[str, Any]:
        """Bring an archived memory back into active memory."""
        return _memory(backend.call("revive", {"id": id}))

    @server.tool()
    def ingest(path: str, topic: str = "") -> dict[str, Any]:
        """Store a Markdown or text file as a curated memory (re-ingesting updates it).
        Only files in the current project, the vault, or folders the user listed in
        `ingest_allowed` are read."""
        project, allowed = ingest_folders(backend.root, os.environ)
        absolute = os.path.join(project, os.path.expanduser(path))  # relative: to the project
        args = {"path": absolute, "topic": topic, "allowed": allowed}
        return _memory(backend.call("ingest", args))


def _add_vault_tools(server: MCPServer, backend: Backend) -> None:
    @server.tool()
    def status() -> dict[str, Any]:
        """Counts by tier, the strength distribution, archive size, files with problems,
        last prune, and whether the warm daemon runs."""
        result = backend.call("status", {})
        result["problems"] = result.get("problems", [])[:MAX_ITEMS]
        answer = client.ping(backend.root)
        result["daemon"] = {"running": answer is not None, "pid": (answer or {}).get("pid")}
        return dict(result)

    @server.tool()
    def daily_append(text: str) -> dict[str, Any]:
        """Append a line to today's session log (daily/YYYY-MM-DD.md)."""
        return dict(backend.call("daily_append", {"text": text}))

    @server.tool()
    def prune(dry_run: bool = True) -> dict[str, Any]:
        """Archive memories that faded under the archive floor. A dry run (the default)
        only lists them; pass dry_run=false only when the user asked to prune."""
        result = backend.call("prune", {"dry_run": dry_run})
        return {"dry_run": result["dry_run"], "count": len(result["archived"]),
                "memories": [_listing(i) for i in result["archived"][:MAX_ITEMS]]}  # fmt: skip


def _add_consolidation_tools(server: MCPServer, backend: Backend) -> None:
    @server.tool()
    def consolidate(dry_run: bool = True) -> dict[str, Any]:
        """Sleep consolidation: merge groups of duplicate memories, retire facts a newer
        memory changed, compress old episodes to their gist, write recurring themes as
        patterns. A dry run (the default) only lists what would change; pass
        dry_run=false only when the user asked. Every run can be undone with
        `vault consolidate --undo RUN`."""
        result = backend.call("consolidate", {"dry_run": dry_run})
        return {"run": result["run"], "dry_run": result["dry_run"], "counts": result["counts"],
                "actions": result["actions"][:MAX_ITEMS]}  # fmt: skip

    @server.tool()
    def validate(id: str, up: bool = True) -> dict[str, Any]:
        """The user said a memory is right (up=true: confidence +0.1) or wrong
        (up=false: -0.05). Confidence moves the memory's ranking in recall."""
        record = backend.call("validate", {"id": id, "up": up})
        return {**_memory(record), "confidence": record["confidence"]}


def serve(root: Path) -> None:
    logging.basicConfig(level=logging.WARNING, format="%(levelname)s %(name)s: %(message)s")
    build_server(root).run()
