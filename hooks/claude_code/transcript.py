"""Read Claude Code transcripts (JSONL) incrementally. Standard library only.

From a byte offset, only complete lines are read (the last one may be
half-written). Kept: typed prompts and assistant text, with assistant replies
that stream one block per line grouped by message id. Skipped: meta and
compact-summary lines, tool calls and results, thinking, sidechains, command
and system-reminder text, and every `attachment` line (our own injected
memories, which would otherwise be captured from themselves).

A read is one bounded step: at most STEP_TURNS turns in about STEP_BYTES of
whole lines (one longer line is read whole, up to MAX_LINE). A line over
MAX_LINE is skipped and logged, over as many steps as it takes: the cursor
moves past it and later turns are read.
"""

from __future__ import annotations

import json
import logging
import os
import stat
from dataclasses import dataclass
from pathlib import Path
from typing import Any, BinaryIO

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
STEP_BYTES = 1024 * 1024  # of transcript per capture step (the daemon serves between steps)
STEP_TURNS = 16  # turns per step: what a step costs is mostly its statements' embeddings
MAX_LINE = 32 * 1024 * 1024  # a longer line (a pasted dump) is skipped
log = logging.getLogger(__name__)


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


def read_turns(path: Path, offset: int = 0, max_bytes: int = STEP_BYTES) -> tuple[list[Turn], int]:
    """Turns in the complete lines of one step after `offset`, and the offset to
    resume from (past a skipped line's bytes; equal to `offset` while the last
    line is still being written)."""
    with open(path, "rb", opener=_no_follow) as handle:
        size = os.fstat(handle.fileno()).st_size
        if offset > size:
            offset = 0  # the file was replaced or truncated: start over
        if offset and os.pread(handle.fileno(), 1, offset - 1) != b"\n":
            return [], _skip_rest_of_line(handle, path, offset, max_bytes)
        handle.seek(offset)
        data = handle.read(max_bytes)
        end = data.rfind(b"\n") + 1
        if not end and len(data) == max_bytes:  # one line longer than a step
            data += handle.read(MAX_LINE - len(data))
            end = data.find(b"\n") + 1
            if not end and len(data) >= MAX_LINE:
                log.warning(
                    "%s: skipping a line over %d MiB at byte %d", path, MAX_LINE >> 20, offset
                )
                return [], offset + len(data)
    turns, used = _turns(data[:end])
    return turns, offset + used


def _skip_rest_of_line(handle: BinaryIO, path: Path, offset: int, max_bytes: int) -> int:
    """The cursor is inside a line too long to read (skipped): move past its end,
    at most `max_bytes` further in this step."""
    handle.seek(offset)
    data = handle.read(max_bytes)
    end = data.find(b"\n") + 1
    if end:
        log.warning("%s: skipped the rest of an over-long line, up to byte %d", path, offset + end)
    return offset + (end or len(data))


def _turns(data: bytes) -> tuple[list[Turn], int]:
    """The turns in `data` (whole lines), at most STEP_TURNS, and the bytes used."""
    turns: list[Turn] = []
    grouped: dict[str, int] = {}
    seen: set[str] = set()
    start = 0
    while start < len(data) and len(turns) < STEP_TURNS:
        end = data.find(b"\n", start) + 1 or len(data)
        raw, start = data[start:end], end
        found = _parsed_turn(raw)
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
    return turns, start


def _parsed_turn(raw: bytes) -> tuple[str, Turn] | None:
    try:
        line = json.loads(raw)
    except (ValueError, UnicodeDecodeError):
        return None
    return _turn(line) if isinstance(line, dict) else None
