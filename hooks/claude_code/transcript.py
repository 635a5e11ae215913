"""Read Claude Code transcripts (JSONL) incrementally. Standard library only.

From a byte offset, only complete lines are read (the last one may be
half-written). Kept: typed prompts and assistant text, with assistant replies
that stream one block per line grouped by message id. Skipped: meta and
compact-summary lines, tool calls and results, thinking, sidechains, command
and system-reminder text, and every `attachment` line (our own injected
memories, which would otherwise be captured from themselves).
"""

from __future__ import annotations

import json
import os
import stat
from dataclasses import dataclass
from pathlib import Path
from typing import Any

SKIP_PREFIXES = (
    "<command-name>",
    "<command-message>",
    "<command-args>",
    "<local-command-stdout>",
    "<local-command-caveat>",
    "<system-reminder>",
    "<task-notification>",
    "[Request interrupted by user",
    "Caveat:",
)
MAX_READ = 32 * 1024 * 1024


@dataclass(frozen=True)
class Turn:
    role: str  # user | assistant
    text: str
    uuid: str
    timestamp: str
    session: str
    cwd: str


def _text_blocks(content: Any) -> str:
    if isinstance(content, str):
        return content
    if not isinstance(content, list):
        return ""
    parts = [
        str(block.get("text", ""))
        for block in content
        if isinstance(block, dict) and block.get("type") == "text"
    ]
    return "\n".join(p for p in parts if p)


def _turn(line: dict[str, Any]) -> tuple[str, Turn] | None:
    kind = line.get("type")
    if kind not in ("user", "assistant") or line.get("isMeta") or line.get("isCompactSummary"):
        return None
    if line.get("isSidechain") or line.get("isVisibleInTranscriptOnly"):
        return None
    message = line.get("message")
    if not isinstance(message, dict):
        return None
    text = _text_blocks(message.get("content")).strip()
    if not text or text.startswith(SKIP_PREFIXES):
        return None
    key = str(message.get("id") or line.get("uuid") or "") if kind == "assistant" else ""
    turn = Turn(
        role=str(kind),
        text=text,
        uuid=str(line.get("uuid", "")),
        timestamp=str(line.get("timestamp", "")),
        session=str(line.get("sessionId", "")),
        cwd=str(line.get("cwd", "")),
    )
    return key, turn


def _no_follow(path: str, flags: int) -> int:
    """Open without following a final symbolic link or blocking on a FIFO."""
    fd = os.open(path, flags | os.O_NOFOLLOW | os.O_NONBLOCK)
    if not stat.S_ISREG(os.fstat(fd).st_mode):
        os.close(fd)
        raise OSError(f"{path}: not a regular file")
    return fd


def read_turns(path: Path, offset: int = 0) -> tuple[list[Turn], int]:
    """Turns in complete lines after `offset`, and the offset to resume from."""
    with open(path, "rb", opener=_no_follow) as handle:
        size = os.fstat(handle.fileno()).st_size
        if offset > size:
            offset = 0  # the file was replaced or truncated: start over
        handle.seek(offset)
        data = handle.read(MAX_READ)
    end = data.rfind(b"\n") + 1
    turns: list[Turn] = []
    grouped: dict[str, int] = {}
    seen: set[str] = set()
    for raw in data[:end].splitlines():
        try:
            line = json.loads(raw)
        except (ValueError, UnicodeDecodeError):
            continue
        if not isinstance(line, dict):
            continue
        found = _turn(line)
        if found is None:
            continue
        key, turn = found
        if turn.uuid and turn.uuid in seen:
            continue
        seen.add(turn.uuid)
        if key and key in grouped:  # another streamed block of the same reply
            previous = turns[grouped[key]]
            turns[grouped[key]] = Turn(
                previous.role, previous.text + "\n" + turn.text, previous.uuid,
                previous.timestamp, previous.session, previous.cwd,
            )  # fmt: skip
            continue
        if key:
            grouped[key] = len(turns)
        turns.append(turn)
    return turns, offset + end
