"""The real Claude Code CLI against a local stand-in for the Messages API."""
