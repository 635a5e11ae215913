"""`vault config`: every setting with its value, type, range, help, and where the
value came from (default, config.toml or a VAULT_<KEY> environment variable)."""

from __future__ import annotations

import os

import click

from hooks.cli.common import Context, emit, json_option, pass_context


@click.command(name="config")
@json_option
@pass_context
def config(context: Context, as_json: bool) -> None:
    """Show every setting with its help; VAULT_<KEY> overrides config.toml, which
    overrides the default (e.g. VAULT_CUE_BAR=0.2 VAULT_LLM_EXTRACTION=true).
    A wrong type, a value out of range or an unknown key is an error naming the key.

    Example: VAULT_LINKS_MAX=3 vault config --json
    """
    from vault.config import SETTINGS, env_overrides, file_values, load_settings
    from vault.setting_types import toml_value

    vault = context.vault
    settings = load_settings(vault.config_path, os.environ)
    in_file, in_env = file_values(vault.config_path), env_overrides(os.environ)
    rows = []
    for spec in SETTINGS:
        origin = "default"
        if spec.key in in_env:
            origin = f"env VAULT_{spec.key.upper()}"
        elif spec.key in in_file:
            origin = str(vault.config_path)
        rows.append({"table": spec.table, "key": spec.key, "value": settings.value(spec.key),
                     "type": spec.kind, "default": spec.default, "range": spec.range_text(),
                     "per_call": spec.per_call, "help": spec.help, "origin": origin})  # fmt: skip
    if as_json:
        emit(rows)
        return
    table = ""
    for row in rows:
        if row["table"] != table:
            table = str(row["table"])
            click.echo(f"[{table}]")
        shown = toml_value(settings.value(str(row["key"])))
        bounds = f" ({row['range']})" if row["range"] else ""
        click.echo(f"  {row['key']} = {shown}    {row['origin']}")
        click.echo(f"      {row['type']}{bounds}: {row['help']}")
