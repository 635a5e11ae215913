"""A person's machine for the real Claude Code CLI, in a temp folder: HOME with
~/.claude, a vault, git projects, and `claude -p` runs against the Messages API
stand-in with the story's clock in VAULT_NOW. The pinned binary comes from
.tools/ (`make tools`), $CLAUDE_BIN or PATH. Used by the tests and the benchmark."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from hooks.client import client
from tests.claude_code.stub_api import StubApi
from vault.layout import Vault
from vault.schema import MemoryRecord
from vault.store import MemoryStore

ROOT = Path(__file__).resolve().parents[2]
VENV_BIN = Path(sys.executable).parent
VERSION = "2.1.328"


def claude_binary() -> str | None:
    candidates = [os.environ.get("CLAUDE_BIN", ""),
                  str(ROOT / ".tools" / "node_modules" / ".bin" / "claude"),
                  shutil.which("claude") or ""]  # fmt: skip
    return next((path for path in candidates if path and os.access(path, os.X_OK)), None)


CLAUDE = claude_binary()


def wait_for(condition: Callable[[], object], timeout: float = 60.0) -> None:
    """Bounded polling for a real event in another process (a daemon's queued work)."""
    deadline = time.monotonic() + timeout
    while not condition():
        assert time.monotonic() < deadline, "timed out"
        time.sleep(0.05)


@dataclass
class Machine:
    """One person's machine: HOME (with ~/.claude), a vault, projects in git."""

    base: Path
    extra: dict[str, str] = field(default_factory=dict)  # more environment for every command

    @property
    def home(self) -> Path:
        return self.base / "home"

    @property
    def vault(self) -> Vault:
        return Vault(self.base / "vault")

    def env(self, api: StubApi | None = None, now: str | None = None) -> dict[str, str]:
        """Only what the CLI and our hooks need: no credentials, no network."""
        assert CLAUDE is not None
        env = {
            "PATH": f"{Path(CLAUDE).parent}{os.pathsep}{os.environ.get('PATH', '/usr/bin:/bin')}",
            "HOME": str(self.home),
            "LANG": "C.UTF-8",
            "ANTHROPIC_API_KEY": "sk-ant-stand-in",
            "CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC": "1",
            "DISABLE_TELEMETRY": "1",
            "DISABLE_AUTOUPDATER": "1",
            "CLAUDE_CODE_TMPDIR": str(self.base / "tmp"),  # else /tmp/claude-<uid>
            "VAULT_HOME": str(self.vault.root),
            "HF_HUB_OFFLINE": "1",
            "VAULT_MODEL_CACHE": os.environ["VAULT_MODEL_CACHE"],  # the model's export, once
        }
        env.update(self.extra)
        if api is not None:
            env["ANTHROPIC_BASE_URL"] = api.base_url
        if now is not None:
            env["VAULT_NOW"] = now
        return env

    def project(self, name: str) -> Path:
        """A git checkout whose origin is github.com/acme/NAME."""
        folder = self.base / "code" / name
        if not folder.exists():
            (folder / ".git").mkdir(parents=True)
            (folder / ".git" / "config").write_text(
                f'[remote "origin"]\n\turl = git@github.com:acme/{name}.git\n'
            )
        return folder

    def claude(
        self, api: StubApi, cwd: Path, *args: str, now: str | None = None
    ) -> subprocess.CompletedProcess[str]:
        assert CLAUDE is not None
        return subprocess.run([CLAUDE, *args], cwd=cwd, env=self.env(api, now), text=True,
                              capture_output=True, stdin=subprocess.DEVNULL,
                              timeout=240)  # fmt: skip

    def run(self, *command: str, now: str | None = None) -> subprocess.CompletedProcess[str]:
        """A command of this environment (`vault`, `claude`) on this machine."""
        return subprocess.run(list(command), env=self.env(now=now), text=True,
                              capture_output=True, stdin=subprocess.DEVNULL,
                              timeout=240)  # fmt: skip

    def settle(self) -> None:
        """Wait until the daemon has done the work handed to it so far."""
        assert client.wait_until_up(self.vault.root, 120) is not None
        client.request(self.vault.root, "status", {}, timeout=120)

    def memories(self) -> list[MemoryRecord]:
        store = MemoryStore(self.vault)
        return [store.read_path(path) for path in sorted(self.vault.memories_dir.glob("*.md"))]

    def memory_saying(self, words: str) -> MemoryRecord | None:
        return next((m for m in self.memories() if words in m.body), None)

    def transcripts(self) -> list[Path]:
        return sorted((self.home / ".claude" / "projects").glob("*/*.jsonl"))


def new_machine(base: Path) -> Machine:
    machine = Machine(base)
    machine.home.mkdir(parents=True)
    (machine.base / "tmp").mkdir()
    result = machine.run(str(VENV_BIN / "vault"), "init")
    assert result.returncode == 0, result.stderr
    return machine
