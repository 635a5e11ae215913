"""SessionStart, Stop, PreCompact, SubagentStop and SessionEnd handlers.

Capture is handed to the warm daemon (it replies at once and works after
replying) or, without one, to a detached `vault capture` process, so no hook
waits for a model; SessionEnd's 1.5 s budget is never at risk. SessionStart
prints a briefing, then asks for a sweep (transcripts of crashed sessions,
prune when due) in the background.
"""

from __future__ import annotations

import json
import os
import sys
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from hooks.claude_code.project import project_identity
from hooks.daemon import client
from vault.config import load_settings
from vault.paths import resolve_vault_home

CAPTURE_EVENTS = ("stop", "pre-compact", "subagent-stop", "session-end")


def _event() -> dict[str, Any] | None:
    try:
        event = json.loads(sys.stdin.read() or "null")
    except (ValueError, UnicodeDecodeError):
        return None
    return event if isinstance(event, dict) else None


def _vault_root(environ: Mapping[str, str]) -> Path | None:
    root = resolve_vault_home(None, environ)
    return root if (root / "memories").is_dir() else None


def _background(root: Path, op: str, args: dict[str, Any], cli: list[str]) -> None:
    """Ask the daemon to do `op` after replying; without one, run the CLI detached."""
    try:
        client.request(root, op, args, timeout=1.0)
        return
    except (client.DaemonUnavailable, client.DaemonError):
        pass
    client.spawn(root, os.environ)
    client.run_detached(root, cli, os.environ)


def capture(event_name: str, environ: Mapping[str, str] = os.environ) -> None:
    event = _event()
    root = _vault_root(environ)
    if event is None or root is None:
        return
    transcript = event.get("agent_transcript_path") or event.get("transcript_path")
    if not isinstance(transcript, str) or not Path(transcript).is_file():
        return
    session = str(event.get("session_id") or "")
    project = project_identity(event.get("cwd") if isinstance(event.get("cwd"), str) else None)
    args = {"transcript": transcript, "session": session, "project": project,
            "now": environ.get("VAULT_NOW")}  # fmt: skip
    cli = ["capture", "--transcript", transcript, "--session", session, "--project", project]
    _background(root, "capture", args, cli)


def session_start(environ: Mapping[str, str] = os.environ) -> None:
    from hooks.claude_code.briefing_extras import session_briefing
    from hooks.claude_code.context_text import CLAUDE_CODE_LIMIT
    from vault.clock import parse_time, utc_now
    from vault.layout import Vault

    event = _event()
    root = _vault_root(environ)
    if event is None or root is None:
        return
    settings = load_settings(root / "config.toml", environ)
    now = parse_time(environ["VAULT_NOW"]) if environ.get("VAULT_NOW") else utc_now()
    cwd = event.get("cwd") if isinstance(event.get("cwd"), str) else None
    project = project_identity(cwd) or None
    limit = min(settings["hook_context_chars"], CLAUDE_CODE_LIMIT)
    text = session_briefing(Vault(root), now, settings, project, limit)
    if text:
        output = {
            "hookSpecificOutput": {"hookEventName": "SessionStart", "additionalContext": text}
        }
        sys.stdout.write(json.dumps(output, ensure_ascii=False) + "\n")
        sys.stdout.flush()
    from hooks.claude_code.config_dir import claude_dir

    sweep_args = {"claude_config_dir": str(claude_dir(environ)), "now": environ.get("VAULT_NOW")}
    _background(root, "sweep", sweep_args, ["sweep"])
