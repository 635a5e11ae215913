"""Where the vault lives: --vault, then $VAULT_HOME, then the user config, then
a default under the home folder. Never the current directory, so every launch
directory sees the same memory. The caller passes the environment in.

Plain os.path strings inside: the prompt hook resolves the vault without
importing pathlib.
"""

from __future__ import annotations

import os
import sys

TYPE_CHECKING = False  # not typing's: on the prompt hook path `import typing` adds ~23 ms
if TYPE_CHECKING:
    from collections.abc import Mapping
    from pathlib import Path

APP_NAME = "memory-vault"


def _home(environ: Mapping[str, str]) -> str:
    return environ.get("HOME") or os.path.expanduser("~")


def _absolute(path: str) -> str:
    return os.path.abspath(os.path.expanduser(path))


def vault_home(option: str | None, environ: Mapping[str, str]) -> str:
    """The vault folder as an absolute path string."""
    if option:
        return _absolute(option)
    if environ.get("VAULT_HOME"):
        return _absolute(environ["VAULT_HOME"])
    config_base = environ.get("XDG_CONFIG_HOME") or os.path.join(_home(environ), ".config")
    user_config = os.path.join(os.path.expanduser(config_base), APP_NAME, "config.toml")
    if os.path.isfile(user_config):
        import tomllib

        try:
            with open(user_config, encoding="utf-8") as handle:
                data = tomllib.loads(handle.read())
        except (tomllib.TOMLDecodeError, UnicodeDecodeError, OSError):
            data = {}
        vault = data.get("vault")
        if isinstance(vault, str) and vault:
            return _absolute(vault)
    data_base = environ.get("XDG_DATA_HOME") or os.path.join(_home(environ), ".local", "share")
    return os.path.join(os.path.expanduser(data_base), APP_NAME, "vault")


def resolve_vault_home(option: str | None, environ: Mapping[str, str]) -> Path:
    from pathlib import Path

    return Path(vault_home(option, environ))


def model_cache_dir(environ: Mapping[str, str]) -> str:
    """Where exported models are cached: $VAULT_MODEL_CACHE, else the user's cache
    folder ($XDG_CACHE_HOME, ~/Library/Caches on macOS, ~/.cache)."""
    if environ.get("VAULT_MODEL_CACHE"):
        return _absolute(environ["VAULT_MODEL_CACHE"])
    if environ.get("XDG_CACHE_HOME"):
        base = environ["XDG_CACHE_HOME"]
    elif sys.platform == "darwin":
        base = os.path.join(_home(environ), "Library", "Caches")
    else:
        base = os.path.join(_home(environ), ".cache")
    return os.path.join(_absolute(base), APP_NAME, "models")
