"""Counter changes signed per machine: before sync commits a memory whose
recalls or confirmations went up, it adds the rise to this machine's entry in
`recalls_by_machine` / `confirmations_by_machine`. Without that, two machines
that each add one recall to the same memory can write byte-identical files
(the later last_access already merged in), and git takes them as one change
without ever running the merge driver: one recall lost. The entries merge by
the larger value per machine (vault/merge_rule.py); `recalls` stays the total.
"""

from __future__ import annotations

from functools import partial
from pathlib import Path
from typing import Any

from vault.errors import VaultError
from vault.frontmatter import FrontmatterError, parse
from vault.git_repo import Git
from vault.layout import ARCHIVE, MEMORIES, SUFFIX, Vault
from vault.schema import MemoryRecord
from vault.store import MemoryStore
from vault.sync_paths import counterpart, read_meta

BY_MACHINE = {"recalls": "recalls_by_machine", "confirmations": "confirmations_by_machine"}


def sign(git: Git, vault: Vault, paths: list[str], machine: str) -> None:
    """Sign the counter rises in `paths` (about to be committed) for `machine`."""
    memories = [
        path for path in paths
        if path.startswith((f"{MEMORIES}/", f"{ARCHIVE}/")) and path.endswith(SUFFIX)
        and (git.root / path).is_file()
    ]  # fmt: skip
    before = _committed(git, memories)
    store = MemoryStore(vault)
    for path in memories:
        now = read_meta(git.root / path)
        rises = {key: _count(now.get(key)) - _count(before.get(path, {}).get(key))
                 for key in BY_MACHINE}  # fmt: skip
        if any(rise > 0 for rise in rises.values()):
            try:
                store.update(Path(path).stem, partial(_signed, rises=rises, machine=machine))
            except VaultError:  # broken or vanished: committed as it is
                continue


def _signed(record: MemoryRecord, *, rises: dict[str, int], machine: str) -> dict[str, Any]:
    changes: dict[str, Any] = {}
    for key, rise in rises.items():
        if rise > 0:
            current = record.extra.get(BY_MACHINE[key])
            entries = dict(current) if isinstance(current, dict) else {}
            entries[machine] = _count(entries.get(machine)) + rise
            changes[BY_MACHINE[key]] = entries
    return changes


def _count(value: object) -> int:
    return value if isinstance(value, int) and not isinstance(value, bool) else 0


def _committed(git: Git, paths: list[str]) -> dict[str, dict[str, Any]]:
    """The committed (HEAD) frontmatter of each path, or of its counterpart when
    the memory was moved between memories/ and archive/ (a move is no rise:
    signing it would also make git's rename detection miss the move)."""
    moved = {path: counterpart(path) for path in paths}
    texts = git.committed_texts([*paths, *moved.values()])
    found: dict[str, dict[str, Any]] = {}
    for path in paths:
        text = texts.get(path, texts.get(moved[path]))
        if text is None:
            continue
        try:
            found[path] = parse(text).meta
        except FrontmatterError:
            continue
    return found
