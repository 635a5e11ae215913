"""The JSONL format, both ways: one memory per line.

Import lines: `text` (required), optional `created` (RFC 3339 with a zone, or
a date), `tags`, `project`, `kind`, `topic`, `source`, `id` (the source's own
id: with `source` it makes re-import idempotent; else the key is a hash of
text and created) and `extra` (kept under `import_extra`). `vault export`
adds a `vault` object with everything else a memory holds, so an export
imports back into the same memories, archive included.
"""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Callable, Iterator
from datetime import datetime
from typing import Any

from memory.encode.redact import redact
from memory.encode.secret_patterns import MARK
from memory.importers.core import ImportItem
from vault.clock import format_time, parse_time
from vault.errors import BrokenFileError
from vault.layout import Vault
from vault.schema import TIERS, MemoryRecord
from vault.store import MemoryStore

KEYS = {"text", "created", "tags", "project", "kind", "topic", "source", "id", "extra", "vault"}
MAX_TEXT = 20000
_CREATED = re.compile(
    r"^\d{4}-\d{2}-\d{2}([Tt ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?([Zz]|[+-]\d{2}:\d{2}))?$"
)
_TAG = re.compile(r"^[^\s,\[\]][^,\[\]]{0,63}$")
_WORD = re.compile(r"^[a-z][a-z0-9_.-]{0,31}$")


class LineError(ValueError):
    """One line that does not follow the format (the message names the field)."""


def read_lines(
    text: str, resolve_project: Callable[[str], str] = str
) -> tuple[list[ImportItem], list[str]]:
    """Items from a JSONL text and the errors of the lines that failed, by
    line number. Blank lines and lines starting with `//` are ignored."""
    items: list[ImportItem] = []
    errors: list[str] = []
    for number, line in enumerate(text.splitlines(), 1):
        if not line.strip() or line.lstrip().startswith("//"):
            continue
        try:
            data = json.loads(line)
            items.append(item_from_line(data, resolve_project))
        except json.JSONDecodeError as exc:
            errors.append(f"line {number}: not JSON ({exc.msg})")
        except LineError as exc:  # it may quote a value: never a secret
            errors.append(f"line {number}: {redact(str(exc))}")
    return items, errors


def item_from_line(data: object, resolve_project: Callable[[str], str] = str) -> ImportItem:
    if not isinstance(data, dict):
        raise LineError("each line must be a JSON object")
    unknown = sorted(set(data) - KEYS)
    if unknown:
        raise LineError(f"unknown field {unknown[0]!r} (allowed: {', '.join(sorted(KEYS))})")
    text = data.get("text")
    if not isinstance(text, str) or not text.strip():
        raise LineError("text: required, a non-empty string")
    if len(text) > MAX_TEXT:
        raise LineError(f"text: longer than {MAX_TEXT} characters")
    restore = data.get("vault")
    strict = restore is None  # our own export keeps a person's words as they are
    extra = data.get("extra") or {}
    if not isinstance(extra, dict):
        raise LineError("extra: must be an object")
    project = _string(data, "project")
    if project.startswith("/"):
        project = resolve_project(project)
    common: dict[str, Any] = {
        "text": text,
        "created": _created(data.get("created")),
        "kind": _word(data, "kind", strict) or "fact",
        "topic": _string(data, "topic"),
        "tags": _tags(data.get("tags"), strict),
        "project": project,
        "source": _word(data, "source", strict) or "import",
        "extra": extra,
    }
    if restore is not None:
        return _restored(common, _string(data, "id"), restore)
    source_id = _string(data, "id")
    if source_id:
        key = f"{common['source']}:{source_id}"
    else:
        digest = hashlib.sha256(f"{text}\n{data.get('created') or ''}".encode()).hexdigest()
        key = f"sha256:{digest[:24]}"
    return ImportItem(key=key, **common)


def _created(value: object) -> datetime | None:
    if value is None:
        return None
    if not isinstance(value, str) or not _CREATED.match(value):
        raise LineError("created: must be RFC 3339 with a zone (2026-11-29T19:36:00Z) or a date")
    return parse_time(value)


