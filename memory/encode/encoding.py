"""Encoding: a memory enters the vault. `jot` writes a cheap episodic
fragment; `ingest` makes (or updates) a curated memory from a file. Both
redact secrets first (from the text and from every field, id and file name
made from it), then hand the file to `on_files_changed` (index, file, link).
"""

from __future__ import annotations

import hashlib
import unicodedata
from collections.abc import Iterable, Sequence
from datetime import datetime
from pathlib import Path
from typing import Any

from memory.context import ServiceContext
from memory.encode.redact import redact
from memory.errors import RecallError
from vault.clock import format_time, parse_time
from vault.errors import MemoryNotFoundError, VaultError
from vault.frontmatter import FrontmatterError, parse
from vault.ids import make_id, slugify, validate_id
from vault.schema import STATUS_KIND, MemoryRecord, as_strings
from vault.source_files import read_source

MAX_SOURCE_BYTES = 1_000_000  # an ingested note, with its frontmatter, stays under 1 MiB


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
    salience_dims: dict[str, float] | None = None,
    request: str = "",
) -> MemoryRecord:
    """A cheap episodic fragment (base stability 7 days; a `status`, a statement
    bounded to now, `status_stability`: 2 days). `created` is when it
    was said (a transcript's timestamp; never later than now); its strength
    starts now either way. `seq` is its place in the session (0: none given).
    `request`: a caller's id for this jot (with its `created`): asked again, the
    memory it wrote is returned and nothing is written twice."""
    service.require_vault()
    body = redact(_printable(text)).strip()
    if not body:
        raise RecallError("nothing to remember: the text is empty (or entirely private)")
    now = service.clock()
    config = service.config
    fields = {
        "topic": redact(topic),
        "tags": _tags(tags),
        "project": redact(project),
        "session": redact(session),
        **({"seq": seq} if seq > 0 else {}),
        "source": redact(source),
    }
    meta = _new_memory(min(created, now) if created else now, now, "episodic", redact(kind), fields)
    lasts = config.status_stability if kind == STATUS_KIND else config.episodic_base_stability
    meta.update(stability=lasts, salience=salience)
    if salience_dims:
        meta["salience_dims"] = salience_dims
    for attempt in range(20):
        salt = request + (str(attempt) if attempt else "")
        memory_id = make_id(body, meta["created"], salt=salt)
        meta["id"] = memory_id
        try:
            path = service.store.create(memory_id, meta, body + "\n")
        except FileExistsError:
            done = _done_before(service, memory_id, body, meta["created"]) if request else None
            if done is None:
                continue
            path = done.path
        service.on_files_changed([path])
        return service.store.read_path(path)
    raise RecallError("could not find a free id for this memory")


CHANGELOG = "changelog"  # the kind, topic, tag and source of a changelog memory


def changelog_id(project: str) -> str:
    """The id of `project`'s changelog memory ("changelog" for none): readable,
    and distinct for projects whose names slug alike."""
    if not project:
        return CHANGELOG
    digest = hashlib.sha1(project.encode("utf-8")).hexdigest()[:4]
    return f"{CHANGELOG}-{slugify(project, max_words=6)}-{digest}"


def append_changelog(service: ServiceContext, text: str, project: str = "") -> MemoryRecord:
    """Add a dated line to the project's changelog: one curated memory per project
    (memories/changelog-<project>.md), created on the first entry, indexed and
    synced like any memory. The text and project are redacted first."""
    service.require_vault()
    entry_text = " ".join(redact(_printable(text)).split())
    if not entry_text:
        raise RecallError("nothing to add: the changelog entry is empty (or entirely private)")
    project = redact(project)
    now = service.clock()
    memory_id = changelog_id(project)
    entry = f"- {now:%Y-%m-%d} {entry_text}"
    try:
        record = service.store.append_body(memory_id, entry, {"last_access": now})
    except MemoryNotFoundError:
        fields = {"topic": CHANGELOG, "tags": [CHANGELOG], "project": project, "source": CHANGELOG}
        meta = _new_memory(now, now, "curated", CHANGELOG, fields)
        meta.update(id=memory_id, stability=service.config.curated_base_stability)
        title = f"# Changelog: {project}" if project else "# Changelog"
        try:
            path = service.store.create(memory_id, meta, f"{title}\n\n{entry}\n")
            record = service.store.read_path(path)
        except FileExistsError:  # another writer created it first: add to theirs
            record = service.store.append_body(memory_id, entry, {"last_access": now})
    service.on_files_changed([record.path])
    return record


