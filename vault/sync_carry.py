"""Reinforcements that landed on a memory another machine retired meanwhile:
when one side merged or superseded a memory (it gained `merged_into` or
`superseded_by`) while the other recalled or confirmed it, the recalls,
confirmations, later access and larger stability go on to its successor, as if
the merge had come after them. Found by comparing the two sides with their
common ancestor when sync brings them together; written through the store.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from functools import partial
from typing import Any

from vault import frontmatter
from vault.clock import parse_time
from vault.errors import VaultError
from vault.git_repo import Git
from vault.layout import ARCHIVE, MEMORIES, SUFFIX, Vault
from vault.links import link_targets
from vault.merge_rule import larger, later, more_consolidated
from vault.schema import MemoryRecord
from vault.store import MemoryStore

SUCCESSOR_FIELDS = ("merged_into", "superseded_by")
MAX_HOPS = 5  # a successor that was itself merged: follow it this far


@dataclass(frozen=True)
class Carry:
    source: str
    successors: tuple[str, ...]
    recalls: int
    confirmations: int
    last_access: datetime | None
    stability: object
    tier: object


def carries(git: Git, ours: str, theirs: str) -> list[Carry]:
    """What one side's reinforcements owe the successors the other side made."""
    base = git.run("merge-base", ours, theirs, check=False).stdout.strip()
    if not base or base in (ours, theirs):
        return []
    mine, other = _changed(git, base, ours), _changed(git, base, theirs)
    found = []
    for memory_id in sorted(mine.keys() & other.keys()):
        paths = mine[memory_id] | other[memory_id]
        before, our_meta, their_meta = (_meta_at(git, rev, paths) for rev in (base, ours, theirs))
        if before is None or our_meta is None or their_meta is None:
            continue
        carry = _carry(memory_id, before, our_meta, their_meta) or _carry(
            memory_id, before, their_meta, our_meta
        )
        if carry is not None:
            found.append(carry)
    return found


def _changed(git: Git, old: str, new: str) -> dict[str, set[str]]:
    """Memory id -> the memory paths a side changed (active or archived)."""
    changed: dict[str, set[str]] = {}
    for path in git.out("diff", "--name-only", "--no-renames", old, new).splitlines():
        if path.startswith((f"{MEMORIES}/", f"{ARCHIVE}/")) and path.endswith(SUFFIX):
            stem = path.rsplit("/", 1)[-1].removesuffix(SUFFIX)
            changed.setdefault(stem, set()).add(path)
    return changed


def _meta_at(git: Git, rev: str, paths: set[str]) -> dict[str, Any] | None:
    for path in sorted(paths):
        shown = git.run("show", f"{rev}:{path}", check=False)
        if shown.returncode == 0:
            try:
                return frontmatter.parse(shown.stdout).meta
            except frontmatter.FrontmatterError:
                return None
    return None


def _successors(meta: dict[str, Any]) -> list[str]:
    values = [v for key in SUCCESSOR_FIELDS for v in (meta.get(key) or []) if isinstance(v, str)]
    return link_targets(values)


def _count(meta: dict[str, Any], key: str) -> int:
    value = meta.get(key)
    return value if isinstance(value, int) and not isinstance(value, bool) else 0


def _carry(
    memory_id: str, base: dict[str, Any], reinforced: dict[str, Any], retired: dict[str, Any]
) -> Carry | None:
    """The carry when `retired` gave the memory a successor and `reinforced` did not."""
    successors = _successors(retired)
    if not successors or _successors(base) or _successors(reinforced):
        return None
    recalls = _count(reinforced, "recalls") - _count(base, "recalls")
    confirmations = _count(reinforced, "confirmations") - _count(base, "confirmations")
    if recalls <= 0 and confirmations <= 0:
        return None
    return Carry(memory_id, tuple(successors), max(recalls, 0), max(confirmations, 0),
                 _time(reinforced.get("last_access")), reinforced.get("stability"),
                 reinforced.get("tier"))  # fmt: skip


def apply(vault: Vault, found: list[Carry]) -> list[str]:
    """Write each carry onto the living successor; notes for the person."""
    store = MemoryStore(vault)
    notes = []
    for carry in found:
        for successor in carry.successors:
            target = _living(store, successor)
            if target is None:
                notes.append(f"reinforcements of {carry.source}: successor {successor} is gone")
                continue
            store.update(target, partial(_added, carry=carry))
            notes.append(f"carried {carry.recalls} recalls and {carry.confirmations} "
                         f"confirmations of {carry.source} to {target}")  # fmt: skip
    return notes


def _living(store: MemoryStore, memory_id: str) -> str | None:
    """The memory that stands for `memory_id` now (following later merges)."""
    for _ in range(MAX_HOPS):
        try:
            record = store.read(memory_id)
        except VaultError:
            return None
        after = link_targets([*record.merged_into, *record.superseded_by])
        if not record.archived or not after:
            return memory_id
        memory_id = after[0]
    return memory_id


def _added(record: MemoryRecord, *, carry: Carry) -> dict[str, Any]:
    changes: dict[str, Any] = {
        "recalls": record.recalls + carry.recalls,
        "confirmations": record.confirmations + carry.confirmations,
        "last_access": later(None, record.last_access, carry.last_access),
        "tier": more_consolidated(None, record.tier, carry.tier),
    }
    stability = larger(None, record.stability, carry.stability)
    if stability is not None:
        changes["stability"] = stability
    return changes


def _time(value: object) -> datetime | None:
    try:
        return parse_time(value)
    except (ValueError, TypeError):
        return None
