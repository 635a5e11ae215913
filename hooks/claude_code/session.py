"""SessionStart, Stop, PreCompact, SubagentStop and SessionEnd handlers.

Capture is handed to the warm daemon (it replies at once and works after
replying) or, without one, to a detached `vault capture` process, so no hook
waits for a model; a transcript outside Claude's projects/ is refused unread.
SessionStart prints a briefing, then asks for a sweep in the background.
"""

from __future__ import annotations

import json
import os
import sys
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from hooks.claude_code.project import fits, project_for
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
    request = capture_request(event, root, environ)
    if request is not None:
        _background(root, "capture", *request)


def capture_request(
    event: dict[str, Any], root: Path, environ: Mapping[str, str]
) -> tuple[dict[str, Any], list[str]] | None:
    """The daemon request and the CLI fallback that capture this event's transcript;
    None when there is none, or it is not a transcript we may read (not read then)."""
    from hooks.claude_code.config_dir import claude_dir, transcript_folders
    from vault.source_files import RefusedSourceError, check_source

    transcript = event.get("agent_transcript_path") or event.get("transcript_path")
    cwd = event.get("cwd") if isinstance(event.get("cwd"), str) else None
    if not isinstance(transcript, str) or not _paths_fit(root, transcript, cwd or ""):
        return None
    settings = load_settings(root / "config.toml", environ)
    folders = transcript_folders(environ, settings["transcripts_allowed"])
    try:
        check_source(Path(transcript), folders, "transcripts_allowed")
    except RefusedSourceError:
        return None
    session = str(event.get("session_id") or "")
    project = project_for(settings["project_override"], cwd)
    args = {
        "transcript": transcript,
        "session": session,
        "project": project,
        "claude_config_dir": str(claude_dir(environ)),
        "now": environ.get("VAULT_NOW"),
    }
    cli = ["capture", "--transcript", transcript, "--session", session, "--project", project]
    return args, cli


def _paths_fit(root: Path, *paths: str) -> bool:
    """False (logged once) when a path part is longer than a file name can be."""
    if all(fits(path) for path in paths):
        return True
    from hooks.claude_code import hook_log

    hook_log.note_once(
        root, "long-path", "dropped a hook event: a path part is over 255 characters"
    )
    return False


def session_start(environ: Mapping[str, str] = os.environ) -> None:
    event = _event()
    root = _vault_root(environ)
    if event is None or root is None:
        return
    cwd = event.get("cwd") if isinstance(event.get("cwd"), str) else None
    text = briefing(root, cwd, environ) if _paths_fit(root, cwd or "") else ""
    if text:
        output = {
            "hookSpecificOutput": {"hookEventName": "SessionStart", "additionalContext": text}
        }
        sys.stdout.write(json.dumps(output, ensure_ascii=False) + "\n")
        sys.stdout.flush()
    from hooks.claude_code.config_dir import claude_dir

    sweep_args = {"claude_config_dir": str(claude_dir(environ)), "now": environ.get("VAULT_NOW")}
    _background(root, "sweep", sweep_args, ["sweep"])


def briefing(root: Path, cwd: str | None, environ: Mapping[str, str]) -> str:
    """SessionStart's context for a session in `cwd`: the strongest memories (the
    project's first), this week's and month's notes and the recent daily log."""
    from hooks.claude_code.briefing_extras import session_briefing
    from hooks.claude_code.context_text import CLAUDE_CODE_LIMIT
    from vault.clock import parse_time, utc_now
    from vault.layout import Vault

    settings = load_settings(root / "config.toml", environ)
    now = parse_time(environ["VAULT_NOW"]) if environ.get("VAULT_NOW") else utc_now()
    project = project_for(settings["project_override"], cwd) or None
    limit = min(settings["hook_context_chars"], CLAUDE_CODE_LIMIT)
    return session_briefing(Vault(root), now, settings, project, limit)
