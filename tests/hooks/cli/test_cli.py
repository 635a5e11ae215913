"""The `vault` CLI as a person runs it: real subprocesses, real files. Memories a
test only needs as its starting point are jotted by the same CLI in this process
(`jot_here`): the session's model, where a `vault jot` process loads its own (~12 s)."""

from __future__ import annotations

import ast
import importlib
import json
import os
import pkgutil
import pty
import subprocess
import sys
from pathlib import Path

import click
import pytest
from click.testing import CliRunner

import hooks.cli as cli_package
from hooks.cli.main import main

STORY = (
    "let's always use pytest fixtures instead of setUp/tearDown for this codebase — tried "
    "unittest style on a past project and sharing fixtures across test files was a pain."
)


def run(*args: str, env: dict[str, str] | None = None, input: str | None = None):
    merged = {**os.environ, **(env or {})}
    return subprocess.run(
        [sys.executable, "-m", "hooks.cli", *args],
        capture_output=True, text=True, env=merged, input=input, timeout=120,
    )  # fmt: skip


def jot_here(*args: str) -> str:
    """`vault jot ARGS` in this process; the new memory's id."""
    result = CliRunner().invoke(main, ["jot", *args])
    assert result.exit_code == 0, result.output
    return result.stdout.strip()


def test_every_command_has_help_with_an_example() -> None:
    """In this process (the text is the same; a `vault` process per command cost the
    suite about 30 s of CPU); `vault --help` as a process is the test below."""
    assert isinstance(main, click.Group)
    names = main.list_commands(click.Context(main))
    assert len(names) > 40
    for name in names:
        result = CliRunner().invoke(main, [name, "--help"])
        assert result.exit_code == 0, (name, result.output)
        assert "Example:" in result.output, name


def test_the_command_table_names_every_command_of_the_cli_modules() -> None:
    """Commands are imported by name when they run (hooks/cli/main.py): one defined in
    a module but missing from the table would be unreachable."""
    commands = [
        value
        for info in pkgutil.iter_modules(cli_package.__path__)
        if info.name != "__main__"  # it runs the CLI
        for value in vars(importlib.import_module(f"hooks.cli.{info.name}")).values()
        if isinstance(value, click.Command) and value is not main
    ]
    children = {
        id(child)
        for group in commands
        if isinstance(group, click.Group)
        for child in group.commands.values()
    }
    top_level = {command.name for command in commands if id(command) not in children}
    assert top_level == set(main.list_commands(click.Context(main)))
    for name in top_level:
        assert main.get_command(click.Context(main), name or "") is not None, name


