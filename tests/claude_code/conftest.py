"""Fixtures for the real Claude Code CLI (tests/claude_code/machine.py). Without the
pinned binary the tests skip with the reason; under CI (CI set) collection fails."""

from __future__ import annotations

import os
from collections.abc import Iterator

import pytest

from hooks.client.control import stop
from tests.claude_code.machine import CLAUDE, VENV_BIN, VERSION, Machine, new_machine

if CLAUDE is None and os.environ.get("CI"):
    raise pytest.UsageError(f"CI needs Claude Code {VERSION}: `make tools` installs it in .tools/")
needs_cli = pytest.mark.skipif(
    CLAUDE is None, reason=f"Claude Code {VERSION} not installed: run `make tools`"
)


@pytest.fixture(scope="module")
def installed(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Machine]:
    """A machine after `vault install` (hooks in settings.json, `claude mcp add`)."""
    machine = new_machine(tmp_path_factory.mktemp("installed"))
    result = machine.run(str(VENV_BIN / "vault"), "install")
    assert result.returncode == 0, result.stderr
    assert "mcp add --scope user" in result.stdout
    yield machine
    stop(machine.vault)
