"""The frontmatter contract: which fields a memory has, their types, defaults.

`to_record` validates a parsed file into a typed, read-only `MemoryRecord`;
`BrokenFileError` says which field is wrong. A file without frontmatter, or with
an empty block (a note a person dropped in by hand), is a curated memory dated
by its mtime.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Any

from vault.clock import parse_time
from vault.errors import BrokenFileError, InvalidIdError, VaultError
from vault.ids import validate_id

TIERS = ("episodic", "semantic", "curated")
DEFAULT_CONFIDENCE = 0.5  # unvalidated; `vault validate` moves it within 0.3-0.9 (seed 004)
CONFIDENCE_RANGE = (0.3, 0.9)
# Fields memory-vault writes, in the order a new file lists them.
OWNED_FIELDS = (
    "id", "created", "last_access", "stability", "tier", "kind", "topic", "tags", "project",
    "session", "seq", "source", "source_path", "recalls", "confirmations", "salience", "links",
    "filed",
    # Consolidation (memory/consolidation): learned salience, validation, and the
    # links that make every merge, supersession, gist and pattern traceable both ways.
    "salience_dims", "confidence", "superseded_by", "supersedes", "merged_into", "merged_from",
    "gist_of", "gist", "pattern_of", "damped_by",
)  # fmt: skip
LINK_FIELDS = (
    "superseded_by", "supersedes", "merged_into", "merged_from", "gist_of", "gist", "pattern_of",
    "damped_by",
)  # fmt: skip
# The kind of a statement that holds only for now ("down until tonight"): it lasts
# `status_stability` days, is never related to a lasting fact and never comes back
# from the archive on a cue (README, How memory lasts).
STATUS_KIND = "status"
FILED_AUTO = "auto"  # `filed: auto`: the topic came from the classifier, not a person


@dataclass(frozen=True)
class MemoryRecord:
    id: str
    path: Path
    archived: bool
    created: datetime
    last_access: datetime
    stability: float | None  # None: the tier's base stability
    tier: str
    kind: str
    topic: str
    tags: tuple[str, ...]
    project: str
    session: str
    seq: int  # the order it was said in its session (0: unknown)
    source: str
    source_path: str
    recalls: int
    confirmations: int
    salience: float
    links: tuple[str, ...]
    filed: str  # "" (topic given by a person, or none) | "auto"
    body: str
    extra: dict[str, Any]
    confidence: float = DEFAULT_CONFIDENCE
    salience_dims: dict[str, float] = field(default_factory=dict)
    superseded_by: tuple[str, ...] = ()  # wikilinks to the newer memories that replaced it
    supersedes: tuple[str, ...] = ()
    merged_into: tuple[str, ...] = ()
    merged_from: tuple[str, ...] = ()
    gist_of: tuple[str, ...] = ()  # on a gist: its archived full wording
    gist: tuple[str, ...] = ()  # on archived full wording: the gist that replaced it
    pattern_of: tuple[str, ...] = ()  # on a `pattern`: the memories it generalises
    damped_by: tuple[str, ...] = ()  # the newer memories that updated it (interference)


def _text(meta: dict[str, Any], key: str) -> str:
    value = meta.get(key)
    return "" if value is None else str(value)


def as_strings(value: object) -> tuple[str, ...] | None:
    """A list property (tags, links) as strings: a YAML list, or one string of
    comma-separated items; None when the value is neither."""
    if value is None or value == "":
        return ()
    if isinstance(value, str):
        return tuple(part.strip() for part in value.split(",") if part.strip())
    if isinstance(value, list):
        return tuple(str(item) for item in value if item is not None)
    return None


def _strings(meta: dict[str, Any], key: str, path: Path) -> tuple[str, ...]:
    found = as_strings(meta.get(key))
    if found is None:
        raise BrokenFileError(path, f"{key} must be a list")
    return found


def _number(meta: dict[str, Any], key: str, path: Path, default: float) -> float:
    value = meta.get(key, default)
    if value is None:
        return default
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise BrokenFileError(path, f"{key} must be a number, got {value!r}")
    return float(value)


def _dims(meta: dict[str, Any], path: Path) -> dict[str, float]:
    value = meta.get("salience_dims")
    if value is None or value == "":
        return {}
    ok = isinstance(value, dict) and all(
        isinstance(v, (int, float)) and not isinstance(v, bool) for v in value.values()
    )
    if not ok:
        raise BrokenFileError(path, "salience_dims must map dimension names to numbers")
    return {str(k): float(v) for k, v in value.items()}


def default_tier(meta: dict[str, Any]) -> str:
    """The tier of a file without a `tier` field, the one place this is decided:
    a note a person dropped in (no frontmatter, or an empty block) is curated;
    fields without a tier are episodic. A rewrite writes it down (vault/store.py),
    so adding fields never changes the tier a file was read with."""
    return "episodic" if meta else "curated"


def to_record(
    meta: dict[str, Any], body: str, path: Path, archived: bool, mtime: datetime
) -> MemoryRecord:
    try:
        memory_id = validate_id(path.stem)
    except InvalidIdError as exc:
        raise BrokenFileError(path, str(exc)) from exc
    if "id" in meta and str(meta["id"]) != memory_id:
        raise BrokenFileError(path, f"id {meta['id']!r} differs from the file name {memory_id!r}")
    tier = _text(meta, "tier") or default_tier(meta)
    if tier not in TIERS:
        raise BrokenFileError(path, f"tier must be one of {', '.join(TIERS)}, got {tier!r}")
    try:
        created = parse_time(meta["created"]) if meta.get("created") else mtime
        last_access = parse_time(meta["last_access"]) if meta.get("last_access") else created
    except (ValueError, TypeError) as exc:
        raise BrokenFileError(path, f"bad timestamp: {exc}") from exc
    stability = meta.get("stability")
    if stability is not None:
        stability = _number(meta, "stability", path, 0.0)
        if stability <= 0:
            raise BrokenFileError(path, "stability must be a positive number of days")
    return MemoryRecord(
        id=memory_id,
        path=path,
        archived=archived,
        created=created,
        last_access=last_access,
        stability=stability,
        tier=tier,
        kind=_text(meta, "kind") or ("note" if tier == "curated" else "fact"),
        topic=_text(meta, "topic"),
        tags=_strings(meta, "tags", path),
        project=_text(meta, "project"),
        session=_text(meta, "session"),
        seq=int(_number(meta, "seq", path, 0)),
        source=_text(meta, "source"),
        source_path=_text(meta, "source_path"),
        recalls=int(_number(meta, "recalls", path, 0)),
        confirmations=int(_number(meta, "confirmations", path, 0)),
        salience=_number(meta, "salience", path, 1.0),
        links=_strings(meta, "links", path),
        filed=_text(meta, "filed"),
        body=body,
        extra={k: v for k, v in meta.items() if k not in OWNED_FIELDS},
        confidence=_number(meta, "confidence", path, DEFAULT_CONFIDENCE),
        salience_dims=_dims(meta, path),
        **{name: _strings(meta, name, path) for name in LINK_FIELDS},
    )


COUNTS = ("recalls", "confirmations", "seq")


def check_values(fields: Mapping[str, Any]) -> None:
    """Refuse to write values no memory may hold (VaultError naming the field):
    a number that is not finite (NaN, infinity), anywhere; a negative count;
    a salience below 0; a stability that is not a positive number of days."""
    for key, value in fields.items():
        numbers = value.values() if isinstance(value, Mapping) else [value]
        if any(isinstance(n, float) and not math.isfinite(n) for n in numbers):
            raise VaultError(f"{key} must be a finite number, got {value}")
        number = not isinstance(value, bool) and isinstance(value, (int, float))
        if number and value < 0 and key in (*COUNTS, "salience"):
            raise VaultError(f"{key} must not be negative, got {value}")
        if key == "stability" and value is not None and (not number or value <= 0):
            raise VaultError(f"stability must be a positive number of days, got {value!r}")
