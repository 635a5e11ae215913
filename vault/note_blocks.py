"""Generated parts of a hand-editable note, kept apart from what a person writes.

A generated block sits between `<!-- vault:auto NAME DIGEST -->` and
`<!-- /vault:auto -->`; DIGEST is a hash of the block as written, so a block a
person has edited is recognised and left alone. The raw source sits below a
`---` rule and a `<!-- vault:source -->` line, and is rewritten whole. Merging
changes nothing else: every other byte of the note stays as it was.
"""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass, field

SOURCE_MARK = "<!-- vault:source"
SEPARATOR = (
    "\n\n---\n" + SOURCE_MARK + ": generated from the notes below; edits here are replaced -->\n"
)
_CLOSE = "<!-- /vault:auto -->"
_BLOCK = re.compile(
    r"^<!-- vault:auto (?P<name>[a-z][a-z0-9-]*) (?P<digest>[0-9a-f]{8}) -->\n"
    r"(?P<content>(?:(?!<!-- vault:auto )[\s\S])*?)^" + re.escape(_CLOSE) + r"$",
    re.MULTILINE,
)
_COMMENT = re.compile(r"<!--[\s\S]*?-->\n?")


def digest(content: str) -> str:
    return hashlib.sha256(content.encode("utf-8")).hexdigest()[:8]


def block(name: str, content: str) -> str:
    """A generated block holding `content` (one line or more, or nothing)."""
    if content and not content.endswith("\n"):
        content += "\n"
    return f"<!-- vault:auto {name} {digest(content)} -->\n{content}{_CLOSE}"


def split_source(text: str) -> tuple[str, str]:
    """The note above the source separator, and the separator with what follows."""
    mark = text.find("\n" + SOURCE_MARK) + 1
    if mark <= 0:
        return text, ""
    before = text[:mark]
    rule = next((r for r in ("\n\n---\n", "\n---\n") if before.endswith(r)), "\n")
    return text[: mark - len(rule)], text[mark - len(rule) :]


@dataclass(frozen=True)
class Block:
    name: str
    content: str
    edited: bool  # the content no longer matches the digest it was written with
    start: int
    end: int


def blocks(text: str) -> list[Block]:
    return [
        Block(m["name"], m["content"], digest(m["content"]) != m["digest"], m.start(), m.end())
        for m in _BLOCK.finditer(text)
    ]


@dataclass
class Merged:
    text: str
    updated: list[str] = field(default_factory=list)
    kept_edited: list[str] = field(default_factory=list)


def merge(existing: str, contents: dict[str, str], source: str) -> Merged:
    """`existing` with each unedited block named in `contents` refilled and the raw
    source replaced by `source`. Edited blocks, text outside blocks and blocks
    this run does not fill are kept byte for byte; a removed block stays removed."""
    head, _ = split_source(existing)
    merged = Merged("")
    parts, position = [], 0
    for found in blocks(head):
        parts.append(head[position : found.start])
        if found.name in contents and not found.edited:
            parts.append(block(found.name, contents[found.name]))
            merged.updated.append(found.name)
        else:
            parts.append(head[found.start : found.end])
            if found.edited:
                merged.kept_edited.append(found.name)
        position = found.end
    parts.append(head[position:])
    merged.text = "".join(parts) + SEPARATOR + "\n" + source.strip("\n") + "\n"
    return merged


def outside_blocks(text: str) -> str:
    """What a person wrote above the source: the text with generated blocks cut out."""
    head, _ = split_source(text)
    parts, position = [], 0
    for found in blocks(head):
        parts.append(head[position : found.start])
        position = found.end
    parts.append(head[position:])
    return "".join(parts)


def readable(text: str) -> str:
    """The note above its source without markers (for a briefing or a summary)."""
    head, _ = split_source(text)
    return re.sub(r"\n{3,}", "\n\n", _COMMENT.sub("", head)).strip()
