"""UserPromptSubmit, end to end: stdin JSON -> daemon recall -> hook JSON.

Standard library only. When no daemon answers it starts one in the background
and answers this prompt from the FTS5 keyword index, so a prompt never waits
for a model to load. Whatever happens, it exits 0 (hook_main logs failures).
"""

from __future__ import annotations

import json
import os
from collections.abc import Mapping
from typing import Any, TextIO

from hooks import client, confirmation
from hooks.context_text import recall_context
from hooks.project import project_identity
from vault.clock import parse_time, utc_now
from vault.config import load_settings
from vault.paths import resolve_vault_home

MAX_PROMPT_CHARS = 4000


def handle(event: Mapping[str, Any], environ: Mapping[str, str]) -> dict[str, Any] | None:
    prompt = event.get("prompt")
    if not isinstance(prompt, str) or not prompt.strip():
        return None
    root = resolve_vault_home(None, environ)
    if not (root / "memories").is_dir():
        return None
    session = event.get("session_id") if isinstance(event.get("session_id"), str) else ""
    if session:
        shown = confirmation.take_shown(root, session)
        if shown and confirmation.affirms(prompt):
            confirmation.confirm(root, shown, environ)
    settings = load_settings(root / "config.toml", environ)
    cwd = event.get("cwd") if isinstance(event.get("cwd"), str) else None
    project = project_identity(cwd) or None
    now_text = environ.get("VAULT_NOW") or None
    query = prompt[:MAX_PROMPT_CHARS]
    args = {"query": query, "limit": 5, "project": project, "now": now_text}
    try:
        tiers = client.request(root, "recall_associative", args, settings["hook_timeout_seconds"])
    except client.DaemonUnavailable:
        from hooks.fallback import keyword_recall
        from memory.config import MemoryConfig

        client.spawn(root, environ)
        now = parse_time(now_text) if now_text else utc_now()
        tiers = keyword_recall(
            root / ".index" / "meta.sqlite",
            query,
            now,
            MemoryConfig.from_settings(settings),
            settings["bm25_saturation"],
            project,
        )
    activated = [str(hit["id"]) for hit in tiers.get("activated", [])]
    if session and activated:
        confirmation.remember_shown(root, session, activated)
    context = recall_context(tiers, settings["hook_context_chars"])
    if not context:
        return None
    return {
        "hookSpecificOutput": {"hookEventName": "UserPromptSubmit", "additionalContext": context}
    }


def run(stdin: TextIO, stdout: TextIO, environ: Mapping[str, str] = os.environ) -> None:
    try:
        event = json.loads(stdin.read() or "null")
    except (ValueError, UnicodeDecodeError):
        return
    if not isinstance(event, dict):
        return
    output = handle(event, environ)
    if output is not None:
        stdout.write(json.dumps(output, ensure_ascii=False) + "\n")
