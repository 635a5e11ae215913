"""Quick change detection by folder mtimes, for syncs that must not stat every file.

A folder whose mtime is unchanged since the last scan has had no file added,
removed or renamed in it; an atomic save (write a temp file, rename) shows as
well. Only changed folders are listed and their files compared with the catalog.
An in-place edit (a file rewritten without a rename) leaves its folder's mtime
alone: the watcher records those while the daemon runs, and a full scan (every
file stated, none read; `full_scan`, which records the folder mtimes too) runs
after a daemon starts and at least every `full_every` seconds. Owns
`.index/folders.json`; indexes nothing.
"""

from __future__ import annotations

import json
import os
import time
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from indexer.catalog import Catalog
from indexer.documents import vault_keys
from vault.atomic import atomic_write
from vault.layout import SUFFIX, Vault

if TYPE_CHECKING:
    from indexer.published import Snapshot

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

    @staticmethod
    def due(index_dir: Path, now: float, full_every: float) -> bool:
        """Whether no full scan was recorded within `full_every` seconds of `now`."""
        state = FolderState.load(index_dir)
        return state is None or now - state.full_scan_at >= full_every

    def usable(self, now: float, catalog: tuple[int, int], full_every: float) -> bool:
        rebuilds, generation = catalog
        return (
            now - self.full_scan_at < full_every
            and rebuilds == self.catalog[0]
            and generation >= self.catalog[1]
        )


def catalog_mark(catalog: Catalog) -> tuple[int, int]:
    return int(catalog.get_meta("rebuilds") or 0), catalog.generation()


@dataclass(frozen=True)
class Known:
    """What the catalog knows of the vault's files, read in one query: (mtime_ns, size)
    by vault-relative path of its rows and of its problem files, and its mark."""

    rows: dict[str, tuple[int, int]]
    problems: dict[str, tuple[int, int]]
    mark: tuple[int, int]

    @classmethod
    def of(cls, catalog: Catalog) -> Known:
        rows, problems = catalog.stats_by_path(), catalog.problem_stats()
        return cls(vault_keys(rows), vault_keys(problems), catalog_mark(catalog))


@dataclass
class Scan:
    """A full scan: the paths whose stat differs from the catalog's, and the folder
    mtimes it saw (recorded once those paths are reconciled)."""

    paths: list[Path]
    state: FolderState


def full_scan(vault: Vault, known: Known, now: float) -> Scan:
    """One walk of memories/ and archive/: every file stated (never read) and compared
    with `known`, files known but gone, and every folder's mtime, as a full scan at
    `now` (the vault clock's epoch seconds)."""
    started = time.time_ns()
    folders: dict[str, int] = {}
    changed: list[Path] = []
    seen: set[str] = set()
    skip = len(str(vault.root)) + 1
    stack = [str(vault.memories_dir), str(vault.archive_dir)]
    while stack:
        folder = stack.pop()
        try:
            mtime = os.stat(folder).st_mtime_ns
            entries = list(os.scandir(folder))
        except FileNotFoundError:
            continue
        relative = folder[skip:].replace(os.sep, "/")
        folders[relative] = _settled(mtime, started)
        for entry in entries:
            name = entry.name
            if name.startswith("."):
                continue
            if entry.is_dir(follow_symlinks=False):
                stack.append(entry.path)
            elif name.endswith(SUFFIX) and (
                entry.is_file(follow_symlinks=False) or entry.is_symlink()
            ):
                child = f"{relative}/{name}"
                seen.add(child)
                signature = _signature(entry.path)
                if signature is None:
                    continue  # gone between the listing and the stat: the next sync sees it
                if signature != known.rows.get(child) and signature != known.problems.get(child):
                    changed.append(Path(entry.path))
    changed.extend(vault.root / p for p in (known.rows.keys() | known.problems.keys()) - seen)
    return Scan(changed, FolderState(now, known.mark, folders))


def sync_changes(
    vault: Vault, snapshot: Snapshot, quick: bool, now: float, full_every: float
) -> Scan:
    """What a sync reconciles, and the folder state to record after it. With `quick` and
    a usable record, only the changed folders are looked into; otherwise every file is
    stated, and the folder mtimes are recorded all the same (the walk visits every
    folder), so a quick sync after a full one needs no full scan of its own."""
    catalog, mark = snapshot.catalog, catalog_mark(snapshot.catalog)
    state = FolderState.load(vault.index_dir) if quick else None
    if state is not None and not snapshot.rebuilding and state.usable(now, mark, full_every):
        paths, folders = quick_changed_paths(vault, catalog, state, time.time_ns())
        return Scan(paths, FolderState(state.full_scan_at, mark, folders))
    return full_scan(vault, Known.of(catalog), now)


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
