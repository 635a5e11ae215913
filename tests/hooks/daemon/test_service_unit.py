"""`vault daemon install-service` / `uninstall-service` as a person runs them. The
service manager is the outer edge: `systemd-analyze verify` checks the unit
systemd would load, and a stand-in `systemctl` on PATH records what it is asked
(this machine has no user service manager running); launchd's agent is checked
as the plist launchd would read."""

from __future__ import annotations

import os
import plistlib
import shutil
import stat
import subprocess
import sys
from pathlib import Path

import pytest

from hooks.daemon.service_unit import service_unit
from vault.layout import Vault

RECORDER = """#!/bin/sh
echo "$@" >> "{log}"
exit {code}
"""


def vault_cmd(vault: Vault, env: dict[str, str], *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "hooks.cli", "--vault", str(vault.root), *args],
                          capture_output=True, text=True, env=env, timeout=120)  # fmt: skip


def stand_in_systemctl(folder: Path, code: int = 0) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    log = folder / "calls.log"
    script = folder / "systemctl"
    script.write_text(RECORDER.format(log=log, code=code))
    script.chmod(script.stat().st_mode | stat.S_IEXEC)
    return log


@pytest.fixture
def env(tmp_path: Path) -> dict[str, str]:
    home = tmp_path / "home"
    home.mkdir()
    return {**os.environ, "HOME": str(home), "XDG_CONFIG_HOME": str(home / ".config"),
            "PATH": f"{tmp_path / 'bin'}{os.pathsep}{os.environ['PATH']}"}  # fmt: skip


@pytest.mark.skipif(sys.platform != "linux", reason="systemd user units are Linux's")
def test_install_writes_a_unit_systemd_accepts_and_enables_it(
    vault: Vault, env: dict[str, str], tmp_path: Path
) -> None:
    vault.create_folders()
    calls = stand_in_systemctl(tmp_path / "bin")
    done = vault_cmd(vault, env, "daemon", "install-service")
    assert done.returncode == 0, done.stderr
    [unit] = (Path(env["XDG_CONFIG_HOME"]) / "systemd" / "user").glob("memory-vault-*.service")
    assert f"installed {unit}" in done.stdout
    text = unit.read_text()
    assert f'ExecStart="{sys.executable}" "-m" "hooks.cli" "--vault" "{vault.root}" "serve"' in text
    assert calls.read_text().splitlines() == ["--user daemon-reload",
                                              f"--user enable --now {unit.name}"]  # fmt: skip
    if shutil.which("systemd-analyze"):
        verified = subprocess.run(["systemd-analyze", "verify", str(unit)], capture_output=True,
                                  text=True, timeout=60)  # fmt: skip
        assert (verified.returncode, verified.stderr) == (0, "")  # systemd would load it

    calls.write_text("")
    removed = vault_cmd(vault, env, "daemon", "uninstall-service")
    assert removed.returncode == 0, removed.stderr
    assert not unit.exists()
    assert calls.read_text().splitlines() == [f"--user disable --now {unit.name}",
                                              "--user daemon-reload"]  # fmt: skip
    again = vault_cmd(vault, env, "daemon", "uninstall-service")
    assert (again.returncode, again.stdout.startswith("no service installed")) == (0, True)


def test_a_refusing_service_manager_is_one_line_and_keeps_the_unit(
    vault: Vault, env: dict[str, str], tmp_path: Path
) -> None:
    vault.create_folders()
    stand_in_systemctl(tmp_path / "bin", code=1)
    done = vault_cmd(vault, env, "daemon", "install-service")
    assert done.returncode == 1
    [line] = done.stderr.strip().splitlines()
    assert "daemon-reload` failed" in line
    assert "is written" in line
    assert list((Path(env["XDG_CONFIG_HOME"]) / "systemd" / "user").glob("*.service"))


def test_each_vault_gets_its_own_unit_and_a_path_with_spaces_is_quoted(tmp_path: Path) -> None:
    env = {"HOME": str(tmp_path)}
    one = service_unit(tmp_path / "my vault", Path("/opt/py"), env, "linux")
    two = service_unit(tmp_path / "other", Path("/opt/py"), env, "linux")
    assert one.path != two.path
    assert f'"--vault" "{tmp_path}/my vault" "serve"' in one.text.decode()


def test_macos_gets_a_launch_agent_that_keeps_the_daemon_up(tmp_path: Path) -> None:
    unit = service_unit(tmp_path / "vault", Path("/opt/py"), {"HOME": str(tmp_path)}, "darwin")
    assert unit.path.parent == tmp_path / "Library" / "LaunchAgents"
    agent = plistlib.loads(unit.text)
    assert agent["ProgramArguments"] == ["/opt/py", "-m", "hooks.cli", "--vault",
                                         str(tmp_path / "vault"), "serve"]  # fmt: skip
    assert (agent["RunAtLoad"], agent["KeepAlive"]) == (True, True)
    assert unit.load == (("launchctl", "load", "-w", str(unit.path)),)
