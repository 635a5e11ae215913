"""`vault config`: every setting with its value and where that value came from
(default, config.toml or a VAULT_<KEY> environment variable)."""

from __future__ import annotations

import os

import click

from hooks.cli.common import Context, emit, json_option, pass_context


@click.command(name="config")
@json_option
@pass_context
def config(context: Context, as_json: bool) -> None:
    """Show the resolved settings; VAULT_<KEY> overrides config.toml, which overrides
    the default (e.g. VAULT_CUE_BAR=0.2 VAULT_LLM_EXTRACTION=true).

    Example: VAULT_LINKS_MAX=3 vault config --json
    """
    import tomllib

    from vault.config import DEFAULTS, load_settings

    vault = context.vault
    settings = load_settings(vault.config_path, os.environ)
    in_file: set[str] = set()
    if vault.config_path.is_file():
        data = tomllib.loads(vault.config_path.read_text(encoding="utf-8"))
        for table, entries in data.items():
            in_file |= set(entries) if isinstance(entries, dict) else {table}
    rows = []
    for table, key, default, _ in DEFAULTS:
        origin = "default"
        if f"VAULT_{key.upper()}" in os.environ:
            origin = f"env VAULT_{key.upper()}"
        elif key in in_file:
            origin = str(vault.config_path)
        rows.append({"table": table, "key": key, "value": settings[key],
                     "type": type(default).__name__, "origin": origin})  # fmt: skip
    if as_json:
        emit(rows)
        return
    for row in rows:
        click.echo(f"{row['table'] + '.' + row['key']:42} {row['value']!s:12} {row['origin']}")
