"""Reading a file from outside the vault (a note to ingest, a transcript): only
regular files, inside the allowed folders when there are any, under a size cap."""

from __future__ import annotations

import os
import socket
from pathlib import Path

import pytest

from vault.source_files import RefusedSourceError, check_source, read_source


@pytest.fixture
def allowed(tmp_path: Path) -> Path:
    folder = tmp_path / "project"
    folder.mkdir()
    (folder / "adr.md").write_text("We chose PostgreSQL.\n")
    return folder


def test_a_file_inside_an_allowed_folder_is_read(allowed: Path) -> None:
    assert read_source(allowed / "adr.md", [allowed], 1000) == b"We chose PostgreSQL.\n"
    assert read_source(allowed / "adr.md", None, 1000) == b"We chose PostgreSQL.\n"


@pytest.mark.parametrize("path", ["/etc/passwd", "/etc/hostname", "/tmp"])
def test_paths_outside_the_allowed_folders_are_refused(allowed: Path, path: str) -> None:
    with pytest.raises(RefusedSourceError, match="outside the folders"):
        read_source(Path(path), [allowed], 1000)


def test_a_symlink_that_leaves_the_allowed_folders_is_refused(allowed: Path) -> None:
    (allowed / "passwd.md").symlink_to("/etc/passwd")
    with pytest.raises(RefusedSourceError, match="outside the folders"):
        read_source(allowed / "passwd.md", [allowed], 1000)
    (allowed / "inner.md").symlink_to(allowed / "adr.md")
    assert read_source(allowed / "inner.md", [allowed], 1000).startswith(b"We chose")


def test_dotdot_cannot_climb_out(allowed: Path) -> None:
    with pytest.raises(RefusedSourceError, match="outside the folders"):
        read_source(allowed / ".." / ".." / "etc" / "passwd", [allowed], 1000)


@pytest.mark.parametrize(
    "path", ["/proc/self/environ", "/dev/zero", "/dev/null", "/sys/power/state"]
)
def test_special_files_are_refused_even_without_folders(path: str) -> None:
    with pytest.raises(RefusedSourceError, match="special file|not a regular file"):
        read_source(Path(path), None, 1000)


def test_fifos_sockets_and_folders_are_refused_without_blocking(allowed: Path) -> None:
    os.mkfifo(allowed / "pipe.md")
    listener = socket.socket(socket.AF_UNIX)
    listener.bind(str(allowed / "sock.md"))
    try:
        for name in ("pipe.md", "sock.md", "."):
            with pytest.raises(RefusedSourceError, match="not a regular file"):
                read_source(allowed / name, [allowed], 1000)
    finally:
        listener.close()


def test_files_over_the_cap_are_refused(allowed: Path) -> None:
    (allowed / "big.md").write_bytes(b"x" * 1001)
    with pytest.raises(RefusedSourceError, match="larger than"):
        read_source(allowed / "big.md", [allowed], 1000)


def test_check_source_answers_without_reading(allowed: Path, tmp_path: Path) -> None:
    shadow = tmp_path / "shadow"
    shadow.write_text("secret")
    shadow.chmod(0o000)
    with pytest.raises(RefusedSourceError, match="outside the folders"):
        check_source(shadow, [allowed])
    assert check_source(allowed / "adr.md", [allowed]) == (allowed / "adr.md").resolve()
    with pytest.raises(RefusedSourceError, match="no such file"):
        check_source(allowed / "missing.md", [allowed])


def test_a_file_of_exactly_the_cap_is_read_whole(allowed: Path) -> None:
    (allowed / "cap.md").write_bytes(b"y" * 1000)
    assert read_source(allowed / "cap.md", [allowed], 1000) == b"y" * 1000


def test_a_file_that_grows_while_it_is_read_is_refused_not_cut(
    allowed: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A log still being written: its size was under the cap when looked at, and
    more arrived before the read. It is refused, never stored cut at the cap."""
    growing = allowed / "session.log"
    growing.write_bytes(b"z" * 900)
    real_fstat = os.fstat

    def then_more_arrives(fd: int) -> os.stat_result:
        found = real_fstat(fd)
        with growing.open("ab") as writer:
            writer.write(b"z" * 200)
        return found

    monkeypatch.setattr(os, "fstat", then_more_arrives)
    with pytest.raises(RefusedSourceError, match="larger than 1000 bytes"):
        read_source(growing, [allowed], 1000)


def test_a_file_swapped_for_a_link_after_the_check_is_not_followed(
    allowed: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Between the check and the open, someone swaps the note for a link to a
    file outside the allowed folders: the open refuses to follow it."""
    import vault.source_files as source_files

    real_check = source_files.check_source

    def check_then_swap(path: Path, folders: object, setting: str = "") -> Path:
        resolved = real_check(path, folders)  # type: ignore[arg-type]
        resolved.unlink()
        resolved.symlink_to("/etc/passwd")
        return resolved

    monkeypatch.setattr(source_files, "check_source", check_then_swap)
    with pytest.raises(RefusedSourceError, match="cannot be read"):
        read_source(allowed / "adr.md", [allowed], 100_000)


@pytest.mark.parametrize("kind", ["a link to itself", "a file used as a folder"])
def test_a_path_the_system_cannot_stat_is_refused_in_one_line(allowed: Path, kind: str) -> None:
    if kind == "a link to itself":
        (allowed / "loop.md").symlink_to(allowed / "loop.md")
        path = allowed / "loop.md"
    else:
        path = allowed / "adr.md" / "inner.md"
    with pytest.raises(RefusedSourceError, match="cannot be read"):
        check_source(path, [allowed])


def test_with_no_folder_allowed_the_refusal_says_none(allowed: Path) -> None:
    with pytest.raises(RefusedSourceError, match=r"may read \(none\); add its folder to"):
        check_source(allowed / "adr.md", [])
