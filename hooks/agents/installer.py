"""`vault install --agent NAME` / `vault uninstall --agent NAME` for agents
other than Claude Code: apply each of the agent's edits (hooks/agents/<name>.py),
remembering the originals, and undo them byte for byte."""

from __future__ import annotations

import contextlib
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Protocol

from hooks.agents.edits import Edit, Ledger
from vault.atomic import atomic_write
from vault.paths import vault_home


@dataclass(frozen=True)
class Setup:
    """What every agent's entry needs: where things are on this machine."""

    environ: Mapping[str, str]
    home: Path
    vault_home: str  # the vault every agent shares (passed to the server explicitly)
    vault_command: str  # absolute path of this environment's `vault`
    agent: str
    project: Path | None = None  # for project-scoped rules (Cursor)

    @property
    def server_env(self) -> dict[str, str]:
        return {"VAULT_HOME": self.vault_home, "VAULT_AGENT": self.agent}


class Agent(Protocol):
    NAME: str
    TITLE: str
    NOTES: tuple[str, ...]

    def edits(self, setup: Setup) -> list[Edit]: ...


def make_setup(
    environ: Mapping[str, str], agent: str, vault_command: str, project: Path | None = None
) -> Setup:
    home = Path(environ.get("HOME") or Path.home()).expanduser()
    return Setup(environ, home, vault_home(None, environ), vault_command, agent, project)


class AgentInstaller:
    def __init__(self, agent: Agent, setup: Setup, dry_run: bool = False) -> None:
        self.agent = agent
        self.setup = setup
        self.dry_run = dry_run
        self.ledger = Ledger(setup.environ, agent.NAME)
        self.actions: list[str] = []
        self._made: list[str] = []  # folders install created, removed at the end if empty

    def install(self) -> list[str]:
        for edit in self.agent.edits(self.setup):
            current = _read(edit.path)
            wanted = edit.add(current)
            edit.check(wanted)
            if wanted == current:
                self.actions.append(f"{edit.what}: already in {edit.path}")
                continue
            self.actions.append(f"{edit.what}: add to {edit.path}")
            if self.dry_run:
                continue
            made = _make_folders(edit.path.parent)
            original = edit.path.read_bytes() if current is not None else None
            atomic_write(edit.path, wanted.encode("utf-8"))
            self.ledger.record(edit.path, original, wanted.encode("utf-8"), made)
        if not self.dry_run:
            self.actions += list(self.agent.NOTES)
        return self.actions

    def uninstall(self) -> list[str]:
        edits = self.agent.edits(self.setup)
        for edit in edits:
            self._undo(edit)
        named = {str(edit.path) for edit in edits}
        for path in [Path(p) for p in self.ledger.entries() if p not in named]:
            self._undo_recorded(path)  # e.g. a project rule installed with --project
        for folder in sorted(self._made, key=lambda f: f.count("/"), reverse=True):
            with contextlib.suppress(OSError):  # only if empty: the tool may have put files there
                Path(folder).rmdir()
        return self.actions

    def _undo_recorded(self, path: Path) -> None:
        saved = self.ledger.original(path)
        if saved is None:
            return
        current = path.read_bytes() if path.exists() else None
        if current is not None and not Ledger.unchanged_since(saved[0], current):
            self.actions.append(f"{path}: changed since install; left as it is")
        else:
            self.actions.append(f"restore {path} as it was")
            if not self.dry_run and current is not None:
                _restore(path, saved[1])
                self._made += saved[0].get("created_dirs", [])
        if not self.dry_run:
            self.ledger.forget(path)

    def _undo(self, edit: Edit) -> None:
        saved = self.ledger.original(edit.path)
        current = _read(edit.path)
        if current is None:
            self.actions.append(f"{edit.what}: {edit.path} is gone; nothing to remove")
            if saved is not None and not self.dry_run:
                self.ledger.forget(edit.path)
            return
        if saved is not None and Ledger.unchanged_since(saved[0], edit.path.read_bytes()):
            self.actions.append(f"{edit.what}: restore {edit.path} as it was")
            if not self.dry_run:
                _restore(edit.path, saved[1])
                self._made += saved[0].get("created_dirs", [])
        else:
            remaining = edit.remove(current)
            if remaining == current:
                self.actions.append(f"{edit.what}: none of ours in {edit.path}")
            else:
                self.actions.append(f"{edit.what}: remove ours from {edit.path} (edited since)")
                if not self.dry_run:
                    _write_or_delete(edit.path, remaining)
        if saved is not None and not self.dry_run:
            self.ledger.forget(edit.path)


def _read(path: Path) -> str | None:
    try:
        return path.read_text(encoding="utf-8")
    except FileNotFoundError:
        return None
    except UnicodeDecodeError as exc:
        raise ValueError(f"{path} is not UTF-8 text; fix it first") from exc


def _make_folders(folder: Path) -> list[str]:
    """Create `folder` and its missing parents; the ones made, outermost first."""
    missing = [p for p in (folder, *folder.parents) if not p.exists()]
    folder.mkdir(parents=True, exist_ok=True)
    return [str(p) for p in reversed(missing)]


def _restore(path: Path, original: bytes | None) -> None:
    if original is not None:
        atomic_write(path, original)
    else:
        path.unlink(missing_ok=True)


def _write_or_delete(path: Path, text: str | None) -> None:
    if text is None:
        path.unlink(missing_ok=True)
    else:
        atomic_write(path, text.encode("utf-8"))
