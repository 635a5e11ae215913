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
    "flaw",
    ["open to others", "open to its group", "others may enter", "a symlink", "another user's"],
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
        folder.chmod({"open to others": 0o777, "open to its group": 0o770}.get(flaw, 0o701))
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


def test_the_refusal_names_the_mode_that_is_wrong(long_root: Path) -> None:
    folder = Path(shared_socket_folder())
    folder.mkdir(mode=0o700)
    folder.chmod(0o751)
    with pytest.raises(UnsafeSocketFolder, match=r"open to other users \(mode 751\); remove it"):
        make_socket_folder(Path(socket_file(long_root)))


def test_before_any_daemon_made_the_shared_folder_a_client_finds_no_daemon(
    long_root: Path,
) -> None:
    """A first prompt in a vault with a long path: nothing to talk to yet, which the
    hook takes as "no daemon" (it then starts one), not as an error."""
    assert not Path(shared_socket_folder()).exists()
    with pytest.raises(client.DaemonUnavailable):
        client.request(long_root, "ping", timeout=0.2)
    assert client.ping(long_root) is None


def test_a_vault_path_at_the_limit_keeps_its_socket_inside(tmp_path: Path) -> None:
    """Up to 100 bytes the socket stays in the vault's own .index/run; one more and
    it moves to the shared folder (sun_path holds 104 to 108 bytes)."""
    base = len(str(tmp_path.resolve() / "v" / ".index" / "run" / "daemon.sock").encode())
    at_limit = tmp_path / ("v" * (100 - base + 1))
    over = tmp_path / ("v" * (100 - base + 2))
    assert len(socket_file(at_limit).encode()) == 100
    assert socket_file(at_limit) == str(at_limit.resolve() / ".index" / "run" / "daemon.sock")
    assert Path(socket_file(over)).parent == Path(shared_socket_folder())


def test_the_shared_socket_name_is_the_one_earlier_releases_use() -> None:
    """A daemon started by the previous release is found after an upgrade: the
    name is the first 16 hex digits of the SHA-1 of the resolved vault path."""
    root = "/nonexistent/" + "a-vault-with-a-long-name-" * 4
    assert socket_file(root) == os.path.join(shared_socket_folder(), "480719ee035e5c8d.sock")


def test_a_fresh_vault_gets_its_run_folder_private(tmp_path: Path) -> None:
    """The daemon's first start in a vault with no .index yet: the folder holding
    its socket is created 0700, and a second start finds it as it is."""
    from hooks.client.protocol import socket_path

    root = tmp_path / "vault"
    (root / "memories").mkdir(parents=True)
    for _ in range(2):
        make_socket_folder(socket_path(root))
        info = os.lstat(root / ".index" / "run")
        assert stat.S_IMODE(info.st_mode) == 0o700
