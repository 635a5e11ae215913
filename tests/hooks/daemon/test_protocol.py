"""The wire format: one reader for every message, each way."""

from __future__ import annotations

import socket

import pytest

from hooks.client.protocol import ProtocolError, decode, encode, read_line


def test_a_message_is_read_up_to_its_newline_across_chunks() -> None:
    ours, theirs = socket.socketpair()
    with ours, theirs:
        theirs.sendall(b'{"op": ')
        theirs.sendall(b'"ping"}\n')
        assert decode(read_line(ours)) == {"op": "ping"}


def test_too_large_broken_or_cut_short_messages_are_refused() -> None:
    ours, theirs = socket.socketpair()
    with ours, theirs:
        theirs.sendall(b"x" * 100)
        with pytest.raises(ProtocolError, match="larger than 50"):
            read_line(ours, limit=50)
    ours, theirs = socket.socketpair()
    with ours:
        theirs.sendall(encode({"op": "ping"})[:-3])
        theirs.close()
        with pytest.raises(ConnectionResetError):
            read_line(ours)
    for line in (b"not json\n", b"[1, 2]\n", b"\xff\n"):
        with pytest.raises(ProtocolError):
            decode(line)
