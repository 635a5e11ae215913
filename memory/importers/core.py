"""Importing memories, whatever the source: each format's reader turns its
records into `ImportItem`s; `import_items` writes them as memory files.

Idempotent: every item has a stable key in its source, kept in the memory's
`import_key` field, so a second run finds it again and changes nothing (or
updates what the source changed: text, kind, topic, tags, project). What the
vault learned since (recalls, stability, last access, links) is never reset.
A new item whose text some memory already holds is a duplicate, not written.
The caller then syncs the index, which files and links what was created.
"""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, replace
from datetime import datetime
from pathlib import Path
from typing import Any

from memory.config import MemoryConfig
from memory.encode.redact import redact, redact_fields
from vault import frontmatter
from vault.clock import Clock
from vault.errors import InvalidIdError, VaultError
from vault.ids import make_id, validate_id
from vault.layout import Vault
from vault.schema import MemoryRecord
from vault.store import MAX_MEMORY_BYTES, MemoryStore

KEY_FIELD = "import_key"
EXTRA_FIELD = "import_extra"
_KEY_LINE = re.compile(r"^import_key:[ \t]*(.+?)[ \t]*$", re.MULTILINE)


@dataclass(frozen=True)
class ImportItem:
    key: str  # stable identity in the source
    text: str
    created: datetime | None = None
    kind: str = "fact"
    topic: str = ""
    tags: tuple[str, ...] = ()
    project: str = ""
    source: str = "import"
    session: str = ""
    source_path: str = ""
    tier: str = "episodic"
    last_access: datetime | None = None
    stability: float | None = None  # None: the tier's base, raised by recalls
    recalls: int = 0
    confirmations: int = 0
    salience: float = 1.0
    links: tuple[str, ...] = ()
    archived: bool = False
    extra: Mapping[str, Any] = field(default_factory=dict)  # -> import_extra
    memory_id: str = ""  # our own id, when the source is a memory-vault export
    restored: bool = False  # a memory-vault export: every field exactly as it was
    fields: Mapping[str, Any] = field(default_factory=dict)  # other keys, kept verbatim


@dataclass
class Found:
    """What a format reader found: the items, notes worth a line (an item
    imported without its project), and errors (a file or record not imported:
    the run goes on and exits 1)."""

    items: list[ImportItem] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)

    def add(self, other: Found) -> None:
        self.items += other.items
        self.notes += other.notes
        self.errors += other.errors


@dataclass
class ImportReport:
    created: list[str] = field(default_factory=list)
    updated: list[str] = field(default_factory=list)
    skipped: list[str] = field(default_factory=list)  # already there, unchanged
    duplicates: list[tuple[str, str]] = field(default_factory=list)  # (key, memory id)
    errors: list[str] = field(default_factory=list)

    def summary(self) -> str:
        line = (
            f"created {len(self.created)}, updated {len(self.updated)}, "
            f"skipped {len(self.skipped) + len(self.duplicates)} "
            f"({len(self.duplicates)} duplicates)"
        )
        return line + (f", {len(self.errors)} errors" if self.errors else "")

    def to_dict(self) -> dict[str, Any]:
        return {
            "created": self.created,
            "updated": self.updated,
            "skipped": self.skipped,
            "duplicates": [{"key": k, "memory": m} for k, m in self.duplicates],
            "errors": self.errors,
        }


def normalised_text(text: str) -> str:
    """What makes two texts the same memory: words, case and spacing aside."""
    return " ".join(text.lower().split())


@dataclass
class _Known:
    by_key: dict[str, Path] = field(default_factory=dict)
    by_stem: dict[str, Path] = field(default_factory=dict)
    by_text: dict[str, str] = field(default_factory=dict)


def _known(vault: Vault) -> _Known:
    """Every memory's import key, id and text, read without parsing YAML."""
    known = _Known()
    for path in vault.memory_files():
        try:
            text = path.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError):
            continue
        known.by_stem[path.stem] = path
        split = frontmatter.split(text)
        head, body = split if split is not None else ("", text)
        found = _KEY_LINE.search(head)
        if found:
            known.by_key[_unquote(found.group(1))] = path
        known.by_text.setdefault(normalised_text(body), path.stem)
    return known


def _unquote(value: str) -> str:
    if len(value) >= 2 and value[0] == value[-1] and value[0] in "\"'":
        loaded = frontmatter.load_scalar(value)
        return loaded if isinstance(loaded, str) else value[1:-1]
    return value


