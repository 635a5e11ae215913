"""Folders indexed in place and categories, through `vault` as a process: a notes
folder's documents are searchable beside memories, follow edits and removals,
leave when the folder leaves the setting, are never written by recall,
reinforcement, prune, consolidation or a rebuild; `recall -c` filters by the
category_rules. The daemon's watcher test lives in tests/hooks/daemon/."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from vault.layout import Vault

pytestmark = pytest.mark.model
DEPLOY = "Shipping to production: build the container image, push it, then flip blue-green.\n"
AUTH = "The zanzibar token bug: sessions expired early because clock skew allowance was zero.\n"
MEMORY = "Prefer pytest fixtures over unittest setUp in this codebase."
HIDDEN_WORD = "quetzalcoatl"  # only in files that must never be indexed
DAY = "2026-03-01T09:00:00Z"


def vault_cli(vault: Vault, *args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "VAULT_HOME": str(vault.root)}
    return subprocess.run([sys.executable, "-m", "hooks.cli", *args], capture_output=True,
                          text=True, env=env, timeout=300)  # fmt: skip


def ok(result: subprocess.CompletedProcess[str]) -> str:
    assert result.returncode == 0, result.stderr
    return result.stdout


def found(vault: Vault, query: str, *extra: str) -> list[dict[str, Any]]:
    hits: list[dict[str, Any]] = json.loads(
        ok(vault_cli(vault, "recall", query, "--keyword-only", "-n", "20", "--json", *extra))
    )
    return hits


def paths(hits: list[dict[str, Any]]) -> set[str]:
    return {hit["path"] for hit in hits}


def configure(vault: Vault, notes: Path | None, rules: tuple[str, ...] = ()) -> None:
    folders = f"index_paths = [{json.dumps(str(notes))}]\n" if notes else ""
    listed = ", ".join(json.dumps(rule) for rule in rules)
    vault.config_path.write_text(f"[folders]\n{folders}[categories]\ncategory_rules = [{listed}]\n")


def files_state(folder: Path) -> dict[str, tuple[bytes, int]]:
    """Every file's bytes and mtime, links too (never followed)."""
    return {
        str(path): (path.read_bytes() if not path.is_symlink() else b"", path.lstat().st_mtime_ns)
        for path in sorted(folder.rglob("*"))
        if path.is_file() or path.is_symlink()
    }


@pytest.fixture
def notes(tmp_path: Path) -> Path:
    folder = tmp_path / "notes"
    (folder / "team").mkdir(parents=True)
    (folder / "deploy.md").write_text(DEPLOY)
    (folder / "team" / "auth.txt").write_text(AUTH)
    for skipped in ("node_modules/pkg/readme.md", ".git/notes.md", "a/b/c/d/too-deep.md"):
        (folder / skipped).parent.mkdir(parents=True, exist_ok=True)
        (folder / skipped).write_text(f"{HIDDEN_WORD} {skipped}\n")
    (folder / "picture.png").write_text(f"{HIDDEN_WORD} not a document ending\n")
    (folder / "latin1.md").write_bytes(b"caf\xe9 " + HIDDEN_WORD.encode() + b"\n")
    outside = tmp_path / "private.md"
    outside.write_text(f"{HIDDEN_WORD} outside the folder\n")
    (folder / "link.md").symlink_to(outside)
    return folder


def test_a_folder_is_searchable_in_place_follows_edits_and_leaves_with_its_setting(
    vault: Vault, notes: Path
) -> None:
    configure(vault, notes)
    synced = vault_cli(vault, "reindex")
    assert "2 folder documents indexed" in ok(synced)
    assert synced.stderr.count("latin1.md") == 1
    assert "not UTF-8" in synced.stderr

    hits = found(vault, "production container blue-green")
    deploy = next(hit for hit in hits if hit["path"] == str(notes / "deploy.md"))
    assert (deploy["source"], deploy["tier"], deploy["strength"]) == ("folder", "curated", 1.0)
    assert str(notes / "team" / "auth.txt") in paths(found(vault, "zanzibar"))
    assert found(vault, HIDDEN_WORD) == []  # skipped folders, depth, endings, links, bad text
    ok(vault_cli(vault, "jot", MEMORY))
    again = vault_cli(vault, "reindex")
    assert "latin1.md" not in again.stderr  # reported once, until the file changes

    (notes / "deploy.md").write_text(DEPLOY + "Rollbacks use the kestrel switch.\n")
    (notes / "team" / "auth.txt").unlink()
    assert paths(found(vault, "kestrel")) == {str(notes / "deploy.md")}
    assert found(vault, "zanzibar") == []
    assert any(hit["source"] == "jot" for hit in found(vault, "pytest fixtures"))

    configure(vault, None)
    assert found(vault, "kestrel") == []
    assert any(hit["source"] == "jot" for hit in found(vault, "pytest fixtures"))
    assert (notes / "deploy.md").read_text().endswith("kestrel switch.\n")


def test_documents_are_never_written_by_recall_or_the_lifecycle(vault: Vault, notes: Path) -> None:
    configure(vault, notes)
    ok(vault_cli(vault, "jot", MEMORY))
    ok(vault_cli(vault, "reindex"))
    before = files_state(notes)
    for _ in range(3):  # reinforcing recalls (the default) and associative ones
        hits = json.loads(ok(vault_cli(vault, "recall", "ship to production", "--json")))
        assert hits[0]["path"] == str(notes / "deploy.md")
        assert not hits[0]["reinforced"]
        ok(vault_cli(vault, "recall", "zanzibar token sessions", "--associative", "--json"))
    refused = vault_cli(vault, "reinforce", hits[0]["id"])
    assert refused.returncode != 0
    assert "never strengthened or written" in refused.stderr
    year_later = "2027-06-01T09:00:00Z"
    pruned = json.loads(ok(vault_cli(vault, "prune", "--json", "--now", year_later)))
    assert str(notes) not in json.dumps(pruned)
    ok(vault_cli(vault, "consolidate", "--json", "--now", year_later))
    ok(vault_cli(vault, "reindex", "--full"))
    assert files_state(notes) == before
    assert paths(found(vault, "blue-green")) == {str(notes / "deploy.md")}


def test_recall_filters_by_category_and_refuses_an_unknown_one(vault: Vault, notes: Path) -> None:
    configure(vault, notes, (f"{notes}/team/**=project", "memories/**=personal"))
    ok(vault_cli(vault, "jot", "The zanzibar staging box is rebooted every Monday."))
    ok(vault_cli(vault, "reindex"))
    both = found(vault, "zanzibar")
    assert {hit["category"] for hit in both} == {"project", "personal"}
    project = found(vault, "zanzibar", "-c", "project")
    assert paths(project) == {str(notes / "team" / "auth.txt")}
    personal = found(vault, "zanzibar", "--category", "personal")
    assert [hit["source"] for hit in personal] == ["jot"]
    assert "category project" in ok(vault_cli(vault, "recall", "zanzibar", "-c", "project"))

    unknown = vault_cli(vault, "recall", "zanzibar", "-c", "work")
    assert unknown.returncode != 0
    assert unknown.stdout == ""
    assert unknown.stderr.strip().splitlines() == [
        "Error: unknown category 'work'; known: personal, project"
    ]
