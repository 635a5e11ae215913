"""The journal of a consolidation run (.state/consolidation/RUN.jsonl) and undo.
Before a file is written, moved or created its previous text (or absence) is
saved; before it is written, the hash of what it will hold. Undo checks each
file is still as the run left it (else stops, unless forced), then restores it
byte for byte. The journal only grows: each record is one line appended and
fsynced, so a run's cost grows with what it changes, not with what it changed
before (a torn last line, from a kill, is a write that never happened). Runs
journaled by earlier versions (RUN.json, one object) still list and undo.
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
LINES, WHOLE = ".jsonl", ".json"  # this version's journals; earlier versions' (read, undone)
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
        return runs_dir(self.vault) / f"{self.run}{LINES}"

    def begin(self) -> None:
        """Create the journal with its header line (the run is listed from now on)."""
        header = {"run": self.run, "started": self.started, "automatic": self.automatic}
        runs_dir(self.vault).mkdir(parents=True, exist_ok=True)
        atomic_write(self.path, _line(header), 0o600)

    def remember(self, paths: list[Path]) -> None:
        """Write down the current text of files about to change (write-ahead)."""
        records = []
        for path in paths:
            key = self.vault.relative(path)
            if key in self.files:
                continue  # the first state of the run is the one to restore
            before = path.read_bytes().decode("utf-8") if path.is_file() else None
            self.files[key] = {"before": before, "after_sha256": None}
            records.append({"file": key, "before": before})
        self._append(records)

    def intend(self, writes: dict[Path, bytes | None]) -> None:
        """Write down, before writing, what each file will hold ("" : removed), so
        a run killed midway is undone without --force when nothing else touched it."""
        after = {}
        for path, data in writes.items():
            key = self.vault.relative(path)
            entry = self.files[key]
            if entry["after_sha256"] is not None:  # written twice: the first is a state too
                entry.setdefault("between", []).append(entry["after_sha256"])
            entry["after_sha256"] = after[key] = REMOVED if data is None else _sha(data)
        self._append([{"intend": after}])

    def record(self, action: dict[str, Any]) -> None:
        self.actions.append(action)
        self._append([{"action": action}])

    def finish(self, when: str) -> None:
        self.finished = when
        self._append([{"finished": when}])

    def _append(self, records: list[dict[str, Any]]) -> None:
        """The records on disk (fsynced) before the caller goes on."""
        if not records:
            return
        if not self.path.is_file():
            self.begin()
        _append_lines(self.path, records)


def _append_lines(path: Path, records: list[dict[str, Any]]) -> None:
    with open(path, "ab") as handle:
        handle.write(b"".join(_line(record) for record in records))
        handle.flush()
        os.fsync(handle.fileno())


def _line(record: dict[str, Any]) -> bytes:
    return (json.dumps(record, ensure_ascii=False) + "\n").encode("utf-8")


def _fold(raw: bytes, path: Path) -> dict[str, Any]:
    """A journal's lines as the one object earlier versions saved."""
    lines = raw.decode("utf-8", errors="replace").splitlines()
    records = []
    for number, text in enumerate(lines):
        try:
            records.append(json.loads(text))
        except ValueError:
            if number < len(lines) - 1:  # only the last line can be torn (a kill)
                raise ConsolidationError(
                    f"{path} is not a readable journal (line {number + 1})"
                ) from None
    if not records or not isinstance(records[0], dict) or "run" not in records[0]:
        raise ConsolidationError(f"{path} is not a consolidation journal")
    data: dict[str, Any] = {**records[0], "finished": None, "undone": None, "actions": []}
    files: dict[str, dict[str, Any]] = {}
    for record in records[1:]:
        if "file" in record:
            files.setdefault(record["file"], {"before": record["before"], "after_sha256": None})
        elif "intend" in record:
            for key, after in record["intend"].items():
                entry = files[key]
                if entry["after_sha256"] is not None:
                    entry.setdefault("between", []).append(entry["after_sha256"])
                entry["after_sha256"] = after
        elif "action" in record:
            data["actions"].append(record["action"])
        else:
            data.update(record)  # finished, undone
    data["files"] = [{"path": key, **entry} for key, entry in files.items()]
    return data


def _journal_path(vault: Vault, run: str) -> Path:
    lines = runs_dir(vault) / f"{run}{LINES}"
    return lines if lines.is_file() else runs_dir(vault) / f"{run}{WHOLE}"


def load_run(vault: Vault, run: str) -> dict[str, Any]:
    if not run or "/" in run or run.startswith("."):
        raise ConsolidationError(f"{run!r} is not a consolidation run id")
    path = _journal_path(vault, run)
    try:
        raw = path.read_bytes()
        data = _fold(raw, path) if path.suffix == LINES else json.loads(raw)
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
    journals = {path.stem for path in runs_dir(vault).glob(f"*{WHOLE}")}
    journals |= {path.stem for path in runs_dir(vault).glob(f"*{LINES}")}
    for run in sorted(journals, reverse=True):
        with contextlib.suppress(ConsolidationError):
            data = load_run(vault, run)
            found.append({
                "run": data.get("run", run), "started": data.get("started"),
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
    path = _journal_path(vault, run)
    if path.suffix == LINES:
        _append_lines(path, [{"undone": data["undone"]}])
    else:
        text = json.dumps(data, indent=1, ensure_ascii=False) + "\n"
        atomic_write(path, text.encode("utf-8"), 0o600)
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
