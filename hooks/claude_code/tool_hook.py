"""PreToolUse / PostToolUseFailure (and PostToolUse of an edit or write, with
`push_on_success`): the push channels' hook side. Standard library only.

The raw event goes to the warm daemon (`tool_event`), which answers with the line
to print (hooks/claude_code/push.py). A tool call never waits for a cold daemon:
when one is starting, or none answers (one is then started for later), the call
is skipped. `push_channels = false` switches it off.
"""

from __future__ import annotations

import os

from hooks.client import client
from vault.config import env_overrides, load_settings
from vault.paths import vault_home

TYPE_CHECKING = False  # not typing's: this path, like the prompt's, avoids `import typing`
if TYPE_CHECKING:
    from collections.abc import Mapping
    from typing import TextIO


def run(stdin: TextIO, stdout: TextIO, environ: Mapping[str, str] = os.environ) -> None:
    try:
        raw = stdin.read()
    except (UnicodeDecodeError, ValueError):
        return
    if '"tool_name"' not in raw:
        return
    root = vault_home(None, environ)
    if not os.path.isdir(os.path.join(root, "memories")):
        return
    settings = load_settings(os.path.join(root, "config.toml"), environ)
    if not settings.push_channels or client.daemon_starting(root):
        return
    if '"PostToolUse"' in raw and not settings.push_on_success:
        return  # registered by an earlier install with the option on: it is off now
    now = environ.get("VAULT_NOW") or None
    try:
        timeout, overrides = (
            settings.hook_timeout_seconds,
            env_overrides(environ, per_call_only=True),
        )
        line = client.raw_event(root, "tool_event", raw.encode(), now, timeout, 0.0, overrides)
    except client.DaemonSlow:
        return
    except client.DaemonUnavailable:
        from pathlib import Path

        client.spawn(Path(root), environ)  # for the prompts to come; this call goes without
        return
    if line:
        stdout.write(line + "\n")
