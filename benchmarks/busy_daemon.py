"""A large transcript under projects/ and the warm daemon: capture in steps of
at most STEP_BYTES of transcript, and prompt hooks answered meanwhile within
the busy budget (from keywords past it). `write_transcript` makes the file."""

from __future__ import annotations

import json
from pathlib import Path

# What a long session's bytes are mostly made of: tool results (file contents,
# command output) with a few typed prompts and replies between them.
FILLER = "def handler(event):\n    return process(event['records'])  # batch " * 40


def write_transcript(path: Path, megabytes: float, session: str = "big-session") -> int:
    """A Claude Code transcript of about `megabytes` MB; returns its size in bytes."""
    target = int(megabytes * 1_000_000)
    path.parent.mkdir(parents=True, exist_ok=True)
    written, n = 0, 0
    with path.open("w", encoding="utf-8") as out:
        while written < target:
            out.write(_line(n, session))
            written = out.tell()
            n += 1
    return written


def _line(n: int, session: str) -> str:
    base = {"sessionId": session, "cwd": "/home/dev/api", "uuid": f"u{n}",
            "timestamp": "2026-11-02T10:00:00Z"}  # fmt: skip
    if n % 50 == 0:
        text = f"We decided to run the nightly export {n} at 02:00 because the replica is idle."
        return json.dumps({**base, "type": "user", "message": {"content": text}}) + "\n"
    if n % 50 == 1:
        text = f"Noted: export {n} runs at 02:00 against the replica."
        content = [{"type": "text", "text": text}]
        message = {"id": f"m{n}", "content": content}
        return json.dumps({**base, "type": "assistant", "message": message}) + "\n"
    result = {"type": "tool_result", "tool_use_id": f"t{n}", "content": FILLER}
    return json.dumps({**base, "type": "user", "message": {"content": [result]}}) + "\n"
