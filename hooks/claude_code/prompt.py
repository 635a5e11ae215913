"""UserPromptSubmit, end to end: stdin JSON -> daemon recall -> hook JSON.

Standard library only. A warm daemon answers at once; a busy one (a capture
step, maintenance) within BUSY_WAIT_SECONDS, else the FTS5 keyword index
answers (logged). One that is starting (SessionStart spawned it) or none at all
(this hook spawns one) is waited for within `hook_cold_wait_seconds` of the
hook's start, so the first prompt of a session gets recall by meaning too; only
past that budget do keywords answer. Whatever happens, it exits 0.
"""

from __future__ import annotations

import os
import time

from hooks.client import client
from hooks.client.protocol import MAX_PROMPT_CHARS
from vault.config import Settings, env_overrides, load_settings
from vault.paths import vault_home

TYPE_CHECKING = False  # not typing's: on the prompt hook path `import typing` adds ~23 ms
if TYPE_CHECKING:
    from collections.abc import Callable, Mapping
    from typing import TextIO

    from hooks.claude_code.prompt_answer import PromptAnswer

BUSY_WAIT_SECONDS = 2.0  # a warm daemon answers a prompt in well under a second
BUSY_NOTE = f"prompt: the daemon was busy past {BUSY_WAIT_SECONDS:.0f} s; answered from keywords"


def run(stdin: TextIO, stdout: TextIO, environ: Mapping[str, str] = os.environ) -> None:
    """The raw event goes to the daemon, which answers with the line to print."""
    started = time.monotonic()
    try:
        raw = stdin.read()
    except (UnicodeDecodeError, ValueError):
        return
    if not raw.strip() or '"prompt"' not in raw:
        return
    root = vault_home(None, environ)
    if not os.path.isdir(os.path.join(root, "memories")):
        return
    settings = load_settings(os.path.join(root, "config.toml"), environ)
    now = environ.get("VAULT_NOW") or None
    budget = started + settings.hook_cold_wait_seconds - time.monotonic()
    # A starting daemon (SessionStart spawned it) may not be listening yet and is
    # waited for; a warm but busy one gets BUSY_WAIT_SECONDS, then keywords answer.
    starting = client.daemon_starting(root)
    wait = budget if starting else 0.0
    answer_within = budget if starting else min(budget, BUSY_WAIT_SECONDS)
    later: tuple[Callable[[], None], ...] = ()
    try:
        line = client.prompt_event(
            root, raw.encode(), now, answer_within, wait,
            env_overrides(environ, per_call_only=True),
        )  # fmt: skip
    except client.DaemonSlow:  # it has the prompt and will act on it: no second confirmation
        if not starting:
            from hooks.claude_code import hook_log

            hook_log.append(root, BUSY_NOTE)
        line = keyword_answer(root, raw, settings, environ, keeps_state=False).line
    except client.DaemonUnavailable:
        line, later = cold_start(root, raw, settings, environ, started)
    if line:
        stdout.write(line + "\n")
    stdout.flush()
    for step in later:  # the writes that wait (answered here, not by the daemon)
        step()


def cold_start(
    root: str, raw: str, settings: Settings, environ: Mapping[str, str], started: float
) -> tuple[str, tuple[Callable[[], None], ...]]:
    """No daemon answered: start one and wait for it within the budget; after
    that, answer from keywords (the daemon keeps starting for the next prompt)."""
    import json
    from pathlib import Path

    from hooks.claude_code.prompt_answer import event_fields

    try:
        if event_fields(json.loads(raw)) is None:
            return "", ()  # no prompt in it: nothing to start a daemon for
    except ValueError:
        return "", ()
    client.spawn(Path(root), environ)
    budget = started + settings.hook_cold_wait_seconds - time.monotonic()
    now = environ.get("VAULT_NOW") or None
    try:
        overrides = env_overrides(
            environ, per_call_only=True
        )  # the daemon applies them to this prompt
        return client.prompt_event(root, raw.encode(), now, budget, budget, overrides), ()
    except client.DaemonSlow:
        return keyword_answer(root, raw, settings, environ, keeps_state=False).line, ()
    except client.DaemonUnavailable:
        answer = keyword_answer(root, raw, settings, environ, keeps_state=True)
        return answer.line, answer.later


def keyword_answer(
    root_text: str, raw: str, settings: Settings, environ: Mapping[str, str], keeps_state: bool
) -> PromptAnswer:
    """This prompt answered from the keyword index. `keeps_state`: also confirm
    the hedges shown before and remember the new ones, after the line is printed
    (False when a daemon already holds the prompt and will do that itself)."""
    import json
    from pathlib import Path

    from hooks.claude_code import confirmation
    from hooks.claude_code.project import project_for
    from hooks.claude_code.prompt_answer import PromptAnswer, Tiers, answer_prompt, event_fields
    from memory.config import MemoryConfig
    from memory.recall.keyword_fallback import keyword_recall
    from vault.clock import parse_time, utc_now
    from vault.layout import Vault

    try:
        fields = event_fields(json.loads(raw))
    except ValueError:
        return PromptAnswer("")
    if fields is None:
        return PromptAnswer("")
    prompt, session, cwd = fields
    root = Path(root_text)
    now_text = environ.get("VAULT_NOW")

    def recall() -> Tiers:
        return keyword_recall(
            Vault(root).configured(settings),
            prompt[:MAX_PROMPT_CHARS],
            parse_time(now_text) if now_text else utc_now(),
            MemoryConfig.from_settings(settings),
            settings.bm25_saturation,
            project_for(settings.project_override, cwd or None) or None,
            limit=settings.hook_hedged_max,  # keywords alone only hedge
            context_weight=settings.context_weight,
        )

    def confirm(ids: list[str]) -> None:
        confirmation.confirm(root, ids, environ)

    session_state = session if keeps_state else ""
    limit = settings.hook_context_chars
    return answer_prompt(root, prompt, session_state, recall, confirm, limit)
