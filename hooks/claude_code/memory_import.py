"""Claude Code's own memory as import items (read-only; its files stay Claude's).

Auto memory: <claude dir>/projects/<encoded git root>/memory/*.md, one fact
per file with `name`, `description` and `type` in frontmatter (newer files nest
them under `metadata:`); MEMORY.md is only its index. CLAUDE.md: each `##`
section becomes a curated memory keyed by file and heading, so a re-import
updates it; our own memory-vault block and HTML comments are left out.
"""

from __future__ import annotations

import functools
import os
import re
from collections.abc import Callable, Iterator
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from hooks.claude_code.install import END, START
from memory.importers.core import Found, ImportItem
from memory.importers.files import ImportSourceError, read_text, source_folder
from vault import frontmatter
from vault.clock import parse_time
from vault.ids import slugify
from vault.store import MAX_MEMORY_BYTES

AUTO_SOURCE, CLAUDE_MD_SOURCE = "claude-auto-memory", "claude-md"
KINDS = {"user": "preference", "feedback": "preference", "project": "fact", "reference": "fact"}
_HEADING = re.compile(r"^(#{1,2})[ \t]+(.+?)[ \t#]*$", re.MULTILINE)
_COMMENT = re.compile(r"<!--.*?-->", re.DOTALL)
_PROCEDURE = re.compile(
    r"command|build|test|run|setup|install|workflow|deploy|release|how to", re.I
)
_FACT = re.compile(r"gotcha|architecture|overview|context|about|structure|stack|layout", re.I)


def auto_memory_items(claude_dir: Path, resolve_project: Callable[[Path], str]) -> Found:
    """Every project's auto-memory files, read only inside `claude_dir` (a link
    out of it is an error, as is a file that is not UTF-8 text or larger than a
    memory may be); notes name the folders whose project could not be found on
    this machine (imported without a project)."""
    source_folder(claude_dir)
    found = Found()
    for folder in sorted((claude_dir / "projects").glob("*/memory")):
        root = decode_project_folder(folder.parent.name)
        project = resolve_project(root) if root else ""
        if root is None:
            found.notes.append(
                f"{folder}: no folder on this machine matches; imported without project"
            )
        for path in sorted(folder.glob("*.md")):
            if path.name == "MEMORY.md":
                continue
            try:
                item = _auto_item(path, claude_dir, folder.parent.name, project)
            except ImportSourceError as exc:
                found.errors.append(str(exc))
                continue
            if item is not None:
                found.items.append(item)
    return found


def _auto_item(path: Path, claude_dir: Path, folder: str, project: str) -> ImportItem | None:
    text = read_text(path, claude_dir, MAX_MEMORY_BYTES)
    try:
        parsed = frontmatter.parse(text)
    except frontmatter.FrontmatterError as exc:
        raise ImportSourceError(f"{path}: {exc}") from None
    meta = parsed.meta
    nested = meta.get("metadata")
    fields: dict[str, Any] = dict(nested) if isinstance(nested, dict) else {}
    fields.update((k, v) for k, v in meta.items() if k != "metadata")
    body = parsed.body.strip()
    if not body:
        return None
    cc_type = str(fields.get("type") or "")
    created = _time(fields.get("modified")) or datetime.fromtimestamp(
        path.stat().st_mtime, UTC
    ).replace(microsecond=0)
    extra = {k: str(fields[k]) for k in ("name", "description") if fields.get(k)}
    if cc_type:
        extra["cc_type"] = cc_type
    return ImportItem(
        key=f"{AUTO_SOURCE}:{folder}/{path.name}",
        text=body,
        created=created,
        kind=KINDS.get(cc_type, "fact"),
        project=project,
        session=str(fields.get("originSessionId") or ""),
        source=AUTO_SOURCE,
        source_path=str(path),
        tier="curated",
        extra=extra,
    )


def _time(value: object) -> datetime | None:
    try:
        return parse_time(value).replace(microsecond=0) if value else None
    except (ValueError, TypeError):
        return None


def claude_md_items(path: Path, project: str, folder: Path | None = None) -> list[ImportItem]:
    """One curated memory per section of a CLAUDE.md (inside `folder` when given);
    ImportSourceError when it cannot be read as text."""
    text = _COMMENT.sub("", _without_our_block(read_text(path, folder)))
    modified = datetime.fromtimestamp(path.stat().st_mtime, UTC).replace(microsecond=0)
    items = []
    for heading, body in sections(text):
        anchor = slugify(heading, 12) if heading else "preamble"
        items.append(
            ImportItem(
                key=f"{CLAUDE_MD_SOURCE}:{path}#{anchor}",
                text=body,
                created=modified,
                kind=section_kind(heading),
                topic=heading,
                project=project,
                source=CLAUDE_MD_SOURCE,
                source_path=f"{path}#{anchor}",
                tier="curated",
            )
        )
    return items


def _without_our_block(text: str) -> str:
    start, end = text.find(START), text.find(END)
    return text[:start] + text[end + len(END) :] if 0 <= start < end else text


def sections(text: str) -> Iterator[tuple[str, str]]:
    """(heading, body) per `#` or `##` heading (a `#` title's own text is filed
    under the title), text before any heading under ""; empty ones left out."""
    marks = list(_HEADING.finditer(text))
    bounds = [*(m.start() for m in marks), len(text)]
    lead = text[: bounds[0]].strip()
    if lead:
        yield "", lead
    for mark, end in zip(marks, bounds[1:], strict=True):
        body = text[mark.end() : end].strip()
        if body:
            yield mark.group(2).strip(), body


def section_kind(heading: str) -> str:
    if _PROCEDURE.search(heading):
        return "procedure"
    if _FACT.search(heading):
        return "fact"
    return "preference"


def decode_project_folder(name: str, limit: int = 20000) -> Path | None:
    """The existing folder whose path Claude Code encoded as `name` (every
    character outside [A-Za-z0-9] became '-'), found by trying each '-' as a
    separator or as the character it replaced, pruned to names that exist;
    None when no folder here matches."""
    parts = name.split("-")
    if not name.startswith("-") or len(parts) < 2:
        return None
    budget = [limit]

    @functools.cache
    def entries(folder: Path) -> tuple[str, ...]:
        try:
            return tuple(os.listdir(folder))
        except OSError:
            return ()

    def walk(index: int, folder: Path, current: str) -> Path | None:
        budget[0] -= 1
        if budget[0] < 0 or not any(e.startswith(current) for e in entries(folder)):
            return None
        if index == len(parts):
            return folder / current if current in entries(folder) else None
        if current in entries(folder) and (folder / current).is_dir():
            found = walk(index + 1, folder / current, parts[index])
            if found is not None:
                return found
        for joiner in ("-", ".", "_", " ") if current else (".",):
            found = walk(index + 1, folder, current + joiner + parts[index])
            if found is not None:
                return found
        return None

    found = walk(2, Path(os.sep), parts[1])
    return found if found is not None and found.is_dir() else None
