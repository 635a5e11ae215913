"""Where Claude Code keeps its configuration: $CLAUDE_CONFIG_DIR, else
~/.claude (transcripts under projects/; user-scope MCP servers in .claude.json).
The one home of that rule; standard library only, so the plugin launchers
(bin/plugin_env.py) import it too, with the plugin root on sys.path.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from pathlib import Path


def claude_dir(environ: Mapping[str, str]) -> Path:
    """The Claude config folder (settings.json, CLAUDE.md, projects/ transcripts)."""
    configured = environ.get("CLAUDE_CONFIG_DIR")
    if configured:
        return Path(configured).expanduser()
    return Path(environ.get("HOME", "~")).expanduser() / ".claude"


def transcript_folders(environ: Mapping[str, str], configured: Iterable[str]) -> list[Path]:
    """Where transcripts may be read: <claude dir>/projects, then the folders of
    the `transcripts_allowed` setting."""
    return [claude_dir(environ) / "projects", *(Path(f).expanduser() for f in configured)]


def user_config_file(environ: Mapping[str, str]) -> Path:
    """Claude Code's own state file, which holds the user-scope MCP servers:
    $CLAUDE_CONFIG_DIR/.claude.json, else ~/.claude.json."""
    configured = environ.get("CLAUDE_CONFIG_DIR")
    if configured:
        return Path(configured).expanduser() / ".claude.json"
    return Path(environ.get("HOME", "~")).expanduser() / ".claude.json"
