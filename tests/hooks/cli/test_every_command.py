"""Every `vault` command as the process a person runs, once at least: the ones
other tests drive only in-process or not at all get a real run here (demo, ccl,
cold, sweep, the periodic notes, sync, import and export, access-stats,
consolidate, prune and revive, validate, uninstall). `test_every_command_is_here`
fails when a command is added without a process test."""

from __future__ import annotations

import json
import os
import pty
import subprocess
import sys
from pathlib import Path

import click
import pytest

from hooks.cli.main import main
from tests.hooks.cli.test_cli import read_terminal

pytestmark = pytest.mark.model
DAY = "2026-03-02T09:00:00Z"
FACTS = [
    "The nightly backup of the orders database runs at 02:00 UTC.",
    "Billing amounts are stored as integer cents, never as floats.",
    "Release branches are cut on Thursdays after the team standup.",
]
# Commands whose process runs other modules own (file named), and this module's.
ELSEWHERE = {
    "bench": "test_bench.py",
    "capture": "test_every_way_in.py",
    "changelog": "test_changelog.py",
    "compaction": "test_compaction.py",
    "config": "test_notes_cli.py",
    "confirm": "test_one_writer.py",
    "daemon": "test_daemon.py",
    "daily": "test_notes_cli.py",
    "doctor": "test_doctor.py",
    "forget": "test_one_writer.py",
    "graph": "test_association.py",
    "ingest": "test_one_writer.py",
    "init": "machine.py",
    "install": "test_vault_install.py",
    "jot": "test_one_writer.py",
    "links": "test_association.py",
    "list": "test_cli.py",
    "mcp": "test_mcp.py",
    "merge-driver": "test_sync.py",
    "monthly": "test_notes_cli.py",
    "periodic": "test_notes_cli.py",
    "purge": "test_cli.py",
    "recall": "test_cli.py",
    "reindex": "test_one_writer.py",
    "reinforce": "test_one_writer.py",
    "serve": "test_end_to_end.py",
    "show": "test_cli.py",
    "status": "test_cli.py",
    "topics": "test_association.py",
    "weekly": "test_notes_cli.py",
}
HERE = {"demo", "ccl", "cold", "sweep", "quarterly", "yearly", "sync", "import", "export",
        "access-stats", "consolidate", "prune", "revive", "validate", "uninstall"}  # fmt: skip


def vault(
    root: Path, *args: str, env: dict[str, str] | None = None
) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "hooks.cli", "--vault", str(root), *args],
                          capture_output=True, text=True, timeout=300,
                          env={**os.environ, **(env or {})})  # fmt: skip


def on_a_terminal(root: Path, *args: str) -> tuple[str, str]:
    """`vault ARGS` with stderr on a pseudo-terminal: its stdout, and what it drew."""
    primary, replica = pty.openpty()
    process = subprocess.Popen([sys.executable, "-m", "hooks.cli", "--vault", str(root), *args],
                               stdout=subprocess.PIPE, stderr=replica, text=True)  # fmt: skip
    os.close(replica)
    drawn = read_terminal(primary)
    os.close(primary)
    stdout, _ = process.communicate(timeout=300)
    assert process.returncode == 0, drawn
    return stdout, drawn


def ok(result: subprocess.CompletedProcess[str]) -> str:
    assert result.returncode == 0, result.stderr
    return result.stdout


@pytest.fixture
def root(tmp_path: Path) -> Path:
    """A vault with three facts, imported as JSONL by the `import` process."""
    folder = tmp_path / "vault"
    ok(vault(folder, "init"))
    lines = tmp_path / "facts.jsonl"
    lines.write_text("".join(json.dumps({"text": f, "created": "2026-03-01T09:00:00Z"}) + "\n"
                             for f in FACTS))  # fmt: skip
    report = json.loads(ok(vault(folder, "import", "--jsonl", str(lines), "--json")))
    assert len(report["created"]) == 3
    return folder


def test_every_command_is_here() -> None:
    assert set(main.list_commands(click.Context(main))) == set(ELSEWHERE) | HERE
    assert not set(ELSEWHERE) & HERE


def test_demo_tells_the_story_on_the_real_model(tmp_path: Path) -> None:
    out = ok(vault(tmp_path / "unused", "demo", "--dir", str(tmp_path / "demo")))
    assert 'Day 19, project-b asks: "should I use TestCase.setUp() here' in out
    story = out[out.index("Day 19") : out.index("yeah, still applies")]
    assert "might be related" in story
    assert "always-use-pytest-fixtures" in story.split("might be related")[1]
    assert "stability 7.0 -> 17.5 days" in out
    assert list((tmp_path / "demo" / "memories").glob("*.md"))


def test_export_then_import_into_another_vault(root: Path, tmp_path: Path) -> None:
    exported = tmp_path / "all.jsonl"
    ok(vault(root, "export", "--jsonl", "-o", str(exported)))
    rows = [json.loads(line) for line in exported.read_text().splitlines()]
    assert sorted(row["text"].strip() for row in rows) == sorted(FACTS)
    other = tmp_path / "other"
    ok(vault(other, "init"))
    assert "created 3" in ok(vault(other, "import", "--jsonl", str(exported)))
    assert "created 0" in ok(vault(other, "import", "--jsonl", str(exported)))  # idempotent


def test_prune_then_cold_then_revive(root: Path) -> None:
    year_later = "2027-03-02T09:00:00Z"
    pruned = json.loads(ok(vault(root, "prune", "--json", "--now", year_later)))
    assert len(pruned["archived"]) == 3
    assert not list((root / "memories").rglob("*.md"))
    found = json.loads(ok(vault(root, "cold", "billing amounts stored as integer cents", "--json",
                                "--now", year_later)))  # fmt: skip
    billing = found[0]["id"]
    assert "billing" in billing
    ok(vault(root, "revive", billing, "--now", year_later))
    assert [p.stem for p in (root / "memories").rglob("*.md")] == [billing]


