"""What a person meets at the `vault` prompt: usage errors in one line with exit
2, quiet ends of closed pipes, commands that say what they need, and output
other tools can read. Real processes."""

from __future__ import annotations

import json
import os
import pty
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from hooks.cli.main import main
from memory.service import MemoryService
from tests.hooks.cli.test_cli import read_terminal


def run(*args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "hooks.cli", *args], capture_output=True,
                          text=True, env={**os.environ, **(env or {})}, timeout=120)  # fmt: skip


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("recall", "x", "-n", "-5"), "Invalid value for '-n': -5 is not in the range x>=1."),
        (("recall", "x", "--keyword-only", "--vector-only"), "--vector-only and --keyword-only"),
        (("recall", "x", "--no-such-option"), "No such option '--no-such-option'."),
        (("cold", "x", "-n", "0"), "Invalid value for '-n': 0 is not in the range x>=1."),
        (("no-such-command",), "No such command 'no-such-command'."),
        (("--no-such-flag", "status"), "No such option '--no-such-flag'."),
        (("validate", "some-id"), "say whether the memory is right (--up) or wrong (--down)"),
    ],
)
def test_usage_errors_are_one_line_and_exit_2(args: tuple[str, ...], message: str) -> None:
    assert run("init").returncode == 0
    result = run(*args)
    assert result.returncode == 2, result.stderr
    assert result.stdout == ""
    [line] = result.stderr.splitlines()
    assert line.startswith("Error: ")
    assert message in line
    assert "--help`)" in line  # where to read more


@pytest.mark.parametrize("args", [("config",), ("config", "--json"), ("--help",)])
def test_a_closed_pipe_ends_the_command_quietly(args: tuple[str, ...]) -> None:
    """`vault config | head -1`: the reader is gone before the command writes."""
    assert run("init").returncode == 0
    reader, writer = os.pipe()
    process = subprocess.Popen([sys.executable, "-m", "hooks.cli", *args], stdout=writer,
                               stderr=subprocess.PIPE, text=True)  # fmt: skip
    os.close(writer)
    os.close(reader)  # long before the interpreter has started
    _, stderr = process.communicate(timeout=120)
    assert stderr == ""


def test_validate_needs_a_direction_and_prints_json(service: MemoryService) -> None:
    memory = service.jot("The worker reads its settings from worker.toml.")
    bare = CliRunner().invoke(main, ["validate", memory.id])
    assert bare.exit_code == 2
    assert service.show(memory.id)[0].confidence == 0.5  # nothing counted
    up = CliRunner().invoke(main, ["validate", memory.id, "--up", "--json"])
    assert json.loads(up.stdout)["confidence"] == 0.6


def test_graph_dot_labels_break_lines_the_dot_way(service: MemoryService) -> None:
    memory = service.jot('Deploy with "make release".', topic="deploy")
    dot = CliRunner().invoke(main, ["graph", "--format", "dot"]).stdout
    assert f'[label="{memory.id}\\ndeploy"];' in dot  # dot's escape: a line break, not "\n"
    assert "\\\\n" not in dot


def jot_here(*args: str) -> str:
    result = CliRunner().invoke(main, ["jot", *args])
    assert result.exit_code == 0, result.output
    return result.stdout.strip()


SHIP = "how to ship to production: run make release, then approve the rollout in Argo CD"
WORKERS = "billing search email thumbnail export audit payroll".split()
FILLER = [
    f"Runbook {i}: restart the {w} worker when its queue stalls." for i, w in enumerate(WORKERS)
]


@pytest.mark.model
def test_explain_says_meaning_not_words_when_no_word_matched() -> None:
    assert run("init").returncode == 0
    ship = jot_here(SHIP, "--project", "infra", "--now", "2026-01-01T09:00:00Z")
    for text in FILLER:  # BM25 needs a corpus
        jot_here(text, "--now", "2026-01-01T09:00:00Z")
    result = run("recall", "deployment process", "--current-project", "infra", "--explain",
                 "--no-reinforce", "--json", "--now", "2026-01-01T10:00:00Z",
                 env={"VAULT_MIN_SIMILARITY": "0.1"})  # fmt: skip
    assert result.returncode == 0, result.stderr
    [hit] = [h for h in json.loads(result.stdout) if h["id"] == ship]
    assert hit["keyword"] == 0.0
    assert hit["cosine"] < 0.45
    assert "shares words more than meaning" not in hit["reason"]
    assert "close in meaning, but not enough to state as fact" in hit["reason"]


@pytest.mark.model
def test_keyword_only_marks_a_match_on_the_words_said_around_a_memory() -> None:
    assert run("init").returncode == 0
    said = "2026-01-01T09:00:00Z"
    ship = jot_here(SHIP, "--session", "s1", "--now", said)
    talk = jot_here("We talked through the deployment process for the new service.",
                    "--session", "s1", "--now", said)  # fmt: skip
    for text in FILLER:  # BM25 needs a corpus
        jot_here(text, "--now", said)
    args = ("recall", "deployment process", "--keyword-only", "--no-reinforce", "--now", said)
    found = {h["id"]: h for h in json.loads(run(*args, "--json").stdout)}
    assert found[talk]["own_words"] is True
    print(found)
    if ship in found:  # it matched only through the memory said next to it
        assert found[ship]["own_words"] is False
        text = run(*args).stdout
        assert f"{ship}  [" in text
        assert (
            "matched only words said around it, not its own]" in text.split(ship)[1].split("\n")[0]
        )


