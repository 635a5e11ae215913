"""Files two machines wrote at once: git markers and cloud conflict copies are
reported as broken, never read as memories."""

from __future__ import annotations

from pathlib import Path

import pytest

from vault.conflicts import conflict_copy_of, copy_original, has_conflict_markers
from vault.errors import BrokenFileError
from vault.layout import Vault
from vault.store import MemoryStore

MEMORY = "---\nid: {id}\ntier: episodic\n---\nPrefer pytest fixtures.\n"
MID = "2026-01-01-pytest-fixtures-ab12"


def test_markers_are_found_only_as_a_full_set() -> None:
    conflicted = "a\n<<<<<<< mine\nb\n=======\nc\n>>>>>>> theirs\n"
    assert has_conflict_markers(conflicted)
    assert has_conflict_markers(conflicted.replace("mine", "mine\nx\n||||||| base"))
    assert not has_conflict_markers("a\n<<<<<<< mine\nb\n")  # one marker is just text
    assert not has_conflict_markers("x <<<<<<< y\n=======\n>>>>>>> z")  # not at a line start


@pytest.mark.parametrize(
    ("stem", "original"),
    [
        ("notes (conflicted copy)", "notes"),
        ("notes (Sam's conflicted copy 2026-11-30)", "notes"),
        ("notes (conflicted copy 2026-11-30 101010)", "notes"),  # Nextcloud
        ("notes (1)", "notes"),  # Google Drive, OneDrive
        ("notes 2", "notes"),  # iCloud
        ("notes.sync-conflict-20261130-101010-ABCDEFG", "notes"),  # Syncthing
        ("notes", None),
        ("release-2026", None),
    ],
)
def test_copy_names(stem: str, original: str | None) -> None:
    assert copy_original(stem) == original


def test_a_copy_of_a_memory_is_known_by_its_id_onedrive_included(tmp_path: Path) -> None:
    for stem in (f"{MID} (conflicted copy)", f"{MID}-LAPTOP-7", f"{MID} 2"):
        assert conflict_copy_of(tmp_path / f"{stem}.md", {"id": MID}) == MID
    assert conflict_copy_of(tmp_path / f"{MID}.md", {"id": MID}) is None


def test_a_note_without_id_is_a_copy_only_beside_its_original(tmp_path: Path) -> None:
    copy = tmp_path / "ideas (1).md"
    assert conflict_copy_of(copy, {}) is None
    (tmp_path / "ideas.md").write_text("x")
    assert conflict_copy_of(copy, {}) == "ideas"
    assert conflict_copy_of(tmp_path / "release-2026.md", {}) is None


def test_the_store_refuses_both_with_a_clear_reason(vault: Vault) -> None:
    store = MemoryStore(vault)
    (vault.memories_dir / f"{MID}.md").write_text(MEMORY.format(id=MID))
    copy = vault.memories_dir / f"{MID} (conflicted copy).md"
    copy.write_text(MEMORY.format(id=MID))
    with pytest.raises(BrokenFileError, match=f"conflict copy of {MID}.md"):
        store.read_path(copy)
    marked = vault.memories_dir / "marked.md"
    marked.write_text("---\nid: marked\n---\n<<<<<<< a\nx\n=======\ny\n>>>>>>> b\n")
    with pytest.raises(BrokenFileError, match="unresolved merge conflict"):
        store.read_path(marked)
    in_yaml = vault.memories_dir / "yaml.md"
    in_yaml.write_text("---\n<<<<<<< a\ntopic: x\n=======\ntopic: y\n>>>>>>> b\n---\nbody\n")
    with pytest.raises(BrokenFileError, match="unresolved merge conflict"):
        store.read_path(in_yaml)
    assert store.read_path(vault.memories_dir / f"{MID}.md").id == MID
