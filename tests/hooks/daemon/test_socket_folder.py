"""The shared socket folder for long vault paths: ours alone (0700, owned by us,
not a symlink) or refused, by the daemon and by every client; named by the
resolved vault path."""

from __future__ import annotations

import os
import socket
import stat
import tempfile
from pathlib import Path

import pytest

from hooks.client import client
from hooks.client.protocol import (
    UnsafeSocketFolder,
    make_socket_folder,
    shared_socket_folder,
    socket_file,
)


@pytest.fixture
def long_root(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A vault whose own socket path would be too long, with a private temp dir."""
    temp = tmp_path / "tmp"
    temp.mkdir()
    monkeypatch.setattr(tempfile, "tempdir", str(temp))
    root = tmp_path / ("vault-with-a-long-name-" * 5)
    (root / "memories").mkdir(parents=True)
    return root


def listening(path: str) -> socket.socket:
    """A server socket at `path` (a daemon, or someone posing as one)."""
    server = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    server.bind(path)
    server.listen(1)
    server.setblocking(False)
    return server


def test_a_long_vault_path_gets_a_private_shared_folder(long_root: Path) -> None:
    path = Path(socket_file(long_root))
    assert str(path.parent) == shared_socket_folder()
    make_socket_folder(path)
    info = os.lstat(path.parent)
    assert stat.S_IMODE(info.st_mode) == 0o700
    assert info.st_uid == os.getuid()


def test_the_socket_is_named_by_the_resolved_vault_path(long_root: Path, tmp_path: Path) -> None:
    alias = tmp_path / "alias"
    alias.symlink_to(long_root)
    spellings = [long_root, alias, long_root / ".." / long_root.name, str(long_root) + "/"]
    assert len({socket_file(spelling) for spelling in spellings}) == 1


@pytest.mark.parametrize(
    "flaw", ["open to others", "open to its group", "a symlink", "another user's"]
)
def test_an_unsafe_shared_folder_is_refused_by_daemon_and_client(
    long_root: Path, tmp_path: Path, flaw: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    if flaw == "another user's":
        # The daemon and client run as another uid than the one that made the
        # folder: a uid seam, so no root or user namespace is needed.
        other = os.getuid() + 4242
        monkeypatch.setattr(os, "getuid", lambda: other)
        Path(shared_socket_folder()).mkdir(mode=0o700)  # made by us, not by `other`
    folder = Path(shared_socket_folder())
    if flaw == "a symlink":
        elsewhere = tmp_path / "elsewhere"
        elsewhere.mkdir(mode=0o700)
        folder.symlink_to(elsewhere)
    elif flaw != "another user's":
        folder.mkdir(mode=0o700)
        folder.chmod(0o777 if flaw == "open to others" else 0o770)
    path = socket_file(long_root)
    with pytest.raises(UnsafeSocketFolder, match="refusing the socket folder"):
        make_socket_folder(Path(path))
    with listening(path) as impostor:
        with pytest.raises(client.DaemonUnavailable, match="refusing"):
            client.request(long_root, "ping")
        with pytest.raises(client.DaemonUnavailable, match="refusing"):
            client.prompt_event(str(long_root), b'{"prompt": "secret plans"}', None, 1.0)
        with pytest.raises(BlockingIOError):
            impostor.accept()  # nobody ever connected to it


def test_a_safe_shared_folder_is_used(long_root: Path) -> None:
    path = socket_file(long_root)
    make_socket_folder(Path(path))
    server = listening(path)
    with server:
        with pytest.raises(client.DaemonSlow):  # connected and sent; no answer came
            client.request(long_root, "ping", timeout=0.2)
        connection, _ = server.accept()
        connection.close()
