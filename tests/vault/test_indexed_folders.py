"""Which files of a folder indexed in place are documents, how they are read, and
the categories rules give paths (no model, no index)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from vault.categories import UnknownCategoryError, category_of, check_category, known_categories
from vault.config import load_settings
from vault.errors import VaultError
from vault.indexed_folders import DocumentError, IndexedFolders, document_id, read_document


def folders_for(tmp_path: Path, *roots: Path, **env: str) -> IndexedFolders:
    paths = os.pathsep.join(str(root) for root in roots)
    settings = load_settings(None, {"VAULT_INDEX_PATHS": paths, **env})
    return IndexedFolders.from_settings(settings, tmp_path / "vault")


def write(path: Path, text: str = "words\n") -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)
    return path


def test_documents_keep_to_endings_depth_and_skipped_folders(tmp_path: Path) -> None:
    root = tmp_path / "notes"
    wanted = [write(root / "a.md"), write(root / "x" / "b.TXT"), write(root / "x/y/z/c.rst")]
    for name in ("x/y/z/w/too-deep.md", ".obsidian/w.md", "node_modules/p/r.md", "img.png",
                 ".hidden.md", "draft.md.swp", "x/build/out.md"):  # fmt: skip
        write(root / name)
    (root / "linked.md").symlink_to(wanted[0])
    (root / "linked-folder").symlink_to(root / "x", target_is_directory=True)
    folders = folders_for(tmp_path, root)
    assert sorted(folders.documents()) == sorted(wanted)
    assert all(folders.admits(path) for path in wanted)
    assert not folders.admits(root / "x/y/z/w/too-deep.md")
    assert not folders.admits(root / "node_modules/p/r.md")
    assert not folders.admits(tmp_path / "elsewhere.md")
    shallow = folders_for(tmp_path, root, VAULT_INDEX_MAX_DEPTH="0")
    assert list(shallow.documents()) == [wanted[0]]


def test_the_vault_inside_an_indexed_folder_is_left_to_its_own_index(tmp_path: Path) -> None:
    write(tmp_path / "vault" / "memories" / "m.md")
    note = write(tmp_path / "n.md")
    folders = folders_for(tmp_path, tmp_path)
    assert list(folders.documents()) == [note]
    assert not folders.admits(tmp_path / "vault" / "memories" / "m.md")


def test_a_document_is_read_as_text_or_refused_in_one_line(tmp_path: Path) -> None:
    good = write(tmp_path / "good.md", "\ufeffhello\n")
    assert read_document(good).body == "hello\n"
    assert read_document(good).id == document_id(good) != document_id(tmp_path / "x" / "good.md")
    latin = tmp_path / "latin.md"
    latin.write_bytes(b"caf\xe9")
    with pytest.raises(DocumentError, match="not UTF-8"):
        read_document(latin)
    with pytest.raises(DocumentError, match="larger than 3 bytes"):
        read_document(good, max_bytes=3)
    link = tmp_path / "link.md"
    link.symlink_to(good)
    with pytest.raises(DocumentError, match="cannot be read"):
        read_document(link)
    fifo = tmp_path / "pipe.md"
    os.mkfifo(fifo)
    with pytest.raises(DocumentError, match="not a regular file"):
        read_document(fifo)


def test_categories_come_from_the_first_matching_rule(tmp_path: Path) -> None:
    rules = ("memories/acme/**=project", "/home/me/notes/**=notes", "memories/**=personal")
    assert category_of("memories/acme/x.md", rules) == "project"
    assert category_of("memories/x.md", rules) == "personal"
    assert category_of("/home/me/notes/deep/n.md", rules) == "notes"
    assert category_of("archive/x.md", rules) == ""
    assert known_categories(("work",), rules) == ("notes", "personal", "project", "work")
    assert check_category("work", ("work",), rules) == "work"
    with pytest.raises(UnknownCategoryError, match="known: notes, personal, project$"):
        check_category("play", (), rules)
    with pytest.raises(UnknownCategoryError, match="none are set"):
        check_category("play", (), ())
    with pytest.raises(VaultError, match="must be glob=category"):
        category_of("memories/x.md", ("memories/**",))
