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

from memory.importers.core import ImportItem
from vault import frontmatter

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


def load_config(folder: Path) -> dict[str, Any]:
    """hx's config.json in `folder` over its defaults (a shallow update, as hx does)."""
    config = dict(DEFAULTS)
    path = folder / "config.json" if folder.is_dir() else folder
    if path.is_file():
        loaded = json.loads(path.read_text(encoding="utf-8"))
        if isinstance(loaded, dict):
            config.update(loaded)
    config.setdefault("data_dir", str(path.parent / "data"))
    return config


def read_hx(folder: Path, zone: tzinfo) -> tuple[list[ImportItem], list[str]]:
    """Items from an hx folder (config.json and data/), and notes on what was skipped."""
    config = load_config(folder)
    data_dir = Path(str(config.get("data_dir") or folder / "data")).expanduser()
    if not data_dir.is_dir() and (folder / "data").is_dir():
        data_dir = folder / "data"
    accesses = _access_log(data_dir / "access_log.json", zone)
    items: list[ImportItem] = []
    notes: list[str] = []
    for entry in config.get("index_paths") or []:
        root = Path(str(entry.get("path", ""))).expanduser() if isinstance(entry, dict) else None
        if root is None or not root.is_dir():
            notes.append(f"index path {entry!r}: not a folder here; skipped")
            continue
        depth = int(entry.get("depth", 3))
        for path in _notes(root, depth, config):
            item = _note_item(root, path, config, accesses.get(str(path), []))
            if item is not None:
                items.append(item)
    items += _log_items(data_dir, zone)
    return items, notes


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
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError):
        return None
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


def _access_log(path: Path, zone: tzinfo) -> dict[str, list[datetime]]:
    """hx's access_log.json: {absolute path: [local ISO times]}."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError):
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


def _log_items(data_dir: Path, zone: tzinfo) -> list[ImportItem]:
    """One episodic memory per timestamped entry of the daily and periodic logs."""
    items: list[ImportItem] = []
    for level in LOG_FOLDERS:
        for path in sorted((data_dir / level).glob("*.md")):
            text = path.read_text(encoding="utf-8", errors="replace")
            if level == "daily":
                found = [
                    (f"{path.stem} {hhmm}", entry) for hhmm, entry in _DAILY_ENTRY.findall(text)
                ]
            else:
                found = _PERIODIC_ENTRY.findall(text)
            for stamp, entry in found:
                moment = _local(stamp.replace(" ", "T"), zone)
                if moment is None:
                    continue
                items.append(
                    ImportItem(
                        key=f"hx-log:{level}/{path.stem}/{stamp}/{entry.strip()[:80]}",
                        text=entry.strip(),
                        created=moment,
                        source=SOURCE_LOG,
                        source_path=str(path),
                        extra={"hx_log": f"{level}/{path.name}"},
                    )
                )
    return items
