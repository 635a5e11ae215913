"""`pipx install` of the wheel (pipx from PyPI, its default uv backend; offline here
from the session's wheelhouse): `vault` and `vault-hook` on PATH, the CPU torch."""

from __future__ import annotations

import json

import pytest

from tests.packaging.artifacts import DEV_BIN, Built, run
from tests.packaging.conftest import Person

pytestmark = [pytest.mark.slow, pytest.mark.model, pytest.mark.timeout(900)]


def test_pipx_install_puts_a_working_vault_on_path(tmp_path, dists: Built) -> None:
    home = tmp_path / "pipx"
    env = {"PIPX_HOME": str(home / "home"), "PIPX_BIN_DIR": str(home / "bin"),
           "PATH": f"{DEV_BIN}:/usr/bin:/bin"}  # fmt: skip
    run(DEV_BIN / "pipx", "install", "--pip-args", f"--no-index --find-links {dists.wheelhouse}",
        dists.wheel, **env)  # fmt: skip
    person = Person(tmp_path / "person", home / "bin")
    assert person.run("vault", "--version").stdout.strip().endswith("0.2.0")
    assert person.run("vault", "init").returncode == 0
    jot = person.run("vault", "jot", "Deploys run from ops/deploy.sh on Tuesdays.")
    assert jot.returncode == 0, jot.stderr
    status = person.run("vault", "status", "--json")
    assert json.loads(status.stdout)["active"]["episodic"] == 1, status.stdout
    venv = home / "home" / "venvs" / "memory-vault"
    assert list(venv.glob("lib/python*/site-packages/torch-2.13.0+cpu.dist-info"))
    assert not list(venv.glob("lib/python*/site-packages/nvidia*"))
