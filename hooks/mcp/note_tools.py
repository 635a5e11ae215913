"""The MCP tools for daily logs and periodic notes: the same daemon operations
as `vault daily` and `vault weekly|monthly|quarterly|yearly|periodic`, and
`access_stats` (`vault access-stats`: what periodic links and appearances in
results add to each memory's ranking)."""

from __future__ import annotations

from typing import Any, Protocol

from mcp.server.mcpserver import MCPServer


class Caller(Protocol):
    def call(self, op: str, args: dict[str, Any]) -> Any: ...


def add_note_tools(server: MCPServer, backend: Caller) -> None:
    @server.tool()
    def daily_load() -> dict[str, Any]:
        """Today's and yesterday's session logs (daily/YYYY-MM-DD.md): what happened
        recently, in the user's own words and the capture's."""
        return dict(backend.call("daily_load", {}))

    @server.tool()
    def periodic_load(max_chars: int = 3000) -> dict[str, Any]:
        """This week's and this month's notes (decisions, preferences, what was worked
        on, open threads), without their raw source, within max_chars."""
        return dict(backend.call("periodic_load", {"max_chars": max(200, min(max_chars, 10000))}))

    @server.tool()
    def periodic_append(level: str, text: str, period: str = "") -> dict[str, Any]:
        """Add a dated line to a periodic note (level: weekly | monthly | quarterly |
        yearly; period e.g. 2027-W05, default the current one). Use it when the user
        asks to note something for the week or month."""
        args = {"level": level, "text": text, "period": period or None}
        return dict(backend.call("periodic_append", args))

    @server.tool()
    def periodic_synthesize(level: str, period: str = "") -> dict[str, Any]:
        """Fill a periodic note from the level below (a week from its daily logs, a
        month from its weeks, ...): decisions, preferences, work per project and open
        threads, with [[id]] links to memories. Hand-written text is kept."""
        args = {"level": level, "period": period or None}
        return dict(backend.call("periodic_synthesize", args))

    @server.tool()
    def changelog_append(text: str, project: str = "") -> dict[str, Any]:
        """Add a dated line to the project's changelog ("Shipped the new auth flow"):
        use it when the user says something shipped, was released or was finished.
        Secrets are redacted. Returns the line and the changelog memory's id."""
        return dict(backend.call("changelog_append", {"text": text, "project": project}))

    @server.tool()
    def access_stats() -> dict[str, Any]:
        """Per memory: appearances in results within the window (retrieval boost),
        the periodic levels linking it (consolidation bonus), evergreen, salience."""
        return {"memories": list(backend.call("access_stats", {}))}