def test_an_hx_import_that_finds_nothing_says_where_its_logs_are(tmp_path: Path) -> None:
    assert run("init").returncode == 0
    hx = tmp_path / "home" / ".claude-memory"
    (hx / "daily").mkdir(parents=True)
    (hx / "config.json").write_text("{}", encoding="utf-8")
    log = "# Daily Log -- 2026-12-01\n\n**14:58** -- Decided: use uv for installs\n"
    (hx / "daily" / "2026-12-01.md").write_text(log, encoding="utf-8")
    result = run("import", "--hx", str(hx), "--tz", "UTC")
    assert result.returncode == 0, result.stderr
    [hint] = [line for line in result.stderr.splitlines() if line.startswith("note: hx:")]
    assert f"{hx / 'daily'} holds logs" in hint
    assert f'set "data_dir": "{hx}"' in hint


def on_a_terminal(*args: str) -> tuple[int, str]:
    """Run `vault ARGS` with stderr on a pseudo-terminal; its exit code and what it drew."""
    primary, replica = pty.openpty()
    process = subprocess.Popen([sys.executable, "-m", "hooks.cli", *args],
                               stdout=subprocess.DEVNULL, stderr=replica)  # fmt: skip
    os.close(replica)
    drawn = read_terminal(primary)
    os.close(primary)
    return process.wait(timeout=120), drawn


@pytest.mark.model
def test_long_runs_show_progress_on_a_terminal_and_nothing_when_piped(tmp_path: Path) -> None:
    """Each does seconds of work in its own process: an import on a terminal, then a
    recall piped, whose sync embeds 250 dropped-in memories. Every command that calls
    the daemon or the service goes through the same helper (consolidate too)."""
    assert run("init").returncode == 0
    lines = tmp_path / "notes.jsonl"
    many = [FILLER[i % len(FILLER)].replace("Runbook", f"Runbook {i}.") for i in range(150)]
    lines.write_text("".join(json.dumps({"text": text}) + "\n" for text in many))
    code, terminal = on_a_terminal("import", "--jsonl", str(lines))
    assert code == 0, terminal
    assert "\rvault import ... 1 s" in terminal
    assert terminal.endswith("\r\x1b[K")  # the line is cleared when the work ends

    memories = tmp_path / "vault" / "memories"
    for i in range(250):  # memories a person dropped in: the recall's own sync embeds them
        text = FILLER[i % len(FILLER)].replace("Runbook", f"Runbook {i}.")
        (memories / f"dropped-{i}.md").write_text(f"---\nid: dropped-{i}\n---\n{text}\n")
    piped = run("recall", "queue stalls", "--no-reinforce")
    assert piped.returncode == 0
    assert piped.stderr == ""


@pytest.mark.model
def test_every_command_a_script_reads_prints_json(tmp_path: Path) -> None:
    """With a warm daemon (no model load per command), each as its own process."""
    from hooks.client import client
    from hooks.client.control import stop
    from vault.layout import Vault

    assert run("init").returncode == 0
    vault = Vault(tmp_path / "vault")
    daemon = subprocess.Popen([sys.executable, "-m", "hooks.cli", "serve"],
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)  # fmt: skip
    try:
        assert client.wait_until_up(vault.root, 120) is not None

        def data(*args: str) -> object:
            result = run(*args, "--json")
            assert result.returncode == 0, (args, result.stderr)
            return json.loads(result.stdout)

        memory = data("jot", "Deploys go out on Tuesdays.")
        assert isinstance(memory, dict)
        memory_id = memory["id"]
        note = tmp_path / "adr.md"
        note.write_text("# Use Postgres\n\nWe store billing in Postgres.\n", encoding="utf-8")
        assert data("ingest", str(note))["tier"] == "curated"  # type: ignore[index]
        assert data("confirm", memory_id)["confirmations"] == 1  # type: ignore[index]
        assert data("reinforce", memory_id)["recalls"] == 1  # type: ignore[index]
        assert data("validate", memory_id, "--down")["confidence"] == 0.45  # type: ignore[index]
        assert data("forget", memory_id)["archived"] is True  # type: ignore[index]
        assert data("revive", memory_id)["archived"] is False  # type: ignore[index]
        assert data("reindex")["full"] is False  # type: ignore[index]
        assert data("reindex", "--stats")["stats"]["memories"] == 2  # type: ignore[index]
        assert data("reindex", "--check")["added"] == 0  # type: ignore[index]
        assert "captured" in data("sweep")  # type: ignore[operator]
        transcripts = tmp_path / "home" / ".claude" / "projects" / "p"
        transcripts.mkdir(parents=True)
        (transcripts / "s1.jsonl").write_text("", encoding="utf-8")
        captured = data("capture", "--transcript", str(transcripts / "s1.jsonl"))
        assert captured["created"] == []  # type: ignore[index]
    finally:
        stop(vault)
        daemon.wait(timeout=60)
