"""UserPromptSubmit, end to end: stdin JSON -> daemon recall -> hook JSON.

Standard library only. When no daemon answers it starts one in the background
and answers this prompt from the FTS5 keyword index, so a prompt never waits
for a model to load. Whatever happens, it exits 0 (entry.py logs failures).
"""

from __future__ import annotations

import os

from hooks.daemon import client
from hooks.daemon.protocol import MAX_PROMPT_CHARS
from vault.config import Settings, load_settings
from vault.paths import vault_home

TYPE_CHECKING = False  # not typing's: on the prompt hook path `import typing` adds ~23 ms
if TYPE_CHECKING:
    from collections.abc import Mapping
    from typing import TextIO


def run(stdin: TextIO, stdout: TextIO, environ: Mapping[str, str] = os.environ) -> None:
    """The raw event goes to the warm daemon, which answers with the line to print;
    without a daemon, one is started and this prompt is answered from keywords."""
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
    try:
        line = client.prompt_event(root, raw.encode(), now, settings["hook_timeout_seconds"])
    except client.DaemonUnavailable:
        line = without_daemon(root, raw, settings, environ)
    if line:
        stdout.write(line + "\n")


def without_daemon(root_text: str, raw: str, settings: Settings, environ: Mapping[str, str]) -> str:
    """Start a daemon in the background and answer this prompt from the keyword index."""
    import json
    from pathlib import Path

    from hooks.claude_code import confirmation
    from hooks.claude_code.project import project_identity
    from hooks.claude_code.prompt_answer import Tiers, answer_prompt, event_fields
    from memory.config import MemoryConfig
    from memory.keyword_recall import keyword_recall
    from vault.clock import parse_time, utc_now

    try:
        fields = event_fields(json.loads(raw))
    except ValueError:
        return ""
    if fields is None:
        return ""
    prompt, session, cwd = fields
    root = Path(root_text)
    client.spawn(root, environ)
    now_text = environ.get("VAULT_NOW")

    def recall() -> Tiers:
        return keyword_recall(
            root,
            prompt[:MAX_PROMPT_CHARS],
            parse_time(now_text) if now_text else utc_now(),
            MemoryConfig.from_settings(settings),
            settings["bm25_saturation"],
            project_identity(cwd or None) or None,
            context_weight=settings["context_weight"],
        )

    def confirm(ids: list[str]) -> None:
        confirmation.confirm(root, ids, environ)

    return answer_prompt(root, prompt, session, recall, confirm, settings["hook_context_chars"])
