"""What a person meets at the `vault` prompt: usage errors in one line with exit
2, quiet ends of closed pipes, commands that say what they need, and output
other tools can read. Real processes."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest
from click.testing import CliRunner

from hooks.cli.main import main
from memory.service import MemoryService


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
