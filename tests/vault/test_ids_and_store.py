from __future__ import annotations

import pytest

from vault.clock import parse_time
from vault.errors import BrokenFileError, InvalidIdError
from vault.ids import make_id, validate_id
from vault.layout import Vault
from vault.store import MemoryStore


@pytest.mark.parametrize("bad", ["../../etc/passwd", "a/b", "..", ".hidden", "", "x\\y", "a\x00b"])
def test_unsafe_ids_are_refused(bad: str) -> None:
    with pytest.raises(InvalidIdError):
        validate_id(bad)


def test_generated_ids_are_readable_and_valid() -> None:
    memory_id = make_id("Let's always use pytest fixtures!", parse_time("2026-11-29T19:36:00Z"))
    assert memory_id.startswith("2026-11-29-always-use-pytest-fixtures-")
    assert validate_id(memory_id) == memory_id


def test_locate_refuses_traversal(vault: Vault) -> None:
    with pytest.raises(InvalidIdError):
        vault.locate("../../etc/passwd")


def test_broken_yaml_is_reported_and_never_rewritten(vault: Vault) -> None:
    path = vault.memories_dir / "broken.md"
    original = b"---\nid: broken\nstability: [7\n---\nbody\n"
    path.write_bytes(original)
    store = MemoryStore(vault)
    with pytest.raises(BrokenFileError, match="broken.md"):
        store.read("broken")
    with pytest.raises(BrokenFileError):
        store.update("broken", lambda record: {"recalls": 1})
    assert path.read_bytes() == original


def test_invalid_field_values_are_reported(vault: Vault) -> None:
    path = vault.memories_dir / "odd.md"
    path.write_text("---\nid: odd\ntier: legendary\n---\nbody\n")
    with pytest.raises(BrokenFileError, match="tier"):
        MemoryStore(vault).read("odd")
