"""Files a person (or a tool) left in the vault that we must read right or leave
alone: a BOM, CRLF, no frontmatter, a huge body, binary data, an empty file,
broken YAML, unknown keys and comments, symbolic links."""

from __future__ import annotations

import os
from datetime import UTC, datetime
from pathlib import Path

import pytest

from vault import frontmatter
from vault.errors import BrokenFileError
from vault.layout import Vault
from vault.store import MemoryStore

BOM = "\ufeff"
HAND_NOTE = "---\nid: bom\ntier: curated\n# a comment\nmine: [a, b]\n---\nFixtures beat setUp.\n"
MTIME = datetime(2025, 3, 4, 5, 6, 7, tzinfo=UTC)


def grow(record: object) -> dict[str, object]:
    return {"recalls": 1, "stability": 10.5}


def drop(vault: Vault, name: str, data: bytes, mtime: datetime = MTIME) -> Path:
    path = vault.memories_dir / name
    path.write_bytes(data)
    os.utime(path, (mtime.timestamp(), mtime.timestamp()))
    return path


def test_a_bom_before_the_frontmatter_still_reads_as_frontmatter() -> None:
    parsed = frontmatter.parse(BOM + HAND_NOTE)
    assert parsed.has_frontmatter
    assert parsed.meta["mine"] == ["a", "b"]
    assert parsed.body == "Fixtures beat setUp.\n"


def test_a_bom_file_keeps_its_bom_and_one_block_after_a_rewrite(vault: Vault) -> None:
    path = drop(vault, "bom.md", (BOM + HAND_NOTE).encode())
    record = MemoryStore(vault).update("bom", grow)
    text = path.read_text(encoding="utf-8")
    assert text.startswith(BOM + "---\n")
    assert text.count("---\n") == 2
    assert "# a comment\nmine: [a, b]\n" in text
    assert (record.recalls, record.tier, record.body) == (1, "curated", "Fixtures beat setUp.\n")


def test_a_bom_note_without_frontmatter_gets_its_block_after_the_bom(vault: Vault) -> None:
    path = drop(vault, "plain.md", (BOM + "Just a note.\n").encode())
    MemoryStore(vault).update("plain", grow)
    text = path.read_text(encoding="utf-8")
    assert text.startswith(BOM + "---\n")
    assert text.endswith("---\nJust a note.\n")


def test_a_hand_dropped_note_keeps_its_mtime_as_created_after_a_rewrite(vault: Vault) -> None:
    drop(vault, "dropped.md", b"A note I wrote by hand.\n")
    store = MemoryStore(vault)
    assert store.read("dropped").created == MTIME
    record = store.update("dropped", grow)
    assert (record.created, record.tier, record.kind) == (MTIME, "curated", "note")
    record = store.update("dropped", lambda r: {"recalls": 2})
    assert (record.created, record.tier) == (MTIME, "curated")


def test_a_frontmatter_without_created_gets_it_from_the_mtime_once(vault: Vault) -> None:
    path = drop(vault, "undated.md", b"---\ntopic: testing\n---\nUndated note.\n")
    record = MemoryStore(vault).update("undated", grow)
    assert record.created == MTIME
    assert "created: 2025-03-04T05:06:07Z" in path.read_text()


def test_crlf_files_stay_crlf(vault: Vault) -> None:
    with_block = drop(vault, "crlf.md", b"---\r\nid: crlf\r\nrecalls: 0\r\n---\r\nLine one.\r\n")
    without = drop(vault, "bare.md", b"First line.\r\nSecond line.\r\n")
    store = MemoryStore(vault)
    store.update("crlf", grow)
    store.update("bare", grow)
    for path in (with_block, without):
        data = path.read_bytes()
        assert data.count(b"\n") == data.count(b"\r\n"), data


@pytest.mark.parametrize(
    ("name", "data", "reason"),
    [
        ("huge.md", b"---\nid: huge\n---\n" + b"word " * 2_100_000, "larger than"),
        ("binary.md", bytes(range(256)) * 40, "not UTF-8"),
        ("nul.md", b"---\nid: nul\n---\ntext\x00more\n", "binary"),
        ("empty.md", b"", "empty"),
        ("blank.md", b"---\nid: blank\n---\n\n  \n", "empty"),
        ("yaml.md", b"---\nid: yaml\nstability: [7\n---\nbody\n", "YAML"),
    ],
)
def test_files_we_cannot_use_are_reported_and_stay_byte_identical(
    vault: Vault, name: str, data: bytes, reason: str
) -> None:
    path = drop(vault, name, data)
    store = MemoryStore(vault)
    with pytest.raises(BrokenFileError, match=reason):
        store.read(path.stem)
    with pytest.raises(BrokenFileError):
        store.update(path.stem, grow)
    assert path.read_bytes() == data


def test_unknown_keys_and_comments_survive_a_rewrite_byte_for_byte(vault: Vault) -> None:
    head = "---\nid: keys\n# why this note exists\nmine: {a: 1}  # inline\nrecalls: 0\n"
    path = drop(vault, "keys.md", (head + "created: 2025-01-01T00:00:00Z\n---\nBody\n").encode())
    MemoryStore(vault).update("keys", lambda r: {"recalls": 1})
    assert path.read_text() == head.replace("recalls: 0", "recalls: 1") + (
        "created: 2025-01-01T00:00:00Z\n---\nBody\n"
    )


@pytest.fixture
def outside(tmp_path: Path) -> Path:
    target = tmp_path / "outside.txt"
    target.write_text("root:x:0:0:secret outside the vault\n")
    return target


@pytest.mark.parametrize("folder", ["memories", "archive"])
def test_a_symlink_is_never_read_or_written(vault: Vault, outside: Path, folder: str) -> None:
    link = vault.root / folder / "host-link.md"
    link.symlink_to(outside)
    store = MemoryStore(vault)
    with pytest.raises(BrokenFileError, match="symbolic link"):
        store.read("host-link")
    with pytest.raises(BrokenFileError, match="symbolic link"):
        store.read_path(link)
    with pytest.raises(BrokenFileError, match="symbolic link"):
        store.update("host-link", grow)
    with pytest.raises(BrokenFileError, match="symbolic link"):
        store.move("host-link", to_archive=folder == "memories")
    with pytest.raises(BrokenFileError, match="symbolic link"):
        store.delete("host-link")
    assert link.is_symlink()
    assert os.readlink(link) == str(outside)
    assert outside.read_text() == "root:x:0:0:secret outside the vault\n"


def test_symlinks_are_listed_so_they_can_be_reported(vault: Vault, outside: Path) -> None:
    (vault.memories_dir / "link.md").symlink_to(outside)
    (vault.memories_dir / "folder-link").symlink_to(outside.parent, target_is_directory=True)
    assert [p.name for p in vault.memory_files()] == ["link.md"]


def test_a_new_memory_never_replaces_a_dangling_symlink(vault: Vault, tmp_path: Path) -> None:
    link = vault.memories_dir / "taken.md"
    link.symlink_to(tmp_path / "nowhere.md")
    with pytest.raises(FileExistsError):
        MemoryStore(vault).create("taken", {"id": "taken"}, "text\n")
    assert link.is_symlink()
    assert not (tmp_path / "nowhere.md").exists()
