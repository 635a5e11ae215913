"""Fixtures of the packaging tests: the built dists, and a person's machine (HOME,
a vault, Claude Code on PATH) whose only `vault` is the one a packaged install put
on PATH; nothing of the checkout is on its sys.path, and it runs from a temp cwd."""

from __future__ import annotations

import os
import subprocess
from dataclasses import dataclass
from pathlib import Path

import pytest

from tests.claude_code.machine import CLAUDE
from tests.packaging.artifacts import Built, built, shared_root, uv_tool


@pytest.fixture(scope="session")
def dists(tmp_path_factory: pytest.TempPathFactory) -> Built:
    return built(shared_root(tmp_path_factory.getbasetemp()))


@dataclass
class Person:
    """A machine whose PATH has only the installed `vault` and the system's tools."""

    base: Path
    bin_dir: Path

    @property
    def vault_root(self) -> Path:
        return self.base / "vault"

    def env(self, **extra: str) -> dict[str, str]:
        path = [str(self.bin_dir), *([str(Path(CLAUDE).parent)] if CLAUDE else []), "/usr/bin",
                "/bin"]  # fmt: skip
        return {"PATH": os.pathsep.join(path), "HOME": str(self.base / "home"),
                "VAULT_HOME": str(self.vault_root), "HF_HUB_OFFLINE": "1", "LANG": "C.UTF-8",
                "TMPDIR": str(self.base / "tmp"), **extra}  # fmt: skip

    def run(self, *command: str, stdin: str = "", **extra: str) -> subprocess.CompletedProcess[str]:
        (self.base / "tmp").mkdir(parents=True, exist_ok=True)
        return subprocess.run(list(command), input=stdin, capture_output=True, text=True,
                              env=self.env(**extra), cwd=self.base / "tmp",
                              timeout=300)  # fmt: skip


@pytest.fixture(scope="module")
def uv_person(tmp_path_factory: pytest.TempPathFactory, dists: Built) -> Person:
    """After `uv tool install` of the wheel (made once per session)."""
    bin_dir = uv_tool(shared_root(tmp_path_factory.getbasetemp()), dists)
    return Person(tmp_path_factory.mktemp("uv-person"), bin_dir)
