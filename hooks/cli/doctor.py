"""`vault doctor [--json]`: one line per check of this install, a fix for each
problem, exit 1 when any check fails. The checks live in hooks/doctor/."""

from __future__ import annotations

import os

import click

from hooks.cli.common import Context, emit, json_option, pass_context
from hooks.cli.errors import CliError


@click.command()
@json_option
@pass_context
def doctor(context: Context, as_json: bool) -> None:
    """Check the install: package, model, Claude Code wiring, vault, index, daemon, sync.

    Example: vault doctor
    """
    from hooks.doctor.report import all_ok
    from hooks.doctor.run import run_checks

    checks = run_checks(context.vault, os.environ)
    if as_json:
        emit({"ok": all_ok(checks), "checks": [check.to_dict() for check in checks]})
    else:
        for check in checks:
            click.echo(check.line())
    if not all_ok(checks):
        failing = sum(1 for check in checks if not check.ok)
        raise CliError(f"{failing} of {len(checks)} checks failed")
