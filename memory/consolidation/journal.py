"""The journal of a consolidation run (.state/consolidation/RUN.json) and undo.
Before a file is written, moved or created its previous text (or absence) is
saved; after, the hash of what was written. Undo checks each file is still as
the run left it (else stops, unless forced), then restores it byte for byte.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import secrets
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Any

from memory.errors import ConsolidationError
from vault.atomic import atomic_write, file_lock, fsync_path
from vault.clock import format_time
from vault.layout import Vault

RUNS = "consolidation"
REMOVED = ""  # after_sha256 of a file the run removed (None: the run never wrote it)


def runs_dir(vault: Vault) -> Path:
    return vault.state_dir / RUNS


def new_run_id(now: datetime) -> str:
    return f"{now:%Y%m%dT%H%M%SZ}-{secrets.token_hex(2)}"


def _sha(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


@dataclass
class Journal:
    vault: Vault
    run: str
    started: str
    files: dict[str, dict[str, Any]] = field(default_factory=dict)  # path -> before/after
    actions: list[dict[str, Any]] = field(default_factory=list)
    finished: str | None = None
    automatic: bool = False  # the daemon's run, not one asked for by hand

    @property
    def path(self) -> Path:
        return runs_dir(self.vault) / f"{self.run}.json"

    def remember(self, paths: list[Path]) -> None:
        """Write down the current text of files about to change (write-ahead)."""
        fresh = False
        for path in paths:
            key = self.vault.relative(path)
            if key in self.files:
                continue  # the first state of the run is the one to restore
            before = path.read_bytes().decode("utf-8") if path.is_file() else None
            self.files[key] = {"before": before, "after_sha256": None}
            fresh = True
        if fresh:
            self.save()

    def intend(self, writes: dict[Path, bytes | None]) -> None:
        """Write down, before writing, what each file will hold ("" : removed), so
        a run killed midway is undone without --force when nothing else touched it."""
        for path, data in writes.items():
            entry = self.files[self.vault.relative(path)]
            if entry["after_sha256"] is not None:  # written twice: the first is a state too
                entry.setdefault("between", []).append(entry["after_sha256"])
            entry["after_sha256"] = REMOVED if data is None else _sha(data)
        self.save()

    def save(self) -> None:
        data = {
            "run": self.run,
            "started": self.started,
            "finished": self.finished,
            "automatic": self.automatic,
            "undone": None,
            "actions": self.actions,
            "files": [{"path": path, **entry} for path, entry in self.files.items()],
        }
        runs_dir(self.vault).mkdir(parents=True, exist_ok=True)
        text = json.dumps(data, indent=1, ensure_ascii=False) + "\n"
        atomic_write(self.path, text.encode("utf-8"), 0o600)


def load_run(vault: Vault, run: str) -> dict[str, Any]:
    if not run or "/" in run or run.startswith("."):
        raise ConsolidationError(f"{run!r} is not a consolidation run id")
    path = runs_dir(vault) / f"{run}.json"
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise ConsolidationError(
            f"no consolidation run {run!r} in {runs_dir(vault)}; `vault consolidate --list`"
        ) from None
    except ValueError as exc:
        raise ConsolidationError(f"{path} is not a readable journal ({exc})") from None
    if not isinstance(data, dict) or not isinstance(data.get("files"), list):
        raise ConsolidationError(f"{path} is not a consolidation journal")
    return data


def list_runs(vault: Vault) -> list[dict[str, Any]]:
    """Every run, newest first: id, when, what it did, whether it was undone."""
    found = []
    for path in sorted(runs_dir(vault).glob("*.json"), reverse=True):
        with contextlib.suppress(ConsolidationError):
            data = load_run(vault, path.stem)
            found.append({
                "run": data.get("run", path.stem), "started": data.get("started"),
                "finished": data.get("finished"), "undone": data.get("undone"),
                "automatic": bool(data.get("automatic")),
                "actions": len(data.get("actions", [])), "files": _changed(data["files"]),
            })  # fmt: skip
    return found


@dataclass
class UndoReport:
    run: str
    restored: list[str]  # vault-relative paths put back
    removed: list[str]  # files the run had created
    forced: list[str]  # changed since the run, restored anyway


def undo(vault: Vault, run: str, now: datetime, force: bool = False) -> UndoReport:
    data = load_run(vault, run)
    if data.get("undone"):
        raise ConsolidationError(f"run {run} was already undone at {data['undone']}; nothing to do")
    entries = list(reversed(data["files"]))
    changed = [e["path"] for e in entries if not _as_left(vault.root / e["path"], e)]
    if changed and not force:
        shown = ", ".join(changed[:5]) + (" ..." if len(changed) > 5 else "")
        raise ConsolidationError(
            f"{len(changed)} files changed since run {run} ({shown}); "
            "`--force` restores them anyway and loses those later changes"
        )
    report = UndoReport(run, [], [], changed)
    for entry in entries:
        _restore(vault, entry, report)
    data["undone"] = format_time(now)
    text = json.dumps(data, indent=1, ensure_ascii=False) + "\n"
    atomic_write(runs_dir(vault) / f"{run}.json", text.encode("utf-8"), 0o600)
    return report


def _as_left(path: Path, entry: dict[str, Any]) -> bool:
    """Whether a file is as the run left it: what it meant to write (a killed run
    may not have written it yet: then as it was before the run)."""
    current = path.read_bytes() if path.is_file() else None
    before = entry.get("before")
    if current is None and before is None:
        return True
    if current is not None and before is not None and current == before.encode("utf-8"):
        return True
    after = entry.get("after_sha256")
    if after is None:  # journals before write-ahead hashes: unknown after a crash
        return current is None or before is None
    states = {after, *entry.get("between", [])}  # a killed run may stop between writes
    if current is None:
        return REMOVED in states
    return _sha(current) in states


def _restore(vault: Vault, entry: dict[str, Any], report: UndoReport) -> None:
    path = vault.root / entry["path"]
    with file_lock(vault.lock_path(path.stem)):
        before = entry.get("before")
        if before is None:
            if path.exists():
                path.unlink()
                fsync_path(path.parent)
                report.removed.append(entry["path"])
            return
        path.parent.mkdir(parents=True, exist_ok=True)
        data = before.encode("utf-8")
        if not path.is_file() or path.read_bytes() != data:
            atomic_write(path, data)
        report.restored.append(entry["path"])


def exists_in_vault(vault: Vault, memory_id: str) -> bool:
    name = f"{memory_id}.md"
    return any(os.path.exists(folder / name) for folder in (vault.memories_dir, vault.archive_dir))


def _changed(files: list[Any]) -> int:
    """How many files a run changed (it also writes down the archive twin of each
    file it might move; one that neither existed nor came to exist is no change)."""
    return sum(
        1
        for entry in files
        if isinstance(entry, dict)
        and (entry.get("before") is not None or entry.get("after_sha256") is not None)
    )
