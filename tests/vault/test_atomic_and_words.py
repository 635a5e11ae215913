"""Atomic replacement for any writer, ages in words, list properties, stop words."""

from __future__ import annotations

import stat
from pathlib import Path

import pytest

from vault.atomic import atomic_replace, atomic_write, file_lock
from vault.clock import describe_age
from vault.ids import slugify
from vault.schema import as_strings
from vault.stopwords import STOPWORDS


def test_atomic_replace_hands_the_writer_a_temp_file_beside_the_target(tmp_path: Path) -> None:
    target = tmp_path / "index" / "vectors.faiss"
    seen: list[Path] = []

    def write(name: str) -> None:
        seen.append(Path(name))
        Path(name).write_bytes(b"new vectors")

    atomic_replace(target, write)
    assert target.read_bytes() == b"new vectors"
    assert seen[0].parent == target.parent
    assert seen[0] != target
    assert not seen[0].exists()
    assert stat.S_IMODE(target.stat().st_mode) == 0o644
    target.chmod(0o600)
    atomic_write(target, b"newer")  # a replaced file keeps its mode
    assert (target.read_bytes(), stat.S_IMODE(target.stat().st_mode)) == (b"newer", 0o600)


def test_a_failed_writer_leaves_the_old_file_and_no_temp_file(tmp_path: Path) -> None:
    target = tmp_path / "topics.npz"
    target.write_bytes(b"old")

    def write(name: str) -> None:
        Path(name).write_bytes(b"half")
        raise OSError("disk full")

    with pytest.raises(OSError, match="disk full"):
        atomic_replace(target, write)
    assert target.read_bytes() == b"old"
    assert [p.name for p in tmp_path.iterdir()] == ["topics.npz"]


def test_a_lock_file_is_readable_by_its_owner_only(tmp_path: Path) -> None:
    lock = tmp_path / "locks" / "purged.lock"
    with file_lock(lock):
        pass
    assert stat.S_IMODE(lock.stat().st_mode) == 0o600


@pytest.mark.parametrize(
    ("days", "words"),
    [
        (0.2, "today"),
        (1.2, "a day ago"),
        (12.4, "12 days ago"),
        (59, "59 days ago"),
        (150, "5 months ago"),
        (800, "2.2 years ago"),
    ],
)
def test_an_age_reads_the_same_everywhere(days: float, words: str) -> None:
    assert describe_age(days) == words


@pytest.mark.parametrize(
    ("value", "strings"),
    [
        (None, ()),
        ("", ()),
        ("pytest, testing ,", ("pytest", "testing")),
        (["a", 2, None], ("a", "2")),
        ({"not": "a list"}, None),
    ],
)
def test_list_properties_parse_one_way(value: object, strings: tuple[str, ...] | None) -> None:
    assert as_strings(value) == strings


def test_slugs_leave_out_the_shared_stop_words() -> None:
    assert {"should", "the", "lets"} <= STOPWORDS
    assert slugify("Let's say we should use the pytest fixtures") == "say-use-pytest-fixtures"
