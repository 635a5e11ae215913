"""The git merge driver for memory files (`vault merge-driver %O %A %B %P`).

The frontmatter is merged field by field first (vault/merge_rule.py) and the
merged values are written into all three versions, so those lines agree;
`git merge-file` then merges what is left, a field two people changed two
ways and the body, as git always would. The result goes
to the current version's file (%A); a real conflict stays there with markers.
"""

from __future__ import annotations

import subprocess
import tempfile
from pathlib import Path
from typing import Any

from vault import frontmatter
from vault.merge_rule import merge_rule_fields

MARKER_SIZE = 7


def merge_texts(base: str, ours: str, theirs: str) -> tuple[str, str, str]:
    """The three versions with the fields set to their merged values
    (unchanged when a version's frontmatter cannot be read)."""
    metas = [_meta(text) for text in (base, ours, theirs)]
    base_meta, our_meta, their_meta = metas
    if our_meta is None or their_meta is None:
        return base, ours, theirs
    merged = merge_rule_fields(base_meta if base.strip() else None, our_meta, their_meta)
    if not merged:
        return base, ours, theirs
    results = []
    for text, meta in zip((base, ours, theirs), metas, strict=True):
        if meta is None or not text.strip():
            results.append(text)
            continue
        try:
            results.append(frontmatter.update(text, merged))
        except frontmatter.FrontmatterError:
            results.append(text)
    return results[0], results[1], results[2]


def _meta(text: str) -> dict[str, Any] | None:
    try:
        parsed = frontmatter.parse(text)
    except frontmatter.FrontmatterError:
        return None
    return parsed.meta if parsed.has_frontmatter else None


def merge_file(
    base: Path, current: Path, other: Path, name: str, marker_size: int = MARKER_SIZE
) -> bool:
    """Merge into `current` (git's %A); True when no conflict is left."""
    base_bytes, our_bytes, their_bytes = _normalised([_read(p) for p in (base, current, other)])
    with tempfile.TemporaryDirectory(prefix="vault-merge-") as folder:
        paths = []
        for label, data in (("current", our_bytes), ("base", base_bytes), ("other", their_bytes)):
            path = Path(folder) / label
            path.write_bytes(data)
            paths.append(str(path))
        result = subprocess.run(
            ["git", "merge-file", "-p", f"--marker-size={marker_size}",
             "-L", f"{name} (this side)", "-L", f"{name} (common ancestor)",
             "-L", f"{name} (other side)", *paths],
            capture_output=True,
            check=False,
        )  # fmt: skip
    if result.returncode < 0 or result.returncode > 127:
        raise OSError(f"git merge-file failed on {name}: {result.stderr.decode(errors='replace')}")
    current.write_bytes(result.stdout)
    return result.returncode == 0


def _normalised(versions: list[bytes]) -> list[bytes]:
    """(base, ours, theirs) with the fields merged; untouched if not UTF-8."""
    try:
        texts = [data.decode("utf-8") for data in versions]
    except UnicodeDecodeError:
        return versions
    return [text.encode("utf-8") for text in merge_texts(texts[0], texts[1], texts[2])]


def _read(path: Path) -> bytes:
    """A version's bytes; empty when git passed no file (both sides added it)."""
    try:
        return path.read_bytes()
    except FileNotFoundError:
        return b""
