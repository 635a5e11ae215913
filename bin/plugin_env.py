"""Shared by the plugin launchers: the plugin's own virtual environment.

Claude Code copies the plugin to a cache folder that changes on every update;
only ${CLAUDE_PLUGIN_DATA} survives, so the environment lives there. It is
(re)built in the background when missing or when the bundled pyproject.toml
changed. Standard library only.
"""

from __future__ import annotations

import hashlib
import json
import os
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))  # the plugin's own code: config_dir is standard library only
from hooks.claude_code.config_dir import claude_dir  # noqa: E402

MARKER = "vault-hook"


def data_dir() -> Path:
    configured = os.environ.get("CLAUDE_PLUGIN_DATA")
    base = (
        Path(configured)
        if configured
        else Path.home() / ".local" / "share" / "memory-vault" / "plugin"
    )
    return base.expanduser()


def venv_bin(name: str) -> Path:
    return data_dir() / "venv" / "bin" / name


def wanted_version() -> str:
    return hashlib.sha256((ROOT / "pyproject.toml").read_bytes()).hexdigest()[:16]


def up_to_date() -> bool:
    stamp = data_dir() / "installed-version"
    return stamp.exists() and stamp.read_text().strip() == wanted_version()


def bootstrap_in_background() -> None:
    """Build the environment detached (pip with the CPU torch first); at most one at a time."""
    marker = data_dir() / "bootstrapping"
    if marker.exists() and time.time() - marker.stat().st_mtime < 1800:
        return
    data_dir().mkdir(parents=True, exist_ok=True)
    marker.touch()
    venv = data_dir() / "venv"
    pip = f'"{venv}/bin/python" -m pip install --quiet'
    script = (
        f'python3 -m venv "{venv}" && {pip} --upgrade pip && {pip} torch==2.13.0 && '
        f'{pip} "{ROOT}" && echo {wanted_version()} > "{data_dir()}/installed-version"; '
        f'rm -f "{marker}"'
    )
    log = open(data_dir() / "bootstrap.log", "ab")  # noqa: SIM115 - handed to the child
    subprocess.Popen(["/bin/sh", "-c", script], stdin=subprocess.DEVNULL, stdout=log, stderr=log,
                     start_new_session=True, close_fds=True)  # fmt: skip


def installed_in_settings() -> bool:
    """`vault install` already put our hooks in settings.json: the plugin stays quiet."""
    settings = claude_dir(os.environ) / "settings.json"
    try:
        data = json.loads(settings.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return False
    hooks = data.get("hooks", {}) if isinstance(data, dict) else {}
    for groups in hooks.values() if isinstance(hooks, dict) else []:
        for group in groups if isinstance(groups, list) else []:
            for handler in group.get("hooks", []) if isinstance(group, dict) else []:
                command = str(handler.get("command", "")) if isinstance(handler, dict) else ""
                if (
                    MARKER in command
                    and "CLAUDE_PLUGIN_ROOT" not in command
                    and str(ROOT) not in command
                ):
                    return True
    return False


def exec_or_exit(name: str, args: list[str], quiet: bool) -> None:
    target = venv_bin(name)
    if not up_to_date():
        bootstrap_in_background()
    if target.exists():
        os.execv(str(target), [str(target), *args])
    if not quiet:
        print(f"memory-vault is still installing into {data_dir()}; try again in a few minutes",
              file=sys.stderr)  # fmt: skip
        sys.exit(1)
    sys.exit(0)
