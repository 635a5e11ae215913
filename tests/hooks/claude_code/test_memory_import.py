"""Claude Code's auto memory and CLAUDE.md files become curated memories; a
re-import changes nothing, or updates the section that changed."""

from __future__ import annotations

from pathlib import Path

from hooks.claude_code.install import GUIDE
from hooks.claude_code.memory_import import (
    auto_memory_items,
    claude_md_items,
    decode_project_folder,
    sections,
)
from memory.config import MemoryConfig
from memory.importers.core import Importer
from tests.conftest import FakeClock
from vault.clock import parse_time
from vault.layout import Vault
from vault.store import MemoryStore

OLDER = """---
name: User role
description: backend dev on acme-api; prefers terse answers
type: user
originSessionId: 5f0c2d7e-1111
---
The user is a backend developer on acme-api and prefers short answers with code.
"""
NEWER = """---
name: feedback_testing
description: "pytest fixtures, not unittest setUp/tearDown"
metadata: 
  node_type: memory
  type: feedback
  originSessionId: 9bcb5645-2222
  modified: 2026-11-29T19:36:00.000Z
---

Use pytest fixtures instead of unittest `setUp`/`tearDown` in this codebase.

**Why:** sharing fixtures across test files was painful.
"""  # noqa: W291 - Claude Code writes `metadata: ` with a trailing space
CLAUDE_MD = """# acme-api

FastAPI service for order intake.

## Commands
- `uv run pytest -q` runs the tests.

<!-- a note to self, not for Claude -->
## Conventions
- Use pytest fixtures, never unittest setUp/tearDown.

## Empty

@docs/architecture.md
"""


def _importer(vault: Vault) -> Importer:
    return Importer(vault, MemoryConfig.default(), FakeClock(parse_time("2026-12-02T00:00:00Z")))


def test_auto_memory_of_both_generations(vault: Vault, tmp_path: Path) -> None:
    repo = tmp_path / "work" / "acme-api"
    repo.mkdir(parents=True)
    encoded = "".join(c if c.isalnum() else "-" for c in str(repo))
    memory = tmp_path / "claude" / "projects" / encoded / "memory"
    memory.mkdir(parents=True)
    (memory / "user_role.md").write_text(OLDER)
    (memory / "feedback_testing.md").write_text(NEWER)
    (memory / "MEMORY.md").write_text("- [User role](user_role.md) — backend dev\n")
    found = auto_memory_items(tmp_path / "claude", lambda path: f"identity:{path.name}")
    items, notes = found.items, found.notes
    assert notes == []
    report = _importer(vault).run(items)
    assert len(report.created) == 2
    records = {r.extra["import_extra"]["name"]: r for r in map(MemoryStore(vault).read,
                                                                report.created)}  # fmt: skip
    role, testing = records["User role"], records["feedback_testing"]
    assert (role.kind, role.tier, role.session) == ("preference", "curated", "5f0c2d7e-1111")
    assert role.project == "identity:acme-api"
    assert testing.created == parse_time("2026-11-29T19:36:00Z")
    assert testing.extra["import_extra"]["cc_type"] == "feedback"
    assert testing.body.startswith("Use pytest fixtures")
    assert _importer(vault).run(auto_memory_items(tmp_path / "claude", str).items).created == []


def test_claude_md_one_memory_per_section_and_updates_on_reimport(
    vault: Vault, tmp_path: Path
) -> None:
    path = tmp_path / "CLAUDE.md"
    path.write_text(CLAUDE_MD + "\n" + GUIDE)
    items = claude_md_items(path, "github.com/acme/api")
    assert [(i.topic, i.kind) for i in items] == [
        ("acme-api", "preference"),
        ("Commands", "procedure"),
        ("Conventions", "preference"),
        ("Empty", "preference"),
    ]
    assert all("memory-vault" not in i.text and "note to self" not in i.text for i in items)
    assert items[3].text == "@docs/architecture.md"  # imports stay as text
    report = _importer(vault).run(items)
    assert len(report.created) == 4
    path.write_text(CLAUDE_MD.replace("never unittest", "not unittest"))
    again = _importer(vault).run(claude_md_items(path, "github.com/acme/api"))
    assert (again.created, len(again.updated), len(again.skipped)) == ([], 1, 3)
    record = MemoryStore(vault).read(again.updated[0])
    assert record.body == "- Use pytest fixtures, not unittest setUp/tearDown.\n"
    assert record.source_path == f"{path}#conventions"


def test_sections_without_headings_and_with_a_lead() -> None:
    assert list(sections("just some rules\n")) == [("", "just some rules")]
    assert list(sections("lead\n## A\nx\n")) == [("", "lead"), ("A", "x")]


def test_the_folder_name_decodes_to_the_existing_path(tmp_path: Path) -> None:
    target = tmp_path / "my.repos" / "acme-api_v2"
    target.mkdir(parents=True)
    (tmp_path / "my").mkdir()  # a decoy on the way
    encoded = "".join(c if c.isalnum() else "-" for c in str(target))
    assert decode_project_folder(encoded) == target
    hidden = tmp_path / ".config" / "x"
    hidden.mkdir(parents=True)
    assert decode_project_folder("".join(c if c.isalnum() else "-" for c in str(hidden))) == hidden
    assert decode_project_folder("-no-such-folder-anywhere") is None
