"""claude-memory-hx (seed 001) as import items (read-only).

Its config.json lists `index_paths` ({path, depth}) of Markdown notes: each
note becomes a curated memory whose topic is its folder path (`notes/decisions`)
and whose recalls are the searches hx logged for it. Its daily and periodic
logs hold `**HH:MM** -- text` entries in local time: each becomes an episodic
memory at that moment, read in the time zone given. Config keys and folder
walk follow hx 0.3.0 (config.py, indexer.collect_files).
"""

from __future__ import annotations

import json
import os
import re
from collections.abc import Iterator
from datetime import UTC, datetime, tzinfo
from pathlib import Path
from typing import Any

from memory.importers.core import Found, ImportItem
from memory.importers.files import ImportSourceError, read_text, source_folder
from vault import frontmatter
from vault.store import MAX_MEMORY_BYTES

SOURCE_NOTE, SOURCE_LOG = "hx-note", "hx-log"
DEFAULTS: dict[str, Any] = {
    "index_paths": [],
    "index_extensions": [".md"],
    "skip_dirs": ["chromadb", ".git", "node_modules", "__pycache__", ".obsidian"],
    "min_file_size": 50,
    "evergreen_patterns": [],
    "salience_patterns": {},
}
LOG_FOLDERS = ("daily", "weekly", "monthly", "quarterly", "yearly")
_DAILY_ENTRY = re.compile(r"^\*\*(\d{2}:\d{2})\*\* -- (.+)$", re.MULTILINE)
_PERIODIC_ENTRY = re.compile(r"^\*\*(\d{4}-\d{2}-\d{2} \d{2}:\d{2})\*\* -- (.+)$", re.MULTILINE)


# The type each config key must have (hx's own config.py reads the same keys).
TYPES: dict[str, type] = {
    "index_paths": list,
    "index_extensions": list,
    "skip_dirs": list,
    "min_file_size": int,
    "evergreen_patterns": list,
    "salience_patterns": dict,
    "data_dir": str,
}


def load_config(folder: Path) -> dict[str, Any]:
    """hx's config.json in `folder` over its defaults (a shallow update, as hx
    does); ImportSourceError when it is unreadable or a value has the wrong type."""
    config = dict(DEFAULTS)
    path = folder / "config.json" if folder.is_dir() else folder
    if path.is_file() or path.is_symlink():
        try:
            loaded = json.loads(read_text(path, folder if folder.is_dir() else None))
        except json.JSONDecodeError as exc:
            raise ImportSourceError(f"{path}: not valid JSON ({exc})") from None
        if not isinstance(loaded, dict):
            raise ImportSourceError(f"{path}: must hold a JSON object of settings")
        config.update(loaded)
        _check_types(path, config)
    config.setdefault("data_dir", str(path.parent / "data"))
    return config


def _check_types(path: Path, config: dict[str, Any]) -> None:
    for key, wanted in TYPES.items():
        value = config.get(key)
        if value is not None and (isinstance(value, bool) or not isinstance(value, wanted)):
            raise ImportSourceError(f"{path}: {key} must be a {wanted.__name__}, got {value!r}")
    for key in ("index_extensions", "skip_dirs", "evergreen_patterns"):
        if not all(isinstance(item, str) for item in config[key] or []):
            raise ImportSourceError(f"{path}: {key} must be a list of strings")
    weights = (config["salience_patterns"] or {}).values()
    if any(isinstance(w, bool) or not isinstance(w, (int, float)) for w in weights):
        raise ImportSourceError(f"{path}: salience_patterns must map patterns to numbers")
    for entry in config["index_paths"] or []:
        depth = entry.get("depth", 3) if isinstance(entry, dict) else None
        if not isinstance(entry, dict) or not isinstance(entry.get("path"), str):
            raise ImportSourceError(f"{path}: each of index_paths must be {{path, depth}}")
        if isinstance(depth, bool) or not isinstance(depth, int) or depth < 0:
            raise ImportSourceError(f"{path}: depth must be a whole number >= 0, got {depth!r}")


def read_hx(folder: Path, zone: tzinfo) -> Found:
    """Items from an hx folder (config.json and data/). An index path that is
    not a folder here is a note; one in a system folder, or a note that cannot
    be read, is an error."""
    config = load_config(folder)
    data_dir = Path(str(config.get("data_dir") or folder / "data")).expanduser()
    if not data_dir.is_dir() and (folder / "data").is_dir():
        data_dir = folder / "data"
    found = Found()
    accesses = _access_log(data_dir / "access_log.json", zone, found)
    for entry in config["index_paths"] or []:
        root = Path(entry["path"]).expanduser()
        if not root.is_dir():
            found.notes.append(f"index path {entry['path']!r}: not a folder here; skipped")
            continue
        try:
            source_folder(root)
        except ImportSourceError as exc:
            found.errors.append(str(exc))
            continue
        for path in _notes(root, entry.get("depth", 3), config):
            try:
                item = _note_item(root, path, config, accesses.get(str(path), []))
            except ImportSourceError as exc:
                found.errors.append(str(exc))
                continue
            if item is not None:
                found.items.append(item)
    if data_dir.is_dir():
        _log_items(data_dir, zone, found)
    return found


