"""claude-engram memory banks as import items (read-only).

Two formats. The Claude Code bank (v4): a data folder with global/ and
projects/<sha256(project path)[:12]>/ holding memories.json (a bare JSON array,
snake_case fields, ISO times) and deep_archive.json. The Claude.ai artifact
backup (v1): `{"memories": [...]}` with camelCase fields and epoch-millisecond
times, its scope inferred from tags. A project folder names only a hash, so it
is matched by hashing the candidate project paths the caller knows.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable, Iterable
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from memory.importers.core import Found, ImportItem
from memory.importers.files import ImportSourceError, read_text
from vault.clock import parse_time

SOURCE = "engram"
# engram's own rule for scope: these tags make a memory global (types.ts GLOBAL_TAGS).
GLOBAL_TAGS = frozenset(
    "identity preference relationship goal personal self-reflection realization".split()
)
PREFERENCE_TAGS = frozenset("preference goal identity personal relationship".split())
BANK_FILES = ("memories.json", "deep_archive.json")


def project_hash(path: Path | str) -> str:
    """engram's project folder name for a working directory."""
    return hashlib.sha256(str(path).encode("utf-8")).hexdigest()[:12]


def read_engram(
    location: Path,
    project_dirs: Iterable[Path] = (),
    resolve_project: Callable[[Path], str] = str,
) -> Found:
    """Items from a data folder, one bank file, or a v1 backup. A bank that
    cannot be read and a record that cannot be mapped are errors; a project
    bank no folder given matches is imported without a project (a note)."""
    known = {project_hash(path): resolve_project(path) for path in project_dirs}
    found = Found()
    folder = location if location.is_dir() else None
    for path, project_key in _bank_files(location):
        try:
            data = json.loads(read_text(path, folder))
        except ImportSourceError as exc:
            found.errors.append(str(exc))
            continue
        except json.JSONDecodeError as exc:
            found.errors.append(f"{path}: not an engram bank (broken JSON: {exc})")
            continue
        project = known.get(project_key, "") if project_key else ""
        if project_key and not project:
            found.notes.append(
                f"{path}: project bank {project_key} matches none of the project folders "
                "given (--project-dir); imported without a project"
            )
        archived = path.name == "deep_archive.json"
        for number, record in enumerate(_records(data), 1):
            try:
                found.items.append(_item(record, project, project_key, archived))
            except ValueError as exc:
                found.errors.append(f"{path}: record {number}: {exc}")
    return found


def _bank_files(location: Path) -> list[tuple[Path, str]]:
    """(bank file, project hash or "") under a data folder, or the one file given."""
    if location.is_file():
        parent = location.parent
        return [(location, parent.name if parent.parent.name == "projects" else "")]
    found = [(location / "global" / name, "") for name in BANK_FILES]
    projects = location / "projects"
    if projects.is_dir():
        for folder in sorted(p for p in projects.iterdir() if p.is_dir()):
            found += [(folder / name, folder.name) for name in BANK_FILES]
    return [(path, key) for path, key in found if path.is_file()]


def _records(data: Any) -> list[dict[str, Any]]:
    records = data.get("memories", []) if isinstance(data, dict) else data
    return [r for r in records if isinstance(r, dict)] if isinstance(records, list) else []


def _item(record: dict[str, Any], project: str, project_key: str, archived: bool) -> ImportItem:
    engram_id, text = record.get("id"), record.get("content")
    if not isinstance(engram_id, (str, int)) or not isinstance(text, str) or not text.strip():
        raise ValueError("no id or no content; not imported")
    v1 = "createdAt" in record or "accessCount" in record
    created = _time(record.get("createdAt" if v1 else "created_at"))
    last = _time(record.get("lastAccessed" if v1 else "last_accessed"))
    tags = tuple(str(t).lower() for t in record.get("tags") or () if isinstance(t, str))
    scope = record.get("scope") or ("global" if GLOBAL_TAGS & set(tags) else "project")
    salience = _salience(record.get("salience"))
    consolidated = bool(record.get("consolidated")) or record.get("memory_type") == "semantic"
    extra: dict[str, Any] = {"engram_id": str(engram_id), "engram_scope": scope}
    if isinstance(record.get("salience"), dict):
        extra["engram_salience"] = record["salience"]
    for key in ("register", "updated_from", "merged_into", "gist_of"):
        if record.get(key):
            extra[f"engram_{key}"] = record[key]
    if project_key and not project:
        extra["engram_project"] = project_key
    return ImportItem(
        key=f"{SOURCE}:{engram_id}",
        text=text,
        created=created,
        last_access=last,
        kind="preference" if PREFERENCE_TAGS & set(tags) else "fact",
        tags=tags,
        project=project if scope != "global" else "",
        source=SOURCE,
        session=str(record.get("source_session") or ""),
        tier="semantic" if consolidated else "episodic",
        recalls=_count(record.get("accessCount" if v1 else "access_count")),
        salience=salience,
        archived=archived or bool(record.get("archived")),
        extra=extra,
    )


def _time(value: object) -> datetime | None:
    """An ISO string (v4) or epoch milliseconds (v1)."""
    if isinstance(value, bool) or value is None:
        return None
    try:
        if isinstance(value, (int, float)):
            return datetime.fromtimestamp(value / 1000, UTC).replace(microsecond=0)
        return parse_time(value).replace(microsecond=0)
    except (ValueError, TypeError, OverflowError, OSError):
        return None


def _salience(value: object) -> float:
    """The mean of engram's four salience scores (v1's early names included)."""
    if not isinstance(value, dict):
        return 1.0
    scores = [float(v) for v in value.values() if isinstance(v, (int, float))]
    return round(min(max(sum(scores) / len(scores), 0.0), 1.0), 3) if scores else 1.0


def _count(value: object) -> int:
    """A count as engram wrote it; one that is no whole number is refused
    (a negative one is refused where every memory's values are checked)."""
    if value is None:
        return 0
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise ValueError(f"access count {value!r} is not a whole number")
    if isinstance(value, float) and not value.is_integer():
        raise ValueError(f"access count {value!r} is not a whole number")
    return int(value)
