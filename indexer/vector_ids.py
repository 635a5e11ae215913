"""Stable 63-bit vector ids: a hash of (memory id, chunk number).

Ids survive rebuilds and moves, so the same memory always owns the same rows.
"""

from __future__ import annotations

import hashlib


def vector_id(memory_id: str, chunk_no: int) -> int:
    digest = hashlib.blake2b(f"{memory_id}#{chunk_no}".encode(), digest_size=8).digest()
    return int.from_bytes(digest, "big") & 0x7FFF_FFFF_FFFF_FFFF
