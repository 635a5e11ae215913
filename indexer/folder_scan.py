"""Quick change detection by folder mtimes, for syncs that must not stat every file.

A folder whose mtime is unchanged since the last scan has had no file added,
removed or renamed in it; an atomic save (write a temp file, rename) shows as
well. Only changed folders are listed and their files compared with the catalog.
An in-place edit (a file rewritten without a rename) leaves its folder's mtime
alone: the watcher records those while the daemon runs, and a full scan runs
at least every `full_every` seconds. Owns `.index/folders.json`; indexes nothing.
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass
from pathlib import Path

from indexer.catalog import Catalog
from vault.atomic import atomic_write
from vault.layout import SUFFIX, Vault

STATE_FILE = "folders.json"
FULL_EVERY = 3600.0  # seconds between full scans of a quick-synced vault
RACY_NS = 2_000_000_000  # a folder changed this close to a scan is listed again next time


@dataclass
class FolderState:
    """Folder mtimes as of the last scan (-1: list it again) and what they belong to."""

    full_scan_at: float  # the vault clock's epoch seconds of the last full scan
    catalog: tuple[int, int]  # (rebuilds, generation) of the catalog they were compared with
    folders: dict[str, int]

    @classmethod
    def load(cls, index_dir: Path) -> FolderState | None:
        try:
            data = json.loads((index_dir / STATE_FILE).read_text(encoding="utf-8"))
            rebuilds, generation = data["catalog"]
            return cls(float(data["full_scan_at"]), (int(rebuilds), int(generation)),
                       {str(k): int(v) for k, v in data["folders"].items()})  # fmt: skip
        except (OSError, ValueError, KeyError, TypeError):
            return None  # missing or unreadable: the next quick sync scans in full

    def save(self, index_dir: Path) -> None:
        data = {"full_scan_at": self.full_scan_at, "catalog": list(self.catalog),
                "folders": self.folders}  # fmt: skip
        atomic_write(index_dir / STATE_FILE, json.dumps(data).encode("utf-8"), mode=0o600)

    def usable(self, now: float, catalog: tuple[int, int], full_every: float) -> bool:
        rebuilds, generation = catalog
        return (
            now - self.full_scan_at < full_every
            and rebuilds == self.catalog[0]
            and generation >= self.catalog[1]
        )


def catalog_mark(catalog: Catalog) -> tuple[int, int]:
    return int(catalog.get_meta("rebuilds") or 0), catalog.generation()


def all_folders(vault: Vault, started_ns: int) -> dict[str, int]:
    """Every folder under memories/ and archive/ with its mtime (after a full scan)."""
    folders: dict[str, int] = {}
    stack = [vault.memories_dir, vault.archive_dir]
    while stack:
        folder = stack.pop()
        try:
            mtime = os.stat(folder).st_mtime_ns
            entries = list(os.scandir(folder))
        except FileNotFoundError:
            continue
        folders[vault.relative(folder)] = _settled(mtime, started_ns)
        stack.extend(
            Path(e.path)
            for e in entries
            if not e.name.startswith(".") and e.is_dir(follow_symlinks=False)
        )
    return folders


def _settled(mtime_ns: int, started_ns: int) -> int:
    return -1 if mtime_ns >= started_ns - RACY_NS else mtime_ns


def quick_changed_paths(
    vault: Vault, catalog: Catalog, state: FolderState, started_ns: int
) -> tuple[list[Path], dict[str, int]]:
    """Changed paths found through changed folders only, and the new folder mtimes."""
    problems = catalog.problem_stats()
    folders = dict(state.folders)
    pending = list(state.folders)
    changed: list[Path] = []
    while pending:
        relative = pending.pop()
        folder = vault.root / relative
        try:
            mtime = os.stat(folder).st_mtime_ns
            entries = list(os.scandir(folder)) if mtime != state.folders.get(relative) else None
        except FileNotFoundError:
            entries, mtime = [], -2  # gone: every file known in it is removed
        if entries is None:
            continue
        known = catalog.stats_under(relative)
        known.update({p: s for p, s in problems.items() if p.rpartition("/")[0] == relative})
        if mtime == -2:
            folders.pop(relative, None)
            changed.extend(vault.root / p for p in known)
            continue
        folders[relative] = _settled(mtime, started_ns)
        present: set[str] = set()
        for entry in entries:
            if entry.name.startswith("."):
                continue
            child = f"{relative}/{entry.name}"
            if entry.is_dir(follow_symlinks=False):
                if child not in folders:
                    folders[child] = -1
                    pending.append(child)
            elif entry.name.endswith(SUFFIX) and (
                entry.is_file(follow_symlinks=False) or entry.is_symlink()
            ):
                present.add(child)
                if _signature(entry.path) != known.get(child):
                    changed.append(Path(entry.path))
        changed.extend(vault.root / p for p in known.keys() - present)
    return changed, folders


def _signature(path: str) -> tuple[int, int] | None:
    try:
        stat = os.stat(path)
    except FileNotFoundError:
        return None
    return stat.st_mtime_ns, stat.st_size