def test_a_command_loads_only_its_own_module() -> None:
    code = (
        "import sys\nfrom hooks.cli.main import main\n"
        "try:\n    main(['init', '--help'])\nexcept SystemExit:\n    pass\n"
        "print(sorted(m for m in sys.modules if m.startswith('hooks.cli.')), file=sys.stderr)"
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    loaded = set(ast.literal_eval(result.stderr.strip()))
    assert "hooks.cli.memories" in loaded
    assert not {"hooks.cli.demo", "hooks.cli.sync", "hooks.cli.bench"} & loaded


def test_help_does_not_import_heavy_libraries() -> None:
    code = (
        "import sys\nfrom hooks.cli.main import main\n"
        "try:\n    main(['--help'])\nexcept SystemExit:\n    pass\n"
        "heavy = [m for m in ('torch', 'sentence_transformers', 'faiss', 'numpy')"
        " if m in sys.modules]\n"
        "print(heavy, file=sys.stderr)"
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert result.stderr.strip() == "[]"


def test_a_recall_compiles_no_redaction_or_capture_rule(tmp_path: Path) -> None:
    assert run("init").returncode == 0
    assert run("jot", STORY).returncode == 0
    code = (
        "import sys\nfrom hooks.cli.main import main\n"
        "from vault.lazy_pattern import LazyPattern\n"
        "try:\n    main(sys.argv[1:])\nexcept SystemExit:\n    pass\n"
        "rules = [(name, value) for name in ('memory.encode.redact', "
        "'memory.encode.capture_features', 'memory.encode.turn_text') "
        "for value in vars(sys.modules[name]).values() if isinstance(value, LazyPattern)]\n"
        "print(len(rules), sorted(n for n, r in rules if r._compiled is not None), file=sys.stderr)"
    )
    recall = ["recall", "pytest fixtures", "--no-reinforce"]
    result = subprocess.run([sys.executable, "-c", code, *recall], capture_output=True, text=True)
    count, compiled = result.stderr.strip().split(" ", 1)
    assert "fixtures" in result.stdout
    assert int(count) > 40  # the rules were loaded, as a lazy pattern each
    assert compiled == "[]"


def test_init_jot_show_round_trip(tmp_path: Path) -> None:
    assert run("init").returncode == 0
    assert (tmp_path / "vault" / "config.toml").read_text().count("# ") > 10
    jotted = run("jot", STORY, "--tag", "testing", "--project", "project-a",
                 "--now", "2026-01-01T09:00:00Z")  # fmt: skip
    assert jotted.returncode == 0, jotted.stderr
    memory_id = jotted.stdout.strip()
    assert (tmp_path / "vault" / "memories" / f"{memory_id}.md").exists()
    shown = run("show", memory_id, "--json", env={"VAULT_NOW": "2026-01-08T09:00:00Z"})
    data = json.loads(shown.stdout)
    assert data["tags"] == ["testing"]
    assert data["strength"] == pytest.approx(0.3679, abs=1e-3)  # exp(-1) after 7 days


def test_vault_option_beats_env_and_cwd_is_never_used(tmp_path: Path) -> None:
    other = tmp_path / "elsewhere"
    assert run("--vault", str(other), "init").returncode == 0
    assert (other / "memories").is_dir()
    assert not (tmp_path / "vault").exists()


@pytest.mark.parametrize(
    ("args", "code", "message"),
    [
        (("show", "../../etc/passwd"), 2, "path separators"),
        (("show", "no-such-memory"), 1, "no memory with id"),
        (("jot", "<private>all of it</private>"), 1, "nothing to remember"),
        (("recall", "x", "--now", "yesterday-ish"), 2, "ISO 8601"),
        (("recall", "x", "-n", "zero"), 2, "zero"),
    ],
)
def test_errors_are_one_line_with_distinct_exit_codes(args, code: int, message: str) -> None:
    run("init")
    result = run(*args)
    assert result.returncode == code
    assert message in result.stderr
    assert result.stdout == ""
    assert len([line for line in result.stderr.splitlines() if line.startswith("Error")]) == 1


def test_missing_vault_is_exit_code_3(tmp_path: Path) -> None:
    result = run("show", "anything")
    assert result.returncode == 3
    assert "vault init" in result.stderr


def test_purge_asks_first(tmp_path: Path) -> None:
    run("init")
    memory_id = jot_here("a throwaway note")
    declined = run("purge", memory_id, input="n\n")
    assert declined.returncode == 1
    assert (tmp_path / "vault" / "memories" / f"{memory_id}.md").exists()
    assert run("purge", memory_id, "--yes").returncode == 0
    assert not (tmp_path / "vault" / "memories" / f"{memory_id}.md").exists()


@pytest.mark.model
def test_recall_status_reindex_end_to_end(tmp_path: Path) -> None:
    run("init")
    memory_id = jot_here(STORY, "--now", "2026-01-01T09:00:00Z")
    jot_here("Billing amounts are integer cents.", "--now", "2026-01-01T09:00:00Z")
    (tmp_path / "vault" / "memories" / "broken.md").write_text("---\ntier: [x\n---\nbody\n")
    day19 = {"VAULT_NOW": "2026-01-20T09:00:00Z"}
    result = run("recall", "should I use TestCase.setUp() here or something else?",
                 "--associative", "--json", "--explain", env=day19)  # fmt: skip
    assert result.returncode == 0, result.stderr
    data = json.loads(result.stdout)
    assert [h["id"] for h in data["activated"]] == [memory_id]
    assert "rings a bell" in data["activated"][0]["reason"]
    status = run("status", "--json", env=day19)
    info = json.loads(status.stdout)
    assert info["active"]["episodic"] == 2
    assert info["problems"][0]["path"] == "memories/broken.md"
    assert "broken.md" in status.stderr
    assert run("reindex", "--check").stdout.startswith("Would change: 0 added")
    full = run("reindex", "--full", "--stats")
    assert "Rebuilt: 2 added" in full.stdout
    assert "model: all-MiniLM-L6-v2" in full.stdout
    listed = json.loads(run("list", "--json").stdout)
    assert {item["id"] for item in listed} >= {memory_id}


def read_terminal(primary: int) -> str:
    chunks = []
    while True:
        try:
            chunk = os.read(primary, 4096)
        except OSError:  # the other side closed (EIO)
            break
        if not chunk:
            break
        chunks.append(chunk)
    return b"".join(chunks).decode(errors="replace")


@pytest.mark.model
def test_long_work_shows_a_progress_bar_on_a_terminal_and_nothing_when_piped() -> None:
    run("init")
    jot_here(STORY)
    piped = run("reindex", "--full")
    assert piped.returncode == 0, piped.stderr
    assert piped.stderr == ""
    primary, replica = pty.openpty()
    process = subprocess.Popen([sys.executable, "-m", "hooks.cli", "reindex", "--full"],
                               stdout=subprocess.DEVNULL, stderr=replica)  # fmt: skip
    os.close(replica)
    terminal = read_terminal(primary)
    os.close(primary)
    assert process.wait(timeout=120) == 0
    assert "Embedding" in terminal
    assert "100%" in terminal


@pytest.mark.model
def test_list_by_tag_shows_memories_with_any_of_the_tags() -> None:
    run("init")
    deploys = jot_here("Deploys go out with the release train on Tuesdays.", "--tag", "deploy")
    migrations = jot_here("Schema migrations run before new code rolls out.", "--tag", "migrations")
    jot_here("The office plants are watered on Fridays.", "--tag", "office")
    listed = run("list", "--tag", "deploy", "--tag", "migrations", "--json")
    assert listed.returncode == 0, listed.stderr
    assert {item["id"] for item in json.loads(listed.stdout)} == {deploys, migrations}
    assert json.loads(run("list", "--tag", "nowhere", "--json").stdout) == []