def test_validate_and_access_stats(root: Path) -> None:
    memory_id = sorted(p.stem for p in (root / "memories").rglob("*.md"))[0]
    ok(vault(root, "validate", "--up", memory_id, "--now", DAY))
    shown = json.loads(ok(vault(root, "show", memory_id, "--json", "--now", DAY)))
    assert shown["confidence"] > 0.5
    recalled = ok(vault(root, "recall", "how are billing amounts stored", "--now", DAY))
    billing = recalled.split()[0]
    stats = json.loads(ok(vault(root, "access-stats", "--json", "--now", DAY)))
    assert [(row["id"], row["appearances_total"]) for row in stats] == [(billing, 1)]


def test_consolidate_merges_a_restatement_and_undoes_it(root: Path, tmp_path: Path) -> None:
    again = tmp_path / "again.jsonl"
    restated = "Billing amounts are kept as integer cents, never floats."
    again.write_text(json.dumps({"text": restated, "created": "2026-03-01T10:00:00Z"}) + "\n")
    ok(vault(root, "import", "--jsonl", str(again)))
    before = sorted(p.name for p in (root / "memories").rglob("*.md"))
    stdout, drawn = on_a_terminal(root, "consolidate", "--json", "--now", DAY)
    run = json.loads(stdout)
    stages = ["Reading memories", "Comparing memories", "Judging pairs", "Applying", "Indexing"]
    shown = [drawn.find(stage) for stage in stages]  # a bar each, in the order they ran
    assert -1 not in shown, drawn
    assert shown == sorted(shown), drawn
    after = sorted(p.name for p in (root / "memories").rglob("*.md"))
    assert len(after) < len(before), run
    listed = ok(vault(root, "consolidate", "--list"))
    assert run["run"] in listed
    ok(vault(root, "consolidate", "--undo", run["run"]))
    assert sorted(p.name for p in (root / "memories").rglob("*.md")) == before


PIN = (
    "let's always pin the postgres image to 16.4 in compose files, the 17 beta broke our "
    "migrations last month"
)


def test_sweep_captures_a_session_nobody_captured(root: Path, tmp_path: Path) -> None:
    claude = tmp_path / "claude"
    folder = claude / "projects" / "-work-api"
    folder.mkdir(parents=True)
    turn = {"type": "user", "sessionId": "s-crashed", "cwd": "/work/api",
            "timestamp": "2026-03-02T08:00:00Z", "uuid": "u1",
            "message": {"role": "user", "content": PIN}}  # fmt: skip
    (folder / "s-crashed.jsonl").write_text(json.dumps(turn) + "\n")
    env = {"CLAUDE_CONFIG_DIR": str(claude), "VAULT_TRANSCRIPTS_ALLOWED": str(claude)}
    out = ok(vault(root, "sweep", "--now", DAY, env=env))
    assert "1" in out
    bodies = [p.read_text() for p in (root / "memories").rglob("*.md")]
    assert any("postgres image to 16.4" in body for body in bodies)
    again = ok(vault(root, "sweep", "--now", DAY, env=env))
    assert again != out or "0" in again  # a second sweep finds nothing new


def test_ccl_compresses_and_decodes_a_claude_md(tmp_path: Path) -> None:
    claude_md = tmp_path / "CLAUDE.md"
    claude_md.write_text("# Rules\n\nAlways run the tests before you commit the changes.\n"
                         "Never write secrets to the repository.\n")  # fmt: skip
    analysed = json.loads(ok(vault(tmp_path, "ccl", "--analyze", str(claude_md), "--json")))
    assert analysed
    encoded = tmp_path / "CLAUDE.ccl"
    ok(vault(tmp_path, "ccl", "--encode", str(claude_md), "--tier", "2", "-o", str(encoded)))
    assert 0 < len(encoded.read_text()) < len(claude_md.read_text())
    decoded = ok(vault(tmp_path, "ccl", "--decode", str(encoded))).lower()
    assert "test" in decoded
    assert "secret" in decoded


@pytest.mark.parametrize("level", ["quarterly", "yearly"])
def test_quarterly_and_yearly_notes(root: Path, level: str) -> None:
    out = ok(vault(root, level, "--now", DAY))
    folder = root / "periodic" / level
    [note] = list(folder.glob("*.md"))
    assert note.stem in ("2026-Q1", "2026")
    assert note.stem in out or note.read_text().strip() in out


def test_sync_to_a_bare_remote_and_back(root: Path, tmp_path: Path) -> None:
    remote = tmp_path / "remote.git"
    subprocess.run(["git", "init", "-q", "--bare", str(remote)], check=True)
    ok(vault(root, "sync", "init", str(remote)))
    ok(vault(root, "sync"))
    tree = ["git", "--git-dir", str(remote), "ls-tree", "-r", "--name-only", "refs/heads/main"]
    listed = subprocess.run(tree, capture_output=True, text=True, check=True).stdout
    assert len([n for n in listed.splitlines() if n.startswith("memories/")]) == 3


def test_uninstall_removes_exactly_what_install_added(tmp_path: Path) -> None:
    home = tmp_path / "home"
    env = {"HOME": str(home), "CLAUDE_CONFIG_DIR": str(home / ".claude")}
    settings = home / ".claude" / "settings.json"
    settings.parent.mkdir(parents=True)
    settings.write_text(json.dumps({"theme": "dark"}))
    dry = vault(tmp_path / "v", "uninstall", "--dry-run", env=env)
    assert dry.returncode == 0, dry.stderr
    assert json.loads(settings.read_text()) == {"theme": "dark"}