class Importer:
    def __init__(self, vault: Vault, config: MemoryConfig, clock: Clock) -> None:
        self.vault = vault
        self.store = MemoryStore(vault)
        self.config = config
        self.clock = clock

    def run(self, items: Iterable[ImportItem], dry_run: bool = False) -> ImportReport:
        report = ImportReport()
        known = _known(self.vault)
        for found in items:
            if len(found.text.encode("utf-8")) > MAX_MEMORY_BYTES:
                report.errors.append(
                    f"{redact(found.key)}: larger than {MAX_MEMORY_BYTES // 2**20} MB, "
                    "the most a memory holds; not imported (split it)"
                )
                continue
            text = redact(found.text).strip()
            item = replace(found, key=_safe_key(found, text))
            if not text:
                report.errors.append(f"{item.key}: empty text (or entirely private)")
                continue
            try:
                self._one(item, text, known, report, dry_run)
            except VaultError as exc:
                report.errors.append(f"{item.key}: {redact(str(exc))}")
        return report

    def _one(
        self, item: ImportItem, text: str, known: _Known, report: ImportReport, dry_run: bool
    ) -> None:
        path = known.by_key.get(item.key) or (
            known.by_stem.get(item.memory_id) if item.memory_id else None
        )
        if path is not None:
            record = self.store.read_path(path)
            changes = content_changes(record, item, text)
            if not changes:
                report.skipped.append(record.id)
                return
            if not dry_run:
                self.store.rewrite(record.id, changes, text + "\n")
            report.updated.append(record.id)
            return
        twin = known.by_text.get(normalised_text(text))
        if twin is not None:
            report.duplicates.append((item.key, twin))
            return
        memory_id = self._new_id(item, text, known)
        if not dry_run:
            path = self._create(memory_id, item, text)
            known.by_key[item.key] = path
            known.by_stem[memory_id] = path
        known.by_text[normalised_text(text)] = memory_id
        report.created.append(memory_id)

    def _new_id(self, item: ImportItem, text: str, known: _Known) -> str:
        if item.memory_id and redact(item.memory_id) == item.memory_id:
            try:
                if validate_id(item.memory_id) not in known.by_stem:
                    return item.memory_id
            except InvalidIdError:
                pass
        created = self._created(item)
        for attempt in range(20):
            memory_id = make_id(text, created, salt=f"{item.key}|{attempt}")
            if memory_id not in known.by_stem:
                return memory_id
        raise VaultError(f"{item.key}: no free id for this memory")

    def _create(self, memory_id: str, item: ImportItem, text: str) -> Path:
        created = self._created(item)
        stability = item.stability
        if not item.restored:
            stability = stability or self._stability(item)
        meta: dict[str, Any] = {
            "id": memory_id,
            "created": created,
            "last_access": max(item.last_access or created, created),
            "stability": stability,
            "tier": item.tier,
            **content_fields(item),
            "session": item.session,
            "recalls": item.recalls,
            "confirmations": item.confirmations,
            "salience": item.salience,
            "links": list(item.links),
        }
        if item.key != memory_id:
            meta[KEY_FIELD] = item.key
        meta.update({k: v for k, v in item.fields.items() if k not in meta})
        # Every field of every imported memory, redacted where it is assembled.
        path = self.store.create(memory_id, {**redact_fields(meta), "id": memory_id}, text + "\n")
        if item.archived:
            path = self.store.move(memory_id, to_archive=True).path
        return path

    def _created(self, item: ImportItem) -> datetime:
        """When it was said: the source's time (never later than now), else now;
        our own export keeps its times as they were."""
        now = self.clock()
        if item.restored and item.created:
            return item.created
        return min(item.created or now, now)

    def _stability(self, item: ImportItem) -> float:
        """The tier's base, multiplied once per recall the source counted (capped)."""
        base = self.config.base_stability(item.tier)
        grown = base * self.config.reinforce_factor ** min(item.recalls, 50)
        return round(min(grown, self.config.stability_cap(item.tier)), 6)


def _safe_key(item: ImportItem, text: str) -> str:
    """The item's key as written (import_key) and shown in errors. A key that
    holds a secret (a source id that is a token) becomes a hash of the redacted
    text and time: masked keys would all be the same key."""
    if all(redact(part) == part for part in (item.key, *item.key.split(":"))):
        return item.key  # each part alone too: "chatgpt:<card number>" hides the card
    when = item.created.isoformat() if item.created else ""
    return "redacted:" + hashlib.sha256(f"{text}\n{when}".encode()).hexdigest()[:24]


def content_fields(item: ImportItem) -> dict[str, Any]:
    """The fields a re-import may update: what the source says about the memory."""
    fields: dict[str, Any] = {
        "kind": item.kind,
        "topic": item.topic,
        "tags": [tag for tag in item.tags if tag.strip()],
        "project": item.project,
        "source": item.source,
        "source_path": item.source_path,
    }
    if item.extra:  # as it reads back from YAML: JSON types only
        fields[EXTRA_FIELD] = json.loads(json.dumps(dict(item.extra), default=str))
    return redact_fields(fields)


def content_changes(record: MemoryRecord, item: ImportItem, text: str) -> dict[str, Any]:
    """What differs between a memory and the item it was imported from."""
    wanted = content_fields(item)
    current: dict[str, Any] = {
        "kind": record.kind,
        "topic": record.topic,
        "tags": list(record.tags),
        "project": record.project,
        "source": record.source,
        "source_path": record.source_path,
        EXTRA_FIELD: record.extra.get(EXTRA_FIELD),
    }
    changes = {k: v for k, v in wanted.items() if current.get(k) != v}
    if "topic" in changes and not item.topic:
        del changes["topic"]  # filed by the classifier since: not the source's change
    if changes or record.body.strip() != text:
        changes.setdefault("source", item.source)
    return changes
