"""Every way in from outside, one sub-package per role: claude_code/ (the hooks
Claude Code runs, capture, the installer), daemon/ (the warm server and its
stdlib client), cli/ (the `vault` command) and mcp/ (the MCP server).
"""
