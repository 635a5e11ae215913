"""Two machines on one vault through `vault sync`, as a person runs it: two
clones and a bare remote in temp folders, real git, our merge driver, the real
reinforcement and recall on the real model."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner, Result

from hooks.cli.main import main
from indexer.embedder import Embedder
from vault.frontmatter import parse

pytestmark = pytest.mark.model
FIXTURES = "Prefer pytest fixtures over unittest setUp and tearDown in this codebase."
DEPLOYS = "Deploys to production happen on Tuesday mornings only."


def vault(root: Path, *args: str) -> Result:
    result = CliRunner().invoke(main, ["--vault", str(root), *args])
    assert result.exit_code == 0, result.output
    return result


def as_json(root: Path, *args: str) -> Any:
    return json.loads(vault(root, *args, "--json").stdout)


@pytest.fixture
def machines(tmp_path: Path, embedder: Embedder) -> tuple[Path, Path, str]:
    """A laptop with two memories, synced; a desktop that joined the same remote."""
    remote = tmp_path / "remote.git"
    subprocess.run(["git", "init", "--quiet", "--bare", str(remote)], check=True)
    laptop, desktop = tmp_path / "laptop", tmp_path / "desktop"
    vault(laptop, "init")
    memory_id = vault(laptop, "jot", FIXTURES, "--now", "2026-01-01T09:00:00Z").stdout.strip()
    vault(laptop, "jot", DEPLOYS, "--now", "2026-01-01T09:00:00Z")
    vault(laptop, "sync", "init", str(remote))
    vault(desktop, "init")
    vault(desktop, "sync", "init", str(remote))
    return laptop, desktop, memory_id


def test_reinforced_on_both_machines_the_counters_add_up(machines: tuple[Path, Path, str]) -> None:
    laptop, desktop, memory_id = machines
    vault(laptop, "reinforce", memory_id, "--now", "2026-01-02T09:00:00Z")
    vault(laptop, "reinforce", memory_id, "--now", "2026-01-03T09:00:00Z")
    vault(desktop, "confirm", memory_id, "--now", "2026-01-04T09:00:00Z")
    assert as_json(laptop, "sync", "--now", "2026-01-04T10:00:00Z")["pushed"]
    result = as_json(desktop, "sync", "--now", "2026-01-04T10:00:00Z")
    assert result["conflicts"] == []
    assert result["index"]  # the receiving side's index caught up at once
    vault(laptop, "sync")
    shown = [as_json(root, "show", memory_id, "--now", "2026-01-05") for root in machines[:2]]
    assert {**shown[0], "path": ""} == {**shown[1], "path": ""}
    assert (shown[0]["recalls"], shown[0]["confirmations"]) == (2, 1)
    assert shown[0]["stability"] == pytest.approx(7 * 2.5)  # the larger of 15.75 and 17.5
    assert shown[0]["last_access"].startswith("2026-01-04T09:00:00")  # the later one
    hits = as_json(desktop, "recall", "unittest setUp or fixtures?", "--now", "2026-01-05")
    assert hits[0]["id"] == memory_id
    for root in machines[:2]:
        state = as_json(root, "sync", "status")
        assert (state["ahead"], state["behind"], state["conflicts"]) == (0, 0, [])


def test_a_real_conflict_is_reported_and_recall_keeps_working(
    machines: tuple[Path, Path, str],
) -> None:
    laptop, desktop, memory_id = machines
    for root, words in ((laptop, "always"), (desktop, "except in legacy tests")):
        path = root / "memories" / f"{memory_id}.md"
        path.write_text(path.read_text().replace("codebase.", f"codebase, {words}."))
    vault(laptop, "sync")
    synced = CliRunner().invoke(main, ["--vault", str(desktop), "sync"])
    assert synced.exit_code == 0
    assert f"conflict: memories/{memory_id}.md" in synced.stderr
    status = as_json(desktop, "status")
    [(path, reason)] = [(p["path"], p["reason"]) for p in status["problems"]]
    assert path == f"memories/{memory_id}.md"
    assert "unresolved merge conflict" in reason
    day2 = ("--now", "2026-01-02")
    hits = as_json(desktop, "recall", "when do deploys go to production?", *day2)
    assert [h["text"].strip() for h in hits][:1] == [DEPLOYS]
    fixtures = as_json(desktop, "recall", "pytest fixtures or setUp?", *day2)
    assert memory_id not in {h["id"] for h in fixtures}


def test_cloud_conflict_copies_are_reported_and_never_indexed_twice(
    machines: tuple[Path, Path, str],
) -> None:
    laptop, _, memory_id = machines
    original = laptop / "memories" / f"{memory_id}.md"
    for copy in (f"{memory_id} (conflicted copy).md", f"{memory_id} 2.md",
                 f"{memory_id}-DESKTOP-7Q1.md"):  # fmt: skip
        shutil.copy(original, original.with_name(copy))
    status = as_json(laptop, "status")
    assert len(status["problems"]) == 3
    assert all("conflict copy of" in p["reason"] for p in status["problems"])
    assert status["index"]["memories"] == 2
    hits = as_json(laptop, "recall", "pytest fixtures or setUp?", "--now", "2026-01-02")
    assert [h["id"] for h in hits].count(memory_id) == 1


def test_five_rounds_of_jots_on_both_machines_leave_no_conflict_markers(
    machines: tuple[Path, Path, str],
) -> None:
    """Each new port damps the older port memories (interference); a machine that
    pulls them must not damp again, and the two salience lines must merge."""
    laptop, desktop, _ = machines
    first = "In production the API's uvicorn process binds to port 8000."
    vault(laptop, "jot", first, "--project", "api", "--now", "2026-01-01T10:00:00Z")
    services = ["API", "billing", "search", "auth", "invoices", "gateway"]
    for day in range(1, 6):
        now = ("--now", f"2026-01-{day + 1:02d}T09:00:00Z")
        said = f"The {services[day]} service listens on port {7000 + day}."
        vault(laptop, "jot", said, "--project", "api", *now)
        said = f"The {services[day - 1]} service now listens on port {9000 + day}."
        vault(desktop, "jot", said, "--project", "api", *now)
        vault(desktop, "recall", "which port does the service listen on?", *now)
        for root in (laptop, desktop):  # both commit before either sees the other
            assert as_json(root, "sync", *now)["conflicts"] == []
    for root in (laptop, desktop, laptop):
        assert as_json(root, "sync")["conflicts"] == []
    files = {root: sorted((root / "memories").glob("*.md")) for root in (laptop, desktop)}
    assert [p.name for p in files[laptop]] == [p.name for p in files[desktop]]
    for mine, theirs in zip(files[laptop], files[desktop], strict=True):
        assert "<<<<<<<" not in mine.read_text()
        assert mine.read_text() == theirs.read_text()
        shown = as_json(laptop, "show", mine.stem)
        damped = len(parse(mine.read_text()).meta.get("damped_by") or [])
        assert shown["salience"] == pytest.approx(0.7**damped, abs=1e-3)  # once per newer


def test_a_purged_secret_stays_gone_when_the_other_machine_recalled_it_meanwhile(
    machines: tuple[Path, Path, str],
) -> None:
    laptop, desktop, _ = machines
    secret = "Dana told me in confidence that she is leaving the company in March."
    memory_id = vault(laptop, "jot", secret, "--now", "2026-01-02T09:00:00Z").stdout.strip()
    for root in (laptop, desktop):
        vault(root, "sync", "--now", "2026-01-02T10:00:00Z")
    vault(laptop, "purge", memory_id, "--yes")
    vault(desktop, "reinforce", memory_id, "--now", "2026-01-03T09:00:00Z")
    vault(laptop, "sync")
    synced = vault(desktop, "sync")
    assert f"kept purged memories deleted over edits: memories/{memory_id}.md" in synced.stderr
    vault(laptop, "sync")
    for root in (laptop, desktop):
        assert not list(root.rglob(f"{memory_id}.md"))
        hits = as_json(root, "recall", "who is leaving the company?", "--now", "2026-01-04")
        assert memory_id not in {hit["id"] for hit in hits}
        tracked = subprocess.run(["git", "grep", "-l", "in confidence"], cwd=root,
                                 capture_output=True)  # fmt: skip
        assert tracked.stdout == b""  # not in any file git tracks now
