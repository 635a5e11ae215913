"""Where the vault lives: --vault, then $VAULT_HOME, then the user config, then
a default under the home folder. Never the current directory, so every launch
directory sees the same memory. The caller passes the environment in.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path

APP_NAME = "memory-vault"


def user_config_dir(environ: Mapping[str, str]) -> Path:
    base = environ.get("XDG_CONFIG_HOME") or str(Path(environ.get("HOME", "~")) / ".config")
    return Path(base).expanduser() / APP_NAME


def default_vault_home(environ: Mapping[str, str]) -> Path:
    base = environ.get("XDG_DATA_HOME") or str(Path(environ.get("HOME", "~")) / ".local" / "share")
    return Path(base).expanduser() / APP_NAME / "vault"


def resolve_vault_home(option: str | None, environ: Mapping[str, str]) -> Path:
    if option:
        return Path(option).expanduser().absolute()
    if environ.get("VAULT_HOME"):
        return Path(environ["VAULT_HOME"]).expanduser().absolute()
    user_config = user_config_dir(environ) / "config.toml"
    if user_config.is_file():
        import tomllib

        try:
            data = tomllib.loads(user_config.read_text(encoding="utf-8"))
        except (tomllib.TOMLDecodeError, UnicodeDecodeError):
            data = {}
        vault = data.get("vault")
        if isinstance(vault, str) and vault:
            return Path(vault).expanduser().absolute()
    return default_vault_home(environ)
