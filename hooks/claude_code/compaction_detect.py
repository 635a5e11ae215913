"""Find compactions in a Claude Code transcript. Standard library only.

A compaction appends a `system` line with subtype `compact_boundary` (with
`compactMetadata`: trigger, preTokens, postTokens) and then a `user` line with
`isCompactSummary: true` whose parent is that boundary; either one alone (older
CLIs wrote only the summary) marks a compaction. Transcripts are append-only,
so a file that shrinks by more than 20 % was rewritten by a format we do not
know: that counts as a compaction too. Reads complete lines from a byte offset.
"""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass, replace
from pathlib import Path
from typing import Any

SIZE_DROP = 0.20
MAX_READ = 64 * 1024 * 1024


@dataclass(frozen=True)
class Compaction:
    transcript: str
    how: str  # boundary | summary | size-drop
    time: str  # when it happened (the transcript's timestamp), or when it was seen
    session: str
    cwd: str
    trigger: str = ""  # manual | auto, when the transcript says
    pre_tokens: int | None = None
    post_tokens: int | None = None
    offset: int = -1  # the byte where the compaction's first line starts
    size_before: int = 0  # bytes: the transcript before the compaction (or before the drop)
    size_after: int = 0  # bytes: after the drop (size-drop only)

    @property
    def key(self) -> str:
        """Stable across scans: the same compaction is recorded once."""
        return f"{self.how}@{self.offset}" if self.offset >= 0 else f"{self.how}:{self.time}"

    @property
    def drop_percent(self) -> float | None:
        if self.pre_tokens and self.post_tokens is not None:
            return round(100 * (1 - self.post_tokens / self.pre_tokens), 1)
        if self.how == "size-drop" and self.size_before:
            return round(100 * (1 - self.size_after / self.size_before), 1)
        return None

    def to_dict(self) -> dict[str, Any]:
        return {**asdict(self), "key": self.key, "drop_percent": self.drop_percent}


def _int(value: object) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def _from_line(path: Path, line: dict[str, Any], offset: int) -> Compaction | None:
    if line.get("type") == "system" and line.get("subtype") == "compact_boundary":
        meta = line.get("compactMetadata")
        meta = meta if isinstance(meta, dict) else {}
        found = Compaction(str(path), "boundary", "", "", "", str(meta.get("trigger", "")),
                           _int(meta.get("preTokens")), _int(meta.get("postTokens")))  # fmt: skip
    elif line.get("type") == "user" and line.get("isCompactSummary"):
        found = Compaction(str(path), "summary", "", "", "")
    else:
        return None
    return replace(
        found,
        time=str(line.get("timestamp", "")),
        session=str(line.get("sessionId", "") or path.stem),
        cwd=str(line.get("cwd", "")),
        offset=offset,
        size_before=offset,
    )


def read_compactions(
    path: Path, offset: int = 0, boundary_uuids: frozenset[str] = frozenset()
) -> tuple[list[Compaction], int, frozenset[str]]:
    """Compactions in the complete lines after `offset`, the offset to resume from,
    and the boundary uuids seen (a summary whose parent is one of them is the
    same compaction, even when a scan stopped between the two lines)."""
    with open(path, "rb") as handle:
        handle.seek(offset)
        data = handle.read(MAX_READ)
    end = data.rfind(b"\n") + 1
    found: list[Compaction] = []
    seen = set(boundary_uuids)
    position = offset
    for raw in data[:end].splitlines(keepends=True):
        start, position = position, position + len(raw)
        if b"compact" not in raw:  # cheap: most lines are not about compaction
            continue
        try:
            line = json.loads(raw)
        except (ValueError, UnicodeDecodeError):
            continue
        event = _from_line(path, line, start) if isinstance(line, dict) else None
        if event is None:
            continue
        if event.how == "boundary":
            seen.add(str(line.get("uuid", "")))
        elif str(line.get("parentUuid", "")) in seen:
            continue
        found.append(event)
    return found, offset + end, frozenset(list(seen)[-20:])


def size_drop(path: Path, before: int, after: int, now: str) -> Compaction | None:
    """A shrink of more than SIZE_DROP: the file was rewritten, compacted by a format
    this module does not recognise."""
    if before <= 0 or after >= before * (1 - SIZE_DROP):
        return None
    return Compaction(str(path), "size-drop", now, path.stem, "", size_before=before,
                      size_after=after)  # fmt: skip
