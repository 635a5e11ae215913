"""The plugin as a user gets it, through the real Claude Code CLI: `claude plugin
marketplace add` on the repository folder and `claude plugin install`; the first
session runs while the plugin builds its own environment (the hooks pass and say so
once), a later one recalls by meaning from that environment, and an update that
changes a packaged file rebuilds it. The build installs offline from the session's
wheelhouse (uv, as on a machine that has it; `--torch-backend cpu`; UV_OFFLINE, or
uv would ask the PyTorch index, out of reach here, for torch)."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from hooks.client.control import stop
from tests.claude_code.conftest import needs_cli
from tests.claude_code.machine import ROOT, Machine, wait_for
from tests.claude_code.story import DAY1, DAY19, HEDGED, QUESTION, RECALLED, STORY
from tests.claude_code.stub_api import Reply, StubApi
from tests.claude_code.test_plugin_path import NOT_SHIPPED, PLUGIN, add_and_install, built_version
from tests.packaging.artifacts import DEV_BIN, UV_CACHE, built, shared_root

pytestmark = [pytest.mark.model, pytest.mark.slow, needs_cli, pytest.mark.timeout(900)]
SETTING_UP = "memory-vault is being set up"
BUILD_TIMEOUT = 600.0


def plugin_machine(base: Path, wheelhouse: Path) -> Machine:
    """A machine with uv on PATH, told to install from `wheelhouse` only."""
    offline = {"UV_OFFLINE": "1", "UV_NO_INDEX": "1", "UV_FIND_LINKS": str(wheelhouse),
               "UV_CACHE_DIR": str(UV_CACHE), "UV_PYTHON_DOWNLOADS": "never"}  # fmt: skip
    machine = Machine(base, extra=offline)
    machine.home.mkdir(parents=True)
    (machine.base / "tmp").mkdir()
    machine.extra["PATH"] = f"{DEV_BIN}:{machine.env()['PATH']}"  # uv; the CLI stays first
    return machine


def test_first_session_while_building_then_recall_then_an_update_rebuilds(
    tmp_path_factory: pytest.TempPathFactory,
) -> None:
    dists = built(shared_root(tmp_path_factory.getbasetemp()))
    machine = plugin_machine(tmp_path_factory.mktemp("plugin-user"), dists.wheelhouse)
    repo = machine.base / "memory-vault"
    shutil.copytree(ROOT, repo, ignore=shutil.ignore_patterns(*NOT_SHIPPED))
    add_and_install(machine, repo)
    data = machine.home / ".claude" / "plugins" / "data" / "memory-vault-memory-vault-local"
    stamp = data / "installed-version"
    try:
        with StubApi([Reply(text="Hello.")]) as api:
            first = machine.claude(api, machine.project("project-a"), "-p", "hello", now=DAY1)
            assert first.returncode == 0, first.stderr
            [request] = api.message_requests
        assert request.raw_body.count(SETTING_UP) == 1
        assert "ready in about" in request.raw_body

        wait_for(stamp.exists, timeout=BUILD_TIMEOUT)
        assert stamp.read_text().strip() == built_version(repo)
        assert machine.vault.exists()  # the build made the vault too
        vault = str(data / "venv" / "bin" / "vault")
        jot = machine.run(vault, "jot", STORY, "--kind", "preference", now=DAY1)
        assert jot.returncode == 0, jot.stderr
        with StubApi() as api:
            day19 = machine.claude(api, machine.project("project-b"), "-p", QUESTION, now=DAY19)
            assert day19.returncode == 0, day19.stderr
            [request] = api.message_requests
        assert request.contains(RECALLED)
        assert request.contains(HEDGED)
        assert not request.contains(SETTING_UP)

        first_build = (data / "venv").resolve()
        (repo / "hooks" / "version.py").write_text(
            (repo / "hooks" / "version.py").read_text() + "# a release that changes one file\n"
        )
        with StubApi() as api:  # Claude Code copies the updated plugin to a new cache folder
            for command in (("marketplace", "update", "memory-vault-local"), ("update", PLUGIN)):
                result = machine.claude(api, machine.base, "plugin", *command)
                assert result.returncode == 0, result.stderr
            again = machine.claude(api, machine.project("project-b"), "-p", "hi", now=DAY19)
            assert again.returncode == 0, again.stderr
        wait_for(lambda: stamp.read_text().strip() == built_version(repo), timeout=BUILD_TIMEOUT)
        assert (data / "venv").resolve() != first_build
    finally:
        stop(machine.vault)