def _notes(root: Path, max_depth: int, config: dict[str, Any]) -> Iterator[Path]:
    """hx's walk: files up to `depth` folders down, skipping its skip_dirs."""
    extensions = tuple(config.get("index_extensions") or [".md"])
    skip = set(config.get("skip_dirs") or [])
    for folder, dirs, files in os.walk(root):
        depth = len(Path(folder).relative_to(root).parts)
        if depth >= max_depth:
            dirs.clear()
            continue
        dirs[:] = sorted(d for d in dirs if d not in skip)
        yield from (Path(folder) / f for f in sorted(files) if f.endswith(extensions))


def _note_item(
    root: Path, path: Path, config: dict[str, Any], accessed: list[datetime]
) -> ImportItem | None:
    text = read_text(path, root, MAX_MEMORY_BYTES)
    body, meta = text, {}
    try:
        parsed = frontmatter.parse(text)
        body, meta = parsed.body, parsed.meta
    except frontmatter.FrontmatterError:
        pass
    if len(body.strip()) < int(config.get("min_file_size") or 0):
        return None
    posix = path.as_posix()
    salience = {p: m for p, m in (config.get("salience_patterns") or {}).items() if p in posix}
    extra: dict[str, Any] = {}
    if any(p in posix for p in config.get("evergreen_patterns") or []):
        extra["hx_evergreen"] = True
    if salience:
        extra["hx_salience"] = max(salience.values())
    tags = meta.get("tags")
    modified = datetime.fromtimestamp(path.stat().st_mtime, UTC).replace(microsecond=0)
    return ImportItem(
        key=f"hx:{path}",
        text=body,
        created=modified,
        last_access=max(accessed) if accessed else None,
        kind="note",
        topic=Path(root.name, path.parent.relative_to(root)).as_posix(),
        tags=tuple(str(t) for t in tags) if isinstance(tags, list) else (),
        source=SOURCE_NOTE,
        source_path=str(path),
        tier="curated",
        recalls=len(accessed),
        extra=extra,
    )


def _access_log(path: Path, zone: tzinfo, found: Found) -> dict[str, list[datetime]]:
    """hx's access_log.json: {absolute path: [local ISO times]} (none: no recalls)."""
    if not path.is_file():
        return {}
    try:
        data = json.loads(read_text(path, source_folder(path.parent)))
    except ImportSourceError as exc:
        found.errors.append(str(exc))
        return {}
    except json.JSONDecodeError as exc:
        found.errors.append(f"{path}: not valid JSON ({exc}); recalls not imported")
        return {}
    log: dict[str, list[datetime]] = {}
    for key, times in data.items() if isinstance(data, dict) else ():
        parsed = (
            [_local(t, zone) for t in times if isinstance(t, str)]
            if isinstance(times, list)
            else []
        )
        log[str(key)] = [t for t in parsed if t is not None]
    return log


def _local(text: str, zone: tzinfo) -> datetime | None:
    try:
        moment = datetime.fromisoformat(text)
    except ValueError:
        return None
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=zone)
    return moment.astimezone(UTC).replace(microsecond=0)


def _log_items(data_dir: Path, zone: tzinfo, found: Found) -> None:
    """One episodic memory per timestamped entry of the daily and periodic logs."""
    try:
        source_folder(data_dir)
    except ImportSourceError as exc:
        found.errors.append(str(exc))
        return
    for level in LOG_FOLDERS:
        for path in sorted((data_dir / level).glob("*.md")):
            try:
                text = read_text(path, data_dir)
            except ImportSourceError as exc:
                found.errors.append(str(exc))
                continue
            if level == "daily":
                entries = [
                    (f"{path.stem} {hhmm}", entry) for hhmm, entry in _DAILY_ENTRY.findall(text)
                ]
            else:
                entries = _PERIODIC_ENTRY.findall(text)
            for stamp, entry in entries:
                moment = _local(stamp.replace(" ", "T"), zone)
                if moment is None:
                    continue
                found.items.append(
                    ImportItem(
                        key=f"hx-log:{level}/{path.stem}/{stamp}/{entry.strip()[:80]}",
                        text=entry.strip(),
                        created=moment,
                        source=SOURCE_LOG,
                        source_path=str(path),
                        extra={"hx_log": f"{level}/{path.name}"},
                    )
                )
