"""The Python API: a vault for scripts and notebooks, without the CLI.

    from hooks.api import MemoryVault

    vault = MemoryVault()                      # $VAULT_HOME, the user config, or the default
    memory_id = vault.jot("Release branches are cut on Thursdays.", project="acme/api")
    for hit in vault.recall("when do we cut a release?"):
        print(hit.score, hit.id, hit.text)

Each call is the CLI's operation: handed to the vault's warm daemon when one
runs (it owns every index write), else done in this process with the same code.
Errors are `VaultApiError` with the CLI's exit code for the same failure.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from datetime import datetime
from pathlib import Path
from typing import Any

import click

from hooks.cli.common import Context
from hooks.cli.errors import HANDLED, to_cli_error
from memory.results import Associative, Hit
from vault.clock import parse_time

# macOS: Accelerate's own thread pool beside FAISS's and ONNX Runtime's can hang a
# process that forks; one thread for it, set before numpy loads (Linux: no effect).
os.environ.setdefault("VECLIB_MAXIMUM_THREADS", "1")

__all__ = ["MemoryVault", "VaultApiError"]


class VaultApiError(Exception):
    """What the CLI would print as its one-line error; `exit_code` as it would exit."""

    def __init__(self, message: str, exit_code: int) -> None:
        super().__init__(message)
        self.exit_code = exit_code


class MemoryVault:
    """One vault. `path`: the vault folder (default: resolved as the CLI does);
    `now`: a fixed time for every call (simulations, tests), else the clock."""

    def __init__(
        self, path: str | os.PathLike[str] | None = None, now: datetime | str | None = None
    ):
        self._context = Context(os.fspath(path) if path is not None else None)
        self._now = parse_time(now) if isinstance(now, str) else now

    @property
    def root(self) -> Path:
        return self._context.vault.root

    def init(self) -> bool:
        """Create the vault's folders and config; False if it existed."""
        from memory.service import MemoryService

        return MemoryService.init_vault(self._context.vault)

    # Recall --------------------------------------------------------------------

    def recall(self, query: str, limit: int = 5, project: str | None = None,
               reinforce: bool = True) -> list[Hit]:  # fmt: skip
        """Memories by meaning and keywords, strongest first (`vault recall`)."""
        args = {"query": query, "limit": limit, "project": project, "reinforce": reinforce}
        return [Hit.from_dict(hit) for hit in self._call("recall", args)]

    def recall_associative(self, query: str, project: str | None = None) -> Associative:
        """The confident and the hedged ("might be related") tiers, as the prompt hook
        sees them; confirm a hedged one with `confirm`."""
        found = self._call("recall_associative", {"query": query, "project": project})
        return Associative.from_dict(found)

    def recall_cold(self, query: str, limit: int = 5) -> list[Hit]:
        """The archive only, with a stricter bar (`vault cold`)."""
        found = self._call("recall_cold", {"query": query, "limit": limit})
        return [Hit.from_dict(hit) for hit in found]

    # Writing -------------------------------------------------------------------

    def jot(self, text: str, topic: str | None = None, tags: Sequence[str] = (),
            project: str | None = None, kind: str = "fact") -> str:  # fmt: skip
        """Remember a fragment (redacted first); the new memory's id."""
        args = {"text": text, "topic": topic or "", "tags": list(tags),
                "project": project or "", "kind": kind}  # fmt: skip
        return str(self._call("jot", args)["id"])

    def ingest(self, path: str | os.PathLike[str], topic: str | None = None) -> str:
        """A curated memory from a Markdown or text file (re-ingesting updates it)."""
        args = {"path": str(Path(path).resolve()), "topic": topic or ""}
        return str(self._call("ingest", args)["id"])

    def append_to_changelog(self, text: str, project: str | None = None) -> str:
        """Add a dated line to the project's changelog memory (`vault changelog`,
        redacted first); the line as written."""
        found = self._call("changelog_append", {"text": text, "project": project or ""})
        return str(found["entry"])

    def confirm(self, memory_id: str) -> dict[str, Any]:
        """A person's "yes, still true" for a hedged memory (stability x2.5)."""
        return self._memory("confirm", memory_id)

    def reinforce(self, memory_id: str) -> dict[str, Any]:
        return self._memory("reinforce", memory_id)

    def forget(self, memory_id: str) -> dict[str, Any]:
        """Archive it now (`revive` brings it back)."""
        return self._memory("forget", memory_id)

    def revive(self, memory_id: str) -> dict[str, Any]:
        return self._memory("revive", memory_id)

    def show(self, memory_id: str) -> dict[str, Any]:
        """One memory as `vault show --json` prints it, with its strength now."""
        return self._memory("show", memory_id)

    def _memory(self, op: str, memory_id: str) -> dict[str, Any]:
        found: dict[str, Any] = self._call(op, {"id": memory_id})
        return found

    def _call(self, op: str, args: dict[str, Any]) -> Any:
        try:
            return self._context.call(op, args, self._now)
        except click.ClickException as exc:
            raise VaultApiError(exc.format_message(), exc.exit_code) from None
        except HANDLED as exc:  # the in-process path raises the packages' own errors
            error = to_cli_error(exc)
            raise VaultApiError(error.format_message(), error.exit_code) from exc
