"""SessionStart, Stop, PreCompact, SubagentStop and SessionEnd handlers.

Capture is handed to the daemon (it replies at once and works after replying;
one that is starting queues it), or to a daemon spawned with the request to do
once warm; no hook waits for a model, so SessionEnd's 1.5 s budget is never at
risk. SessionStart prints a briefing (a short one after a compaction), then
asks for a sweep (transcripts of crashed sessions, prune when due).
"""

from __future__ import annotations

import json
import os
import sys
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from hooks.claude_code.project import fits, project_for
from hooks.client import client
from vault.config import env_overrides, load_settings
from vault.paths import resolve_vault_home

CAPTURE_EVENTS = ("stop", "pre-compact", "subagent-stop", "session-end")
HAND_OFF_WAIT = 1.0  # seconds for a starting daemon to bind its socket
COMPACT_ITEMS = 3  # memories in the briefing after a compaction


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
    """Hand `op` to the daemon, or spawn one that does it once warm; when one is
    starting but not listening within HAND_OFF_WAIT, run the CLI detached."""
    wait = HAND_OFF_WAIT if client.daemon_starting(root) else 0.0
    args = {
        **args,
        "settings": env_overrides(os.environ, per_call_only=True),
    }  # for this request only
    if client.hand_off(root, op, args, wait):
        return
    if client.spawn(root, os.environ, first={"op": op, "args": args}):
        return
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
    folders = transcript_folders(environ, settings.transcripts_allowed)
    try:
        check_source(Path(transcript), folders, "transcripts_allowed")
    except RefusedSourceError:
        return None
    session = str(event.get("session_id") or "")
    project = project_for(settings.project_override, cwd)
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
    """Ask for a sweep first (on a cold machine that spawns the daemon, so it warms
    while this hook and Claude Code carry on), then print the briefing; after a
    compaction a short one: the strongest few memories, no notes or log."""
    from hooks.claude_code.config_dir import claude_dir

    event = _event()
    root = _vault_root(environ)
    if event is None or root is None:
        return
    from hooks.client.control import replace_other_version
    from vault.layout import Vault

    replace_other_version(Vault(root), timeout=5.0)  # one left running by an older install
    sweep_args = {"claude_config_dir": str(claude_dir(environ)), "now": environ.get("VAULT_NOW")}
    _background(root, "sweep", sweep_args, ["sweep"])
    cwd = event.get("cwd") if isinstance(event.get("cwd"), str) else None
    short = event.get("source") == "compact"  # the context was just summarised
    text = briefing(root, cwd, environ, short) if _paths_fit(root, cwd or "") else ""
    if text:
        output = {
            "hookSpecificOutput": {"hookEventName": "SessionStart", "additionalContext": text}
        }
        sys.stdout.write(json.dumps(output, ensure_ascii=False) + "\n")
        sys.stdout.flush()


def briefing(root: Path, cwd: str | None, environ: Mapping[str, str], short: bool = False) -> str:
    """SessionStart's context for a session in `cwd`: the strongest memories (the
    project's first), this week's and month's notes and the recent daily log;
    `short`: only the strongest few (COMPACT_ITEMS) in half the room."""
    from hooks.claude_code.briefing_extras import session_briefing
    from hooks.claude_code.context_text import CLAUDE_CODE_LIMIT
    from vault.clock import parse_time, utc_now
    from vault.layout import Vault

    settings = load_settings(root / "config.toml", environ)
    now = parse_time(environ["VAULT_NOW"]) if environ.get("VAULT_NOW") else utc_now()
    project = project_for(settings.project_override, cwd) or None
    limit = min(settings.hook_context_chars, CLAUDE_CODE_LIMIT)
    if short:
        from hooks.claude_code.context_text import briefing_text
        from memory.config import MemoryConfig
        from memory.notes.briefing import strongest

        items = strongest(root, now, MemoryConfig.from_settings(settings), project)
        return briefing_text(items[:COMPACT_ITEMS], "", limit // 2)
    from memory.consolidation.review import notice_once

    vault = Vault(root).configured(settings)  # the note folders the settings name
    notice = notice_once(vault)  # what automatic consolidation left for review, once
    text = session_briefing(vault, now, settings, project, limit - len(notice) - 2)
    if settings.llm_briefing:  # opt-in: `claude -p` rewrites it, else it stays as it is
        from hooks.claude_code.llm_briefing import model_briefing

        text = model_briefing(text, settings, vault.state_dir, environ, limit - len(notice) - 2)
    return "\n\n".join(part for part in (notice, text) if part)
