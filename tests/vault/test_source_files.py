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
