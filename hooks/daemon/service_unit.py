"""`vault daemon install-service`: the warm daemon as a user service started at
login (a systemd user unit on Linux, a launchd agent on macOS), for people who
want it warm before the first prompt; the on-demand start stays the default.
One file is written and the service manager asked to load it; uninstalling
removes exactly that file. Nothing here runs as root or touches system folders.
"""

from __future__ import annotations

import hashlib
import plistlib
import shutil
import subprocess
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from vault.atomic import atomic_write

Runner = Callable[[Sequence[str]], subprocess.CompletedProcess[str]]


@dataclass(frozen=True)
class ServiceUnit:
    path: Path  # the unit or agent file
    text: bytes
    load: tuple[tuple[str, ...], ...]  # service-manager commands after writing it
    unload: tuple[tuple[str, ...], ...]  # and before removing it


def service_unit(
    vault_root: Path, python: Path, environ: Mapping[str, str], platform: str
) -> ServiceUnit:
    """The unit for this vault (one per vault: the name carries a hash of its path)."""
    tag = hashlib.sha256(str(vault_root).encode()).hexdigest()[:8]
    command = [str(python), "-m", "hooks.cli", "--vault", str(vault_root), "serve"]
    home = Path(environ.get("HOME") or Path.home())
    if platform == "darwin":
        label = f"com.memory-vault.daemon.{tag}"
        path = home / "Library" / "LaunchAgents" / f"{label}.plist"
        log = str(vault_root / ".index" / "daemon-service.log")
        agent = {"Label": label, "ProgramArguments": command, "RunAtLoad": True,
                 "KeepAlive": True, "EnvironmentVariables": {"HF_HUB_OFFLINE": "1"},
                 "StandardErrorPath": log}  # fmt: skip
        return ServiceUnit(path, plistlib.dumps(agent), (("launchctl", "load", "-w", str(path)),),
                           (("launchctl", "unload", "-w", str(path)),))  # fmt: skip
    name = f"memory-vault-{tag}.service"
    config = Path(environ.get("XDG_CONFIG_HOME") or home / ".config")
    text = "\n".join([
        "[Unit]",
        f"Description=memory-vault warm daemon for {vault_root}",
        "",
        "[Service]",
        "Type=simple",
        "ExecStart=" + " ".join(_systemd_quoted(part) for part in command),
        "Environment=HF_HUB_OFFLINE=1",
        "Restart=always",  # also after its idle exit: up whenever the person is logged in
        "RestartSec=5",
        "",
        "[Install]",
        "WantedBy=default.target",
        "",
    ])  # fmt: skip
    systemctl = ("systemctl", "--user")
    return ServiceUnit(
        config / "systemd" / "user" / name,
        text.encode("utf-8"),
        ((*systemctl, "daemon-reload"), (*systemctl, "enable", "--now", name)),
        ((*systemctl, "disable", "--now", name),),
    )


def _systemd_quoted(word: str) -> str:
    escaped = word.replace("\\", "\\\\").replace('"', '\\"').replace("%", "%%")
    return f'"{escaped}"'


def install(unit: ServiceUnit, run: Runner) -> str:
    """Write the unit and load it; raises ServiceError (the file stays) if the
    service manager refuses or is missing."""
    atomic_write(unit.path, unit.text)
    _run_all(unit.load, run, f"{unit.path} is written")
    return f"installed {unit.path}; the daemon now starts at login"


def uninstall(unit: ServiceUnit, run: Runner) -> str:
    if not unit.path.exists():
        return f"no service installed ({unit.path} does not exist)"
    _run_all(unit.unload, run, f"{unit.path} is kept")
    unit.path.unlink()
    if unit.load and unit.load[0][-1] == "daemon-reload":
        _run_all(unit.load[:1], run, f"{unit.path} is removed")
    return f"removed {unit.path}; the daemon starts on demand again"


class ServiceError(Exception):
    """The service manager could not do what was asked."""


def _run_all(commands: Sequence[Sequence[str]], run: Runner, state: str) -> None:
    for command in commands:
        if shutil.which(command[0]) is None:
            raise ServiceError(f"{command[0]} not found; {state}: run `{' '.join(command)}`")
        done = run(command)
        if done.returncode != 0:
            why = (done.stderr.strip().splitlines() or ["no output"])[-1]
            raise ServiceError(f"`{' '.join(command)}` failed ({why}); {state}")
