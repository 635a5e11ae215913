"""`vault serve`, `daemon` and `mcp`: the long-running servers, the warm
daemon (and its control from outside) and the MCP server."""

from __future__ import annotations

import os

import click

from hooks.cli.common import Context, emit, json_option, pass_context
from hooks.cli.errors import CliError, DaemonDown
from vault.config import load_settings


@click.command()
@click.option(
    "--idle",
    type=float,
    default=None,
    metavar="SECONDS",
    help="Exit after this long without requests (default: daemon_idle_seconds).",
)
@pass_context
def serve(context: Context, idle: float | None) -> None:
    """Run the warm daemon for this vault in the foreground (hooks start it on demand).

    Example: vault serve --idle 600
    """
    from hooks.daemon.server import run

    vault = context.vault
    if not vault.exists():
        raise CliError(f"no vault at {vault.root}; run `vault init` first")
    run(vault, load_settings(vault.config_path, os.environ), idle)


@click.command()
@click.argument(
    "action",
    type=click.Choice(
        ["status", "stop", "restart", "start", "install-service", "uninstall-service"]
    ),
)
@json_option
@pass_context
def daemon(context: Context, action: str, as_json: bool) -> None:
    """Show, start, stop or restart the warm daemon; or make it a user service that
    starts at login (systemd user unit or launchd agent; hooks start it on demand
    without one).

    Example: vault daemon status
    """
    if action.endswith("-service"):
        click.echo(_service(context, install=action == "install-service"))
        return
    from hooks.client import control

    result = control.act(context.vault, action)
    emit(result) if as_json else click.echo(control.describe(result))
    if action == "status" and not result.get("running"):
        raise DaemonDown("no daemon is running for this vault")


def _service(context: Context, install: bool) -> str:
    import subprocess
    import sys
    from collections.abc import Sequence
    from pathlib import Path

    from hooks.daemon import service_unit as units

    vault = context.vault
    if not vault.exists():
        raise CliError(f"no vault at {vault.root}; run `vault init` first")
    unit = units.service_unit(vault.root, Path(sys.executable), os.environ, sys.platform)

    def run(command: Sequence[str]) -> subprocess.CompletedProcess[str]:
        return subprocess.run(list(command), capture_output=True, text=True, timeout=60)

    try:
        return units.install(unit, run) if install else units.uninstall(unit, run)
    except units.ServiceError as exc:
        raise CliError(str(exc)) from None


@click.command()
@pass_context
def mcp(context: Context) -> None:
    """Run the MCP server on stdio (Claude Code starts it; `vault install` registers it).

    Example: claude mcp add --scope user --transport stdio vault -- /path/to/venv/bin/vault mcp
    """
    from hooks.mcp.server import serve as serve_mcp

    serve_mcp(context.vault.root)
