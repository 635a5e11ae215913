"""Where Claude Code keeps its configuration: $CLAUDE_CONFIG_DIR, else
~/.claude. The one home of that rule; standard library only, so the plugin
launchers (bin/plugin_env.py) import it too, with the plugin root on sys.path.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path


def claude_dir(environ: Mapping[str, str]) -> Path:
    """The Claude config folder (settings.json, CLAUDE.md, projects/ transcripts)."""
    configured = environ.get("CLAUDE_CONFIG_DIR")
    if configured:
        return Path(configured).expanduser()
    return Path(environ.get("HOME", "~")).expanduser() / ".claude"