def _string(data: dict[str, Any], key: str) -> str:
    value = data.get(key, "")
    if not isinstance(value, str):
        raise LineError(f"{key}: must be a string")
    return value.strip()


def _word(data: dict[str, Any], key: str, strict: bool = True) -> str:
    value = _string(data, key)
    if strict and value and not _WORD.match(value):
        raise LineError(f"{key}: a lower-case word (letters, digits, - _ .), got {value!r}")
    return value


def _tags(value: object, strict: bool = True) -> tuple[str, ...]:
    if value is None:
        return ()
    if not isinstance(value, list) or not all(isinstance(tag, str) for tag in value):
        raise LineError("tags: must be a list of strings")
    if not strict:
        return tuple(value)
    # Redacted before lower-casing, which would hide a token's shape (AKIA...).
    tags = [redact(tag).replace(MARK, "redacted").strip().lstrip("#").lower() for tag in value]
    if len(tags) > 20 or any(not _TAG.match(tag) for tag in tags):
        raise LineError("tags: at most 20, each without commas or brackets")
    return tuple(dict.fromkeys(tags))


def _restored(common: dict[str, Any], memory_id: str, block: object) -> ImportItem:
    """A line of our own export: the same memory, every field as it was."""
    if not isinstance(block, dict) or not memory_id:
        raise LineError("vault: an object, on a line with the memory's id")
    tier = block.get("tier", "episodic")
    if tier not in TIERS:
        raise LineError(f"vault.tier: one of {', '.join(TIERS)}")
    fields = block.get("fields") or {}
    if not isinstance(fields, dict):
        raise LineError("vault.fields: must be an object")
    fields = dict(fields)
    key = str(fields.pop("import_key", memory_id))
    extra = fields.pop("import_extra", None) or common["extra"]
    if block.get("filed"):
        fields["filed"] = block["filed"]
    try:
        return ImportItem(
            **{**common, "extra": extra},
            key=key,
            memory_id=memory_id,
            restored=True,
            tier=str(tier),
            last_access=parse_time(block["last_access"]) if block.get("last_access") else None,
            stability=None if block.get("stability") is None else float(block["stability"]),
            recalls=int(block.get("recalls", 0)),
            confirmations=int(block.get("confirmations", 0)),
            salience=float(block.get("salience", 1.0)),
            links=tuple(str(link) for link in block.get("links") or ()),
            session=str(block.get("session") or ""),
            source_path=str(block.get("source_path") or ""),
            archived=bool(block.get("archived")),
            fields=fields,
        )
    except (ValueError, TypeError) as exc:
        raise LineError(f"vault: {exc}") from None


def export_line(record: MemoryRecord) -> str:
    """One memory as one JSON line (see `_restored` for the way back)."""
    line: dict[str, Any] = {
        "id": record.id,
        "text": record.body.removesuffix("\n"),
        "created": format_time(record.created),
        "kind": record.kind,
        "topic": record.topic,
        "tags": list(record.tags),
        "project": record.project,
        "source": record.source,
        "vault": {
            "tier": record.tier,
            "archived": record.archived,
            "last_access": format_time(record.last_access),
            "stability": record.stability,
            "recalls": record.recalls,
            "confirmations": record.confirmations,
            "salience": record.salience,
            "links": list(record.links),
            "session": record.session,
            "source_path": record.source_path,
            "filed": record.filed,
            "fields": record.extra,
        },
    }
    return json.dumps(line, ensure_ascii=False, default=str, sort_keys=True)


def export_lines(vault: Vault, problems: list[str] | None = None) -> Iterator[str]:
    """Every memory, active then archived, in path order; a broken file is
    listed in `problems` and left out."""
    store = MemoryStore(vault)
    for archived in (False, True):
        for path in sorted(vault.memory_files(archived=archived)):
            try:
                yield export_line(store.read_path(path))
            except BrokenFileError as exc:
                if problems is not None:
                    problems.append(str(exc))
