"""Imports flow hooks -> memory -> indexer -> vault, never upward."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
LAYERS = ["vault", "indexer", "memory", "hooks"]


def imported_packages(path: Path) -> set[str]:
    found = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            found |= {alias.name.split(".")[0] for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            found.add(node.module.split(".")[0])
    return found


@pytest.mark.parametrize("package", LAYERS)
def test_no_upward_imports(package: str) -> None:
    above = set(LAYERS[LAYERS.index(package) + 1 :])
    for path in (ROOT / package).rglob("*.py"):
        assert not (imported_packages(path) & above), f"{path} imports upward"
