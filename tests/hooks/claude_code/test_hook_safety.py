"""Hooks facing hostile input: a transcript path outside Claude's projects/ is
refused before anything reads it (no daemon started, no cursor), an event with
an over-long path part is dropped and logged once, hooks.log rotates, and a
working directory the system cannot stat never breaks the project identity."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from hooks.claude_code import hook_log
from hooks.claude_code.project import project_for, project_identity
from hooks.claude_code.session import capture_request
from vault.layout import Vault


@pytest.fixture
def environ(tmp_path: Path, vault: Vault) -> dict[str, str]:
    (tmp_path / "claude" / "projects" / "-api").mkdir(parents=True)
    return {
        **os.environ,
        "VAULT_HOME": str(vault.root),
        "CLAUDE_CONFIG_DIR": str(tmp_path / "claude"),
    }


def stop_hook(payload: dict[str, object], env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "hooks.claude_code.entry", "stop"],
                          input=json.dumps(payload), capture_output=True, text=True, env=env,
                          timeout=60)  # fmt: skip


@pytest.mark.parametrize(
    "path", ["/etc/passwd", "/proc/self/environ", "/dev/zero", "{tmp}/t.jsonl"]
)
def test_capture_hooks_refuse_transcripts_outside_projects(
    vault: Vault, environ: dict[str, str], tmp_path: Path, path: str
) -> None:
    (tmp_path / "t.jsonl").write_text('{"type": "user"}\n')
    event = {"transcript_path": path.format(tmp=tmp_path), "session_id": "s", "cwd": "/"}
    assert capture_request(event, vault.root, environ) is None
    result = stop_hook(event, environ)
    assert (result.returncode, result.stdout, result.stderr) == (0, "", "")
    assert not (vault.index_dir / "run" / "starting").exists()  # no daemon was started
    assert not (vault.state_dir / "cursors.json").exists()


def test_a_transcript_under_projects_is_accepted(vault: Vault, environ: dict[str, str]) -> None:
    transcript = Path(environ["CLAUDE_CONFIG_DIR"]) / "projects" / "-api" / "s.jsonl"
    transcript.write_text("{}\n")
    event = {"transcript_path": str(transcript), "session_id": "s", "cwd": "/"}
    request = capture_request(event, vault.root, environ)
    assert request is not None
    assert request[0]["transcript"] == str(transcript)


def test_an_over_long_path_part_is_dropped_and_logged_once(
    vault: Vault, environ: dict[str, str]
) -> None:
    long_part = "x" * 300
    for key in ("transcript_path", "cwd"):
        event = {"transcript_path": f"/tmp/{long_part}.jsonl", "session_id": "s", "cwd": "/"}
        event[key] = f"/tmp/{long_part}/t.jsonl" if key == "cwd" else event[key]
        for _ in range(3):
            result = stop_hook(event, environ)
            assert (result.returncode, result.stderr) == (0, "")
    log = (vault.state_dir / "hooks.log").read_text()
    assert log.count("over 255 characters") == 1
    assert "Traceback" not in log


def test_the_project_identity_survives_paths_the_system_refuses(tmp_path: Path) -> None:
    assert project_identity("/tmp/" + "y" * 300) == ""
    assert project_identity("/proc/self/fd/999/none") == ""
    repo = tmp_path / "api"
    (repo / ".git").mkdir(parents=True)
    (repo / ".git" / "config").write_text('[remote "origin"]\n\turl = https://github.com/a/b\n')
    assert project_for("", str(repo)) == "github.com/a/b"
    assert project_for("work/api", str(repo)) == "work/api"


def test_hooks_log_rotates_at_its_size_cap(vault: Vault) -> None:
    line = "z" * 999
    for _ in range(hook_log.MAX_BYTES // 1000 * (hook_log.BACKUPS + 2)):
        hook_log.append(vault.root, line)
    logs = sorted(p.name for p in vault.state_dir.iterdir() if p.name.startswith("hooks.log"))
    assert logs == ["hooks.log"] + [f"hooks.log.{n}" for n in range(1, hook_log.BACKUPS + 1)]
    assert all((vault.state_dir / name).stat().st_size <= hook_log.MAX_BYTES for name in logs)


def test_a_note_is_logged_once(vault: Vault) -> None:
    for _ in range(3):
        hook_log.note_once(vault.root, "example", "said once")
    assert (vault.state_dir / "hooks.log").read_text().count("said once") == 1
