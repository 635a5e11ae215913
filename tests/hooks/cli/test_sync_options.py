"""`vault sync --push`, `--pull` and `--dry-run` as a person runs them: the CLI
as a subprocess, two vaults and a bare remote in temp folders, real git. A dry
run must leave the files, every ref (history) and the remote as they were."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

MEMORY = """---
id: {id}
created: 2026-01-01T09:00:00Z
last_access: 2026-01-01T09:00:00Z
stability: 7.0
tier: episodic
recalls: 0
confirmations: 0
links: []
---
{body}
"""


def vault(root: Path, *args: str, code: int = 0) -> subprocess.CompletedProcess[str]:
    done = subprocess.run([sys.executable, "-m", "hooks.cli", "--vault", str(root), *args],
                          capture_output=True, text=True, timeout=120)  # fmt: skip
    assert done.returncode == code, done.stdout + done.stderr
    return done


def as_json(root: Path, *args: str) -> Any:
    return json.loads(vault(root, *args, "--json").stdout)


def write_memory(root: Path, memory_id: str, body: str) -> None:
    (root / "memories" / f"{memory_id}.md").write_text(MEMORY.format(id=memory_id, body=body))


def git(root: Path, *args: str) -> str:
    return subprocess.run(["git", *args], cwd=root, capture_output=True, text=True,
                          check=True).stdout  # fmt: skip


def snapshot(root: Path) -> dict[str, Any]:
    """Every file outside .git with its bytes, and every ref with its commit."""
    files = {
        str(path.relative_to(root)): path.read_bytes()
        for path in sorted(root.rglob("*"))
        if path.is_file() and ".git" not in path.relative_to(root).parts[:1]
        and ".index" not in path.parts and ".state" not in path.parts
    }  # fmt: skip
    refs = git(root, "for-each-ref", "--format=%(refname) %(objectname)")
    fetch_head = (
        (root / ".git" / "FETCH_HEAD").read_bytes()
        if (root / ".git" / "FETCH_HEAD").exists()
        else b""
    )
    return {"files": files, "refs": refs, "head": git(root, "rev-parse", "HEAD"),
            "fetch_head": fetch_head, "status": git(root, "status", "--porcelain")}  # fmt: skip


@pytest.fixture
def machines(tmp_path: Path) -> tuple[Path, Path, Path]:
    """A laptop and a desktop, both synced once with one shared memory."""
    remote = tmp_path / "remote.git"
    subprocess.run(["git", "init", "--quiet", "--bare", str(remote)], check=True)
    laptop, desktop = tmp_path / "laptop", tmp_path / "desktop"
    vault(laptop, "init")
    write_memory(laptop, "2026-01-01-shared-ab12", "Deploys happen on Tuesdays.")
    vault(laptop, "sync", "init", str(remote))
    vault(desktop, "init")
    vault(desktop, "sync", "init", str(remote))
    return laptop, desktop, remote


def test_dry_run_names_what_would_move_and_changes_nothing(
    machines: tuple[Path, Path, Path],
) -> None:
    laptop, desktop, remote = machines
    write_memory(laptop, "2026-01-02-laptop-cd34", "The laptop learned the port is 8080.")
    vault(laptop, "sync", "--no-index")
    write_memory(desktop, "2026-01-02-desktop-ef56", "The desktop learned to use ruff.")
    (desktop / "notes.txt").write_text("scratch, not a memory")
    before, remote_before = snapshot(desktop), git(remote, "for-each-ref")

    shown = vault(desktop, "sync", "--dry-run").stdout
    assert "would commit 1 files: memories/2026-01-02-desktop-ef56.md" in shown
    assert "would leave out 1 files that are not memories or notes: notes.txt" in shown
    assert "would pull 1 commits changing 1 files: memories/2026-01-02-laptop-cd34.md" in shown
    assert "would push 1 commits" in shown  # the new memory's, rebased onto the remote
    found = as_json(desktop, "sync", "--dry-run")
    assert found["incoming"] == ["memories/2026-01-02-laptop-cd34.md"]
    assert found["dry_run"] is True

    assert snapshot(desktop) == before  # no file, commit, ref or FETCH_HEAD changed
    assert git(remote, "for-each-ref") == remote_before
    assert not (desktop / "memories" / "2026-01-02-laptop-cd34.md").exists()
    vault(desktop, "sync", "--no-index")  # the real sync then does what was said
    assert (desktop / "memories" / "2026-01-02-laptop-cd34.md").is_file()
    assert git(remote, "rev-parse", "main") == git(desktop, "rev-parse", "HEAD")


def test_pull_takes_in_and_sends_nothing(machines: tuple[Path, Path, Path]) -> None:
    laptop, desktop, remote = machines
    write_memory(laptop, "2026-01-02-laptop-cd34", "The laptop learned the port is 8080.")
    vault(laptop, "sync", "--no-index")
    write_memory(desktop, "2026-01-02-desktop-ef56", "The desktop learned to use ruff.")
    remote_before = git(remote, "rev-parse", "main")

    result = as_json(desktop, "sync", "--pull", "--no-index")
    assert result["pulled"] == ["memories/2026-01-02-laptop-cd34.md"]
    assert result["pushed"] is False
    assert (desktop / "memories" / "2026-01-02-laptop-cd34.md").is_file()
    assert git(remote, "rev-parse", "main") == remote_before  # nothing sent
    assert "2026-01-02-desktop-ef56" in git(desktop, "log", "--name-only")  # committed here
    assert as_json(desktop, "sync", "status")["ahead"] == 1


def test_push_sends_and_refuses_over_commits_it_lacks(machines: tuple[Path, Path, Path]) -> None:
    laptop, desktop, remote = machines
    write_memory(desktop, "2026-01-02-desktop-ef56", "The desktop learned to use ruff.")
    assert as_json(desktop, "sync", "--push", "--no-index")["pushed"] is True
    assert "2026-01-02-desktop-ef56" in git(remote, "log", "--name-only", "main")

    write_memory(laptop, "2026-01-03-laptop-aa11", "The laptop learned the queue limit.")
    refused = vault(laptop, "sync", "--push", "--no-index", code=1)
    assert refused.stderr.strip().count("\n") == 0  # one line
    assert "the remote has 1 commits this machine lacks" in refused.stderr
    assert "2026-01-03-laptop-aa11" not in git(remote, "log", "--name-only", "main")
    assert not (laptop / "memories" / "2026-01-02-desktop-ef56.md").exists()  # not taken in


def test_push_and_pull_together_is_a_usage_error(machines: tuple[Path, Path, Path]) -> None:
    refused = vault(machines[0], "sync", "--push", "--pull", code=2)
    assert "exclude each other" in refused.stderr


def test_dry_run_without_a_repository_is_one_line(tmp_path: Path) -> None:
    vault(tmp_path / "v", "init")
    refused = vault(tmp_path / "v", "sync", "--dry-run", code=3)
    assert "vault sync init REMOTE" in refused.stderr
    assert refused.stderr.strip().count("\n") == 0
