"""`vault changelog TEXT [--project P]` (and MemoryVault.append_to_changelog) as a
person uses it: dated lines in one changelog memory per project, redacted,
found by recall, nothing lost to concurrent writers or an editor's save. The CLI
as a subprocess, the real model for recall."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from hooks.api import MemoryVault, VaultApiError
from vault.frontmatter import parse

pytestmark = pytest.mark.model
PROJECT = "github.com/acme/api"
SECRET = "ghp_" + "a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8"


def vault(root: Path, *args: str, code: int = 0) -> subprocess.CompletedProcess[str]:
    done = subprocess.run([sys.executable, "-m", "hooks.cli", "--vault", str(root), *args],
                          capture_output=True, text=True, timeout=180)  # fmt: skip
    assert done.returncode == code, done.stdout + done.stderr
    return done


def as_json(root: Path, *args: str) -> Any:
    return json.loads(vault(root, *args, "--json").stdout)


@pytest.fixture
def root(tmp_path: Path) -> Path:
    vault(tmp_path / "v", "init")
    return tmp_path / "v"


def test_entries_are_dated_lines_of_one_memory_per_project_found_by_recall(root: Path) -> None:
    first = as_json(root, "changelog", "Shipped new auth flow", "--project", PROJECT,
                    "--now", "2027-01-25T10:00:00Z")  # fmt: skip
    assert first["entry"] == "- 2027-01-25 Shipped new auth flow"
    second = as_json(root, "changelog", f"Rotated the deploy token {SECRET}", "--project",
                     PROJECT, "--now", "2027-01-26T10:00:00Z")  # fmt: skip
    assert second["id"] == first["id"]
    other = as_json(root, "changelog", "Released the CLI 2.0", "--now", "2027-01-26T11:00:00Z")
    assert other["id"] == "changelog" != first["id"]

    path = Path(first["path"])
    assert path.parent == root / "memories"
    memory = parse(path.read_text())
    assert memory.meta["kind"] == "changelog"
    assert memory.meta["tier"] == "curated"
    assert memory.meta["project"] == PROJECT
    lines = memory.body.strip().splitlines()
    assert lines[0] == f"# Changelog: {PROJECT}"
    assert lines[-2:] == ["- 2027-01-25 Shipped new auth flow",
                          "- 2027-01-26 Rotated the deploy token [REDACTED]"]  # fmt: skip
    assert SECRET not in path.read_text()
    assert "Released the CLI 2.0" not in path.read_text()

    hits = as_json(root, "recall", "when did we ship the new auth flow?", "--now",
                   "2027-01-27T10:00:00Z")  # fmt: skip
    assert hits[0]["id"] == first["id"]


def test_an_editors_line_and_concurrent_writers_are_all_kept(root: Path) -> None:
    made = as_json(root, "changelog", "First entry", "--now", "2027-01-25T10:00:00Z")
    path = Path(made["path"])
    path.write_text(path.read_text() + "- 2027-01-25 Added by hand in the editor\n")
    writers = [
        subprocess.Popen(
            [
                sys.executable,
                "-m",
                "hooks.cli",
                "--vault",
                str(root),
                "changelog",
                f"Concurrent entry {n}",
                "--now",
                "2027-01-26T10:00:00Z",
            ],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )  # fmt: skip
        for n in range(3)
    ]
    for writer in writers:
        _, errors = writer.communicate(timeout=180)
        assert writer.returncode == 0, errors
    body = parse(path.read_text()).body
    assert "- 2027-01-25 Added by hand in the editor" in body
    assert "- 2027-01-25 First entry" in body
    for n in range(3):
        assert body.count(f"- 2027-01-26 Concurrent entry {n}\n") == 1


def test_empty_or_private_text_is_a_one_line_error(root: Path) -> None:
    refused = vault(root, "changelog", "<private>only this</private>", code=1)
    assert refused.stderr.strip().count("\n") == 0
    assert "changelog entry is empty" in refused.stderr
    assert not (root / "memories" / "changelog.md").exists()


def test_the_python_api_appends_the_same_way(root: Path) -> None:
    api = MemoryVault(root, now="2027-01-25T10:00:00Z")
    assert api.append_to_changelog("Shipped new auth flow") == "- 2027-01-25 Shipped new auth flow"
    assert api.append_to_changelog("Fixed login", project=PROJECT) == "- 2027-01-25 Fixed login"
    assert "Shipped new auth flow" in (root / "memories" / "changelog.md").read_text()
    with pytest.raises(VaultApiError) as refused:
        api.append_to_changelog("   ")
    assert refused.value.exit_code == 1
    assert os.path.exists(root / "memories" / "changelog.md")
