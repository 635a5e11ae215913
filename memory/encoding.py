"""Encoding: a memory enters the vault. `jot` writes a cheap episodic
fragment; `ingest` makes (or updates) a curated memory from a file. Both
redact secrets first, index the new file, and file and link it.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable
from datetime import datetime
from pathlib import Path
from typing import Any

from memory.context import ServiceContext
from memory.errors import RecallError
from memory.redact import redact
from vault.errors import VaultError
from vault.frontmatter import FrontmatterError, parse
from vault.ids import make_id, slugify, validate_id
from vault.schema import MemoryRecord, as_strings


def jot(
    service: ServiceContext,
    text: str,
    *,
    topic: str = "",
    tags: Iterable[str] = (),
    project: str = "",
    session: str = "",
    seq: int = 0,
    kind: str = "fact",
    source: str = "jot",
    salience: float = 1.0,
    created: datetime | None = None,
) -> MemoryRecord:
    """A cheap episodic fragment (base stability 7 days). `created` is when it
    was said (a transcript's timestamp; never later than now); its strength
    starts now either way. `seq` is its place in the session (0: none given)."""
    service.require_vault()
    body = redact(text).strip()
    if not body:
        raise RecallError("nothing to remember: the text is empty (or entirely private)")
    now = service.clock()
    fields = {
        "topic": topic,
        "tags": [slugify(t, 4) for t in tags if t.strip()],
        "project": project,
        "session": session,
        **({"seq": seq} if seq > 0 else {}),
        "source": source,
    }
    meta = _new_memory(min(created, now) if created else now, now, "episodic", kind, fields)
    meta.update(stability=service.config.episodic_base_stability, salience=salience)
    for attempt in range(20):
        memory_id = make_id(body, meta["created"], salt=str(attempt) if attempt else "")
        meta["id"] = memory_id
        try:
            path = service.store.create(memory_id, meta, body + "\n")
        except FileExistsError:
            continue
        service.index.apply([path], allow_embed=service.embed_on_write)
        return _associate(service, memory_id, path)
    raise RecallError("could not find a free id for this memory")


def ingest(
    service: ServiceContext,
    source: Path,
    *,
    topic: str = "",
    tags: Iterable[str] = (),
    project: str = "",
) -> MemoryRecord:
    """A curated memory from a Markdown or text file; re-ingesting updates it."""
    service.require_vault()
    source = source.expanduser().absolute()
    body, meta = _read_note(source)
    digest = hashlib.blake2b(str(source).encode(), digest_size=2).hexdigest()
    memory_id = validate_id(f"{slugify(source.stem, 8)}-{digest}")
    now = service.clock()
    changes: dict[str, Any] = {
        "topic": topic or str(meta.get("topic") or ""),
        "tags": list(tags) or list(as_strings(meta.get("tags")) or ()),
        "project": project,
        "source": "ingest",
        "source_path": str(source),
    }
    try:
        existing: MemoryRecord | None = service.store.read(memory_id)
    except VaultError:
        existing = None
    if existing is None:
        fields = _new_memory(now, now, "curated", "note", changes)
        fields.update(id=memory_id, stability=service.config.curated_base_stability)
        text = body if body.endswith("\n") else body + "\n"
        path = service.store.create(memory_id, fields, text)
    else:
        path = service.store.rewrite(memory_id, {**changes, "last_access": now}, body).path
    service.index.apply([path], allow_embed=service.embed_on_write)
    return _associate(service, memory_id, path)


def _read_note(source: Path) -> tuple[str, dict[str, Any]]:
    """The redacted body of a note and its frontmatter (empty when it has none)."""
    if not source.is_file():
        raise RecallError(f"{source}: no such file")
    try:
        text = source.read_text(encoding="utf-8")
    except UnicodeDecodeError as exc:
        raise RecallError(f"{source}: not UTF-8 text; only Markdown and text files") from exc
    except OSError as exc:
        raise RecallError(f"{source}: cannot be read ({exc.strerror})") from exc
    try:
        parsed = parse(text)
        body, meta = (parsed.body if parsed.has_frontmatter else text), parsed.meta
    except FrontmatterError:
        body, meta = text, {}
    body = redact(body)
    if not body.strip():
        raise RecallError(f"{source}: the file is empty")
    return body, meta


def _new_memory(
    created: datetime, now: datetime, tier: str, kind: str, fields: dict[str, Any]
) -> dict[str, Any]:
    """The frontmatter of a new memory, in the order a new file lists it."""
    return {
        "id": "",
        "created": created,
        "last_access": now,
        "stability": None,
        "tier": tier,
        "kind": kind,
        **fields,
        "recalls": 0,
        "confirmations": 0,
        "salience": 1.0,
        "links": [],
    }


def _associate(service: ServiceContext, memory_id: str, path: Path) -> MemoryRecord:
    """File a new or changed memory and link it to its neighbours. Without
    vectors yet (a quick CLI jot), the sync that embeds it does both."""
    if service.embed_on_write:
        service.filer.file_new([memory_id])
        service.linker.link_new([memory_id])
    return service.store.read_path(path)
