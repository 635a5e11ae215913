"""`vault install --agent NAME` for agents other than Claude Code (the options
live on `vault install` / `vault uninstall` in hooks/cli/claude_code.py)."""

from __future__ import annotations

import os
from pathlib import Path

import click

from hooks.agents.catalog import AGENTS
from hooks.agents.installer import AgentInstaller, make_setup
from hooks.claude_code.install import bin_dir
from hooks.cli.errors import CliError


def run_agent_installer(name: str, dry_run: bool, remove: bool, project: Path | None) -> None:
    agent = AGENTS[name]
    setup = make_setup(os.environ, name, str(bin_dir() / "vault"), project)
    installer = AgentInstaller(agent, setup, dry_run)
    try:
        actions = installer.uninstall() if remove else installer.install()
    except ValueError as exc:  # a config file the tool could not read either: fix it first
        raise CliError(f"{agent.TITLE}: {exc}") from None
    for line in actions:
        click.echo(("would: " if dry_run else "") + line)
