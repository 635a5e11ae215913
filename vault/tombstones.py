"""The purge list: `.purged` at the vault root, one line per purged memory,
so a purge wins over an edit another machine made meanwhile (sync deletes the
memory again and says so). Git carries it and merges it as a union.

A line holds digests, never the id or the text (an id carries words of the
memory, and a purge is often of a secret): the id's, and the id's with its
`created` time, so a memory written later under the same id is not refused.
"""

from __future__ import annotations

import hashlib
from datetime import datetime
from pathlib import Path

from vault import frontmatter
from vault.atomic import atomic_write, file_lock
from vault.clock import format_time

TOMBSTONES = ".purged"
HEADER = "# memory-vault: purged memories (digests only); `vault sync` keeps them deleted\n"


def _digest(*parts: str) -> str:
    return hashlib.sha256("\0".join(parts).encode("utf-8")).hexdigest()[:32]


def created_of(text: str) -> str:
    """A memory file's `created` as written, "" when it has none or does not parse."""
    try:
        value = frontmatter.parse(text).meta.get("created")
    except frontmatter.FrontmatterError:
        return ""
    return "" if value is None else frontmatter.render_value(value)


def record(root: Path, memory_id: str, created: str, now: datetime) -> None:
    """Add a purge to the list (`created` "" when unknown: the id alone then)."""
    path = root / TOMBSTONES
    with file_lock(root / ".index" / "locks" / "purged.lock"):
        old = path.read_text(encoding="utf-8") if path.exists() else HEADER
        line = f"{_digest(memory_id)} {_digest(memory_id, created)} {format_time(now)}\n"
        atomic_write(path, (old if old.endswith("\n") else old + "\n").encode() + line.encode())


class PurgeList:
    """The purges recorded in a vault, read once."""

    def __init__(self, root: Path) -> None:
        self.ids: set[str] = set()
        self.versions: set[str] = set()
        try:
            lines = (root / TOMBSTONES).read_text(encoding="utf-8").splitlines()
        except (FileNotFoundError, UnicodeDecodeError):
            lines = []
        for line in lines:
            fields = line.split()
            if len(fields) >= 2 and not line.startswith("#"):
                self.ids.add(fields[0])
                self.versions.add(fields[1])

    def __bool__(self) -> bool:
        return bool(self.ids)

    def refuses(self, memory_id: str, text: str) -> bool:
        """Whether this file is a memory that was purged (the same id and created
        time, or the same id when the purge could not read its created time)."""
        if _digest(memory_id) not in self.ids:
            return False
        return bool({_digest(memory_id, created_of(text)), _digest(memory_id, "")} & self.versions)