def _done_before(
    service: ServiceContext, memory_id: str, body: str, created: datetime
) -> MemoryRecord | None:
    """The memory an earlier try of the same request wrote at `memory_id` (the
    id hashes the request: same text, same `created`), else None."""
    try:
        found = service.store.read(memory_id)
    except VaultError:
        return None
    same = found.body.strip() == body and found.created == parse_time(format_time(created))
    return found if same else None


def ingest(
    service: ServiceContext,
    source: Path,
    *,
    topic: str = "",
    tags: Iterable[str] = (),
    project: str = "",
    allowed: Sequence[Path] | None = None,
) -> MemoryRecord:
    """A curated memory from a Markdown or text file; re-ingesting updates it and
    keeps the topic, tags and project not given again. `allowed`: the only
    folders the file may be in (None: anywhere but the system's special files)."""
    service.require_vault()
    source = source.expanduser().absolute()
    body, meta = _read_note(source, allowed)
    now = service.clock()
    for _ in range(3):  # another ingest may take the free id first: look again
        memory_id, existing = _ingest_slot(service, source)
        kept = existing.topic if existing else "", existing.tags if existing else ()
        changes: dict[str, Any] = {
            "topic": redact(topic or str(meta.get("topic") or "") or kept[0]),
            "tags": _tags(tags) or _tags(as_strings(meta.get("tags")) or ()) or list(kept[1]),
            "project": redact(project) or (existing.project if existing else ""),
            "source": "ingest",
            "source_path": _source_path(source),
        }
        if existing is not None:
            path = service.store.rewrite(memory_id, {**changes, "last_access": now}, body).path
            break
        fields = _new_memory(now, now, "curated", "note", changes)
        fields.update(id=memory_id, stability=service.config.curated_base_stability)
        try:
            path = service.store.create(
                memory_id, fields, body if body.endswith("\n") else body + "\n"
            )
        except FileExistsError:
            continue
        break
    else:
        raise RecallError(f"{source}: could not find a free id for this note; try again")
    service.on_files_changed([path])
    return service.store.read_path(path)


INGEST_SLOTS = 16  # ids tried per file: its stem with a 16-bit hash of the path, then salted


def _source_path(source: Path) -> str:
    return redact(str(source))


def _ingest_slot(service: ServiceContext, source: Path) -> tuple[str, MemoryRecord | None]:
    """The id for `source` and its memory when it was ingested before. Ids are
    the file stem and a short hash of the path, so two files can share one: a
    memory from another source is never replaced, the next salted id is tried."""
    stem = slugify(redact(source.stem), 8)
    candidates = []
    for attempt in range(INGEST_SLOTS):
        salted = f"{source}\n{attempt}" if attempt else str(source)
        digest = hashlib.blake2b(salted.encode(), digest_size=2).hexdigest()
        candidates.append(validate_id(f"{stem}-{digest}"))
    taken = {path.stem for path in service.vault.memory_files() if path.stem in candidates}
    for memory_id in (c for c in candidates if c in taken):
        try:
            existing = service.store.read(memory_id)
        except VaultError:
            continue  # a broken file holds the id: never written over
        if existing.source == "ingest" and existing.source_path == _source_path(source):
            return memory_id, existing
    free = next((c for c in candidates if c not in taken), None)
    if free is None:
        raise RecallError(f"{source}: every id for this note is taken; rename the file")
    return free, None


def _read_note(source: Path, allowed: Sequence[Path] | None) -> tuple[str, dict[str, Any]]:
    """The redacted body of a note and its frontmatter (empty when it has none)."""
    try:
        text = _printable(read_source(source, allowed, MAX_SOURCE_BYTES).decode("utf-8"))
    except UnicodeDecodeError as exc:
        raise RecallError(f"{source}: not UTF-8 text; only Markdown and text files") from exc
    try:
        parsed = parse(text)
        body, meta = (parsed.body if parsed.has_frontmatter else text), parsed.meta
    except FrontmatterError:
        body, meta = text, {}
    body = redact(body)
    if not body.strip():
        raise RecallError(f"{source}: the file is empty")
    return body, meta


def _printable(text: str) -> str:
    """`text`, refused when it holds a NUL or nothing but control characters."""
    if "\x00" in text:
        raise RecallError("the text contains a NUL character; send plain text")
    if text.strip() and all(unicodedata.category(c) == "Cc" or c.isspace() for c in text):
        raise RecallError("the text holds only control characters; send plain text")
    return text


def _tags(tags: Iterable[str]) -> list[str]:
    return [slugify(redact(tag), 4) for tag in tags if tag.strip()]


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
