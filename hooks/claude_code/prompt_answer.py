"""What a UserPromptSubmit answers, whoever recalls: the warm daemon (hybrid
search) or the hook itself without a daemon (keywords). Standard library only.

A clear "yes" confirms the memories shown hedged on the session's previous
prompt; then recall; the hedged ids that fit in the injected text are
remembered for the next prompt; the result is the hook's output line, or ""
when nothing cleared the bars.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

from hooks.claude_code import confirmation
from hooks.claude_code.context_text import render_recall

Tiers = dict[str, list[dict[str, Any]]]


def event_fields(event: object) -> tuple[str, str, str] | None:
    """(prompt, session id, cwd) of a hook event, or None when there is no prompt."""
    if not isinstance(event, dict):
        return None
    prompt, session, cwd = event.get("prompt"), event.get("session_id"), event.get("cwd")
    if not isinstance(prompt, str) or not prompt.strip():
        return None
    return (
        prompt,
        session if isinstance(session, str) else "",
        cwd if isinstance(cwd, str) else "",
    )


def answer_prompt(
    root: Path,
    prompt: str,
    session: str,
    recall: Callable[[], Tiers],
    confirm: Callable[[list[str]], None],
    max_chars: int,
) -> str:
    if session:
        shown = confirmation.take_shown(root, session)
        if shown and confirmation.affirms(prompt):
            confirm(shown)
    tiers = recall()
    context, shown_ids = render_recall(tiers, max_chars)
    # Only hedges the person could see: a "yes" must never confirm one cut off.
    hedged = [str(hit["id"]) for hit in tiers.get("activated", []) if str(hit["id"]) in shown_ids]
    if session and hedged:
        confirmation.remember_shown(root, session, hedged)
    if not context:
        return ""
    hook = {"hookEventName": "UserPromptSubmit", "additionalContext": context}
    return json.dumps({"hookSpecificOutput": hook}, ensure_ascii=False)
