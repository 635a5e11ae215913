"""A bad id is a usage error (exit code 2) from every verb that takes one,
and a path `vault ingest` refuses to read is one too."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest
from click.testing import CliRunner

from hooks.cli.main import main

ID_VERBS = [["show"], ["confirm"], ["reinforce"], ["forget"], ["revive"], ["purge", "--yes"],
            ["links"]]  # fmt: skip
BAD_IDS = ["../../etc/passwd", "/etc/passwd", "..", ".hidden", "a\\b", "x" * 201, "a\x00b",
           "tab\there"]  # fmt: skip


def vault_cli(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "hooks.cli", *args], capture_output=True,
                          text=True, env=dict(os.environ), timeout=120)  # fmt: skip


@pytest.mark.parametrize("verb", ID_VERBS, ids=lambda verb: verb[0])
def test_every_id_verb_exits_2_on_a_traversal_id(verb: list[str]) -> None:
    assert vault_cli("init").returncode == 0
    result = vault_cli(verb[0], "../../etc/passwd", *verb[1:])
    assert (result.returncode, result.stdout) == (2, "")
    assert "path separators" in result.stderr


@pytest.mark.parametrize("verb", ID_VERBS, ids=lambda verb: verb[0])
@pytest.mark.parametrize("bad", BAD_IDS, ids=range(len(BAD_IDS)))
def test_every_id_verb_exits_2_on_any_bad_id(verb: list[str], bad: str) -> None:
    runner = CliRunner()
    assert runner.invoke(main, ["init"]).exit_code == 0
    result = runner.invoke(main, [verb[0], bad, *verb[1:]])
    assert result.exit_code == 2, result.output
    assert "invalid memory id" in result.stderr or "longer than" in result.stderr


@pytest.mark.parametrize("path", ["/dev/zero", "/proc/self/environ", "/dev/null"])
def test_vault_ingest_refuses_special_files(path: str) -> None:
    assert vault_cli("init").returncode == 0
    result = vault_cli("ingest", path)
    assert result.returncode == 2
    assert "special file" in result.stderr
