"""The MCP server: the memory's tools for Claude Code over stdio."""
