"""Files that two machines wrote at once: git conflict markers left in a memory,
and the conflict copies cloud folders make beside the original (Dropbox,
Nextcloud, Google Drive, OneDrive, iCloud, Syncthing). Both are reported as
problems, so they are never indexed (nor indexed twice) until a person merges them.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

# The three marker lines `git merge-file` leaves, in order (a diff3 `|||||||` may sit between).
_MARKERS = re.compile(r"^<{7}(?: .*)?$.*?^={7}$.*?^>{7}(?: .*)?$", re.MULTILINE | re.DOTALL)
# Stem patterns of cloud conflict copies, each capturing the original's stem.
_COPY_NAMES = (
    re.compile(
        r"^(?P<original>.+?) \([^()]*conflict[^()]*\)$", re.IGNORECASE
    ),  # Dropbox, Nextcloud
    re.compile(r"^(?P<original>.+?)\.sync-conflict-\d{8}-\d{6}(?:-[A-Z0-9]+)?$"),  # Syncthing
    re.compile(r"^(?P<original>.+?) \(\d{1,3}\)$"),  # Google Drive, OneDrive: "name (1)"
    re.compile(r"^(?P<original>.+?) \d{1,3}$"),  # iCloud: "name 2"
)
# (reason, fix) for BrokenFileError
MARKERS_REASON = (
    "unresolved merge conflict (git conflict markers <<<<<<< ======= >>>>>>>)",
    "keep one version of the marked lines, delete the markers, then run `vault sync`",
)


def has_conflict_markers(text: str) -> bool:
    return "<<<<<<<" in text and _MARKERS.search(text) is not None


def copy_original(stem: str) -> str | None:
    """The original's stem when `stem` is named like a cloud conflict copy."""
    for pattern in _COPY_NAMES:
        found = pattern.match(stem)
        if found:
            return found.group("original")
    return None


def conflict_copy_of(path: Path, meta: dict[str, Any]) -> str | None:
    """The original this file is a cloud conflict copy of, or None.

    A memory carries its id in its frontmatter, so a copy is a file whose stem
    starts with that id plus a suffix (this also catches OneDrive's
    `name-MACHINE`). A note without an id is a copy when its name follows a
    known copy pattern and the original sits in the same folder.
    """
    stem = path.stem
    memory_id = meta.get("id")
    if isinstance(memory_id, str) and memory_id:
        if memory_id != stem and stem.startswith(memory_id) and len(stem) > len(memory_id):
            return memory_id
        return None
    original = copy_original(stem)
    if original and (path.parent / f"{original}{path.suffix}").is_file():
        return original
    return None


def copy_reason(original: str) -> tuple[str, str]:
    """(reason, fix) for BrokenFileError."""
    return (
        f"a cloud-sync conflict copy of {original}.md (never indexed)",
        "merge what differs into the original, then delete this file",
    )
