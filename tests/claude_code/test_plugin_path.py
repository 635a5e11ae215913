"""The story through the plugin path (`claude plugin marketplace add` + `claude plugin
install`), its launchers pointed at this environment; and with the plugin and
`vault install` both present, every hook runs once."""

from __future__ import annotations

import shutil
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from hooks.client.control import stop
from tests.claude_code.conftest import needs_cli
from tests.claude_code.machine import CLAUDE, ROOT, VENV_BIN, Machine, new_machine
from tests.claude_code.story import DAY1, DAY19, HEDGED, QUESTION, RECALLED, STORY
from tests.claude_code.stub_api import Reply, StubApi

pytestmark = [pytest.mark.model, needs_cli]
DAY18 = "2026-01-19T09:00:00Z"
PLUGIN = "memory-vault@memory-vault-local"
# Claude Code copies a directory plugin whole (.venv and .tools included, .gitignore
# not honoured): the marketplace is a clean copy, never the working folder.
NOT_SHIPPED = (".venv", ".tools", ".git", "__pycache__", "*.egg-info", ".*_cache", "build")


def built_version(repo: Path) -> str:
    """bin/plugin_env.py's version of the plugin copy at `repo`."""
    sys.path.insert(0, str(ROOT / "bin"))
    import plugin_env

    sys.path.remove(str(ROOT / "bin"))
    return plugin_env.content_version(repo)


def add_and_install(machine: Machine, repo: Path) -> None:
    """`claude plugin marketplace add REPO`, then `claude plugin install`."""
    with StubApi() as api:  # else each command waits ~20 s on DNS for the real API host
        for command in (("marketplace", "add", str(repo)), ("install", PLUGIN)):
            result = machine.claude(api, machine.base, "plugin", *command)
            assert result.returncode == 0, result.stderr


def install_plugin(machine: Machine) -> Path:
    """Add the marketplace and install the plugin; point its launchers at this
    environment (what `make check` built) instead of building a second one."""
    assert CLAUDE is not None
    repo = machine.base / "memory-vault"
    shutil.copytree(ROOT, repo, ignore=shutil.ignore_patterns(*NOT_SHIPPED))
    add_and_install(machine, repo)
    data = machine.home / ".claude" / "plugins" / "data" / "memory-vault-memory-vault-local"
    data.mkdir(parents=True, exist_ok=True)
    (data / "venv").symlink_to(VENV_BIN.parent)
    (data / "installed-version").write_text(built_version(repo))  # else it builds its own

    return repo


@pytest.fixture(scope="module")
def plugged(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Machine]:
    machine = new_machine(tmp_path_factory.mktemp("plugged"))
    install_plugin(machine)
    assert not (machine.home / ".claude" / "settings.json").read_text().count("vault-hook")
    yield machine
    stop(machine.vault)


def test_the_story_through_the_plugin(plugged: Machine) -> None:
    with StubApi([Reply(text="Good call.")]) as api:
        day1 = plugged.claude(api, plugged.project("project-a"), "-p", STORY, now=DAY1)
        assert day1.returncode == 0, day1.stderr
    plugged.settle()
    memory = plugged.memory_saying("pytest fixtures")
    assert memory is not None
    assert memory.project == "github.com/acme/project-a"

    stop(plugged.vault)  # cold on day 19
    project_b = plugged.project("project-b")
    with StubApi() as api:
        day19 = plugged.claude(api, project_b, "-p", QUESTION, now=DAY19)
        assert day19.returncode == 0, day19.stderr
        [request] = api.message_requests
    assert request.contains(RECALLED)
    assert request.contains(HEDGED)
    assert request.contains(memory.id)
    with StubApi() as api:
        assert plugged.claude(api, project_b, "-p", "--continue", "yeah, still applies",
                              now=DAY19).returncode == 0  # fmt: skip
    plugged.settle()
    confirmed = plugged.memory_saying("pytest fixtures")
    assert confirmed is not None
    assert confirmed.stability == pytest.approx(17.5)


def test_with_the_plugin_and_vault_install_every_hook_runs_once(
    tmp_path_factory: pytest.TempPathFactory,
) -> None:
    machine = new_machine(tmp_path_factory.mktemp("both"))
    install_plugin(machine)
    installed = machine.run(str(VENV_BIN / "vault"), "install")
    assert installed.returncode == 0, installed.stderr
    vault = str(VENV_BIN / "vault")
    # The jots go to a running daemon (its encoder is warm; a `vault jot` process would
    # load the model itself): both are indexed, as the briefing reads the index.
    assert machine.run(vault, "daemon", "start").returncode == 0
    for text, day in ((STORY, DAY1), ("Deploys run from ops/deploy.sh on Tuesdays.", DAY18)):
        jot = machine.run(vault, "jot", text, "--kind", "preference", now=day)
        assert jot.returncode == 0, jot.stderr  # the second is strong enough for the briefing
    stop(machine.vault)  # then it goes: cold on day 19
    project_b = machine.project("project-b")
    try:
        with StubApi() as api:
            day19 = machine.claude(api, project_b, "-p", QUESTION, now=DAY19)
            assert day19.returncode == 0, day19.stderr
            [request] = api.message_requests
        assert request.raw_body.count(RECALLED) == 1
        assert request.raw_body.count("SessionStart hook additional context: memory-vault") == 1
        with StubApi() as api:
            assert machine.claude(api, project_b, "-p", "--continue", "yes, still applies",
                                  now=DAY19).returncode == 0  # fmt: skip
        machine.settle()
        memory = machine.memory_saying("pytest fixtures")
        assert memory is not None
        assert (memory.stability, memory.confirmations) == (pytest.approx(17.5), 1)  # not 43.75
    finally:
        stop(machine.vault)
