"""The suite's longest-first order names files that exist: a renamed file would
silently fall back to its collection place and become the suite's tail again."""

from __future__ import annotations

from pathlib import Path

from tests.conftest import LONGEST_FIRST

ROOT = Path(__file__).resolve().parents[1]


def test_every_file_in_the_longest_first_order_exists_once() -> None:
    assert [name for name in LONGEST_FIRST if not (ROOT / name).is_file()] == []
    assert len(set(LONGEST_FIRST)) == len(LONGEST_FIRST)
