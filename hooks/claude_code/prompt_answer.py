"""What a UserPromptSubmit answers, whoever recalls: the warm daemon (hybrid
search) or the hook itself without a daemon (keywords). Standard library only.

A clear "yes" confirms the memories shown hedged on the session's previous
prompt; then recall; the hedged ids that fit in the injected text are
remembered for the next prompt; the result is the hook's output line, or ""
when nothing cleared the bars, and the writes that can wait: confirming and the
shown state run after the line is out (the daemon's reply steps, or the hook's
own process once it has printed), so no prompt waits on a file write.
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


class PromptAnswer:
    """The hook's output line (or "") and the writes that wait until it is out:
    confirming what a "yes" affirmed, and the session's shown state."""

    __slots__ = ("later", "line")

    def __init__(self, line: str, later: tuple[Callable[[], None], ...] = ()) -> None:
        self.line, self.later = line, later


def answer_prompt(
    root: Path,
    prompt: str,
    session: str,
    recall: Callable[[], Tiers],
    confirm: Callable[[list[str]], None],
    max_chars: int,
) -> PromptAnswer:
    before = confirmation.previous(root, session) if session else None
    tiers = recall()
    context, shown_ids = render_recall(tiers, max_chars)
    # Only hedges the person could see: a "yes" must never confirm one cut off.
    hedged = [str(hit["id"]) for hit in tiers.get("activated", []) if str(hit["id"]) in shown_ids]
    later: tuple[Callable[[], None], ...] = ()
    if session and before is not None:
        at = confirmation.note(root, session, hedged)
        if before.ids or hedged:
            affirmed = bool(before.ids) and confirmation.affirms(prompt)
            later = (lambda: _settle(root, session, before, hedged, at, affirmed, confirm),)
    if not context:
        return PromptAnswer("", later)
    hook = {"hookEventName": "UserPromptSubmit", "additionalContext": context}
    return PromptAnswer(json.dumps({"hookSpecificOutput": hook}, ensure_ascii=False), later)


def _settle(
    root: Path,
    session: str,
    before: confirmation.Shown,
    hedged: list[str],
    at: float,
    affirmed: bool,
    confirm: Callable[[list[str]], None],
) -> None:
    """After the reply: the shown state written, then what the "yes" took confirmed."""
    taken = confirmation.settle(root, session, before, hedged, at)
    if affirmed and taken:
        confirm(taken)
