"""What the data-safety rounds share: running `vault` in a real process, starting
and stopping a real daemon, and inspecting a vault after the fact (files that do
not parse, duplicate ids, temp files, the index check). Used by
benchmarks/safety_bench.py and, with small counts, by the tests."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from dataclasses import dataclass, field
from pathlib import Path

from hooks.client import client
from hooks.client.control import stop
from vault import frontmatter
from vault.atomic import TEMP_NAME
from vault.errors import VaultError
from vault.layout import Vault
from vault.store import MemoryStore

HEALTHY = re.compile(r"^Would change: 0 added, 0 re-embedded, 0 metadata-only, 0 moved, 0 removed")


def vault_cli(root: Path, *args: str, timeout: float = 600) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "hooks.cli", "--vault", str(root), *args],
        capture_output=True,
        text=True,
        timeout=timeout,
    )


def start_daemon(root: Path) -> subprocess.Popen[bytes]:
    process = subprocess.Popen(
        [sys.executable, "-m", "hooks.cli", "--vault", str(root), "serve"],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    if client.wait_until_up(root, 600) is None:
        process.kill()
        raise RuntimeError("the daemon did not start")
    return process


def stop_daemon(root: Path, process: subprocess.Popen[bytes] | None) -> None:
    stop(Vault(root))
    if process is not None:
        process.wait(timeout=60)


@dataclass
class Health:
    files: int = 0
    unparsable: list[str] = field(default_factory=list)  # partial or corrupt Markdown
    duplicate_ids: list[str] = field(default_factory=list)
    temp_files: list[str] = field(default_factory=list)

    @property
    def clean(self) -> bool:
        return not (self.unparsable or self.duplicate_ids or self.temp_files)

    def summary(self) -> str:
        return (
            f"{self.files} files, {len(self.unparsable)} unparsable, "
            f"{len(self.duplicate_ids)} duplicate ids, {len(self.temp_files)} temp files"
        )


def inspect(vault: Vault, temp_files_count: bool = True) -> Health:
    """Every memory file parses as a whole memory, each id is in one file only,
    and (if asked) no temp file of ours is left anywhere in the vault."""
    health, seen = Health(), set()
    store = MemoryStore(vault)
    for folder in (vault.memories_dir, vault.archive_dir):
        for path in sorted(folder.rglob("*.md")):
            if path.is_symlink():
                continue
            health.files += 1
            try:
                record = store.read_path(path)
                frontmatter.parse(path.read_text(encoding="utf-8"))
            except (VaultError, ValueError, OSError) as exc:
                health.unparsable.append(f"{path.name}: {exc}")
                continue
            if record.id in seen:
                health.duplicate_ids.append(record.id)
            seen.add(record.id)
    if temp_files_count:
        for _dirpath, folders, names in os.walk(vault.root):
            folders[:] = [name for name in folders if name != ".git"]
            health.temp_files += [n for n in names if TEMP_NAME.match(n)]
    return health


def recalls(vault: Vault) -> dict[str, int]:
    store = MemoryStore(vault)
    return {p.stem: store.read_path(p).recalls for p in sorted(vault.memories_dir.glob("*.md"))}


def index_healthy(root: Path) -> tuple[bool, str]:
    """`vault reindex --check`: nothing to change, nothing said on stderr."""
    checked = vault_cli(root, "reindex", "--check")
    ok = checked.returncode == 0 and bool(HEALTHY.match(checked.stdout)) and not checked.stderr
    return ok, (checked.stdout + checked.stderr).strip()
