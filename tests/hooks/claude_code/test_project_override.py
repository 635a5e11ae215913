"""`project_override` replaces the git remote as the project identity in every
place a hook computes one: capture, the daemon's prompt op, the session-start
briefing, even when the hook's working directory is a git repository."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from hooks.claude_code.session import briefing, capture_request
from hooks.ops.table import dispatch
from memory.service import MemoryService
from tests.conftest import ServiceFactory

pytestmark = pytest.mark.model
TEXT = "The nightly export job writes parquet files to the shared bucket."
OVERRIDE = "work/api"


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    folder = tmp_path / "code" / "api"
    (folder / ".git").mkdir(parents=True)
    (folder / ".git" / "config").write_text(
        '[remote "origin"]\n\turl = git@github.com:acme/api.git\n'
    )
    return folder


def overridden(make_service: ServiceFactory) -> MemoryService:
    service = make_service(VAULT_PROJECT_OVERRIDE=OVERRIDE)
    service.vault.config_path.write_text(f'[capture]\nproject_override = "{OVERRIDE}"\n')
    return service


def test_the_prompt_op_boosts_the_overridden_project(
    make_service: ServiceFactory, repo: Path
) -> None:
    service = overridden(make_service)
    remote = service.jot(TEXT, project="github.com/acme/api")
    mine = service.jot(TEXT, project=OVERRIDE)
    event = {"prompt": "where does the nightly export write parquet files?", "cwd": str(repo),
             "session_id": "s1"}  # fmt: skip
    output = dispatch(service, "prompt_event", {"event": event})["output"]
    context = json.loads(output)["hookSpecificOutput"]["additionalContext"]
    assert context.index(mine.id) < context.index(remote.id)


def test_the_briefing_uses_the_overridden_project(make_service: ServiceFactory, repo: Path) -> None:
    service = overridden(make_service)
    mine = service.jot(TEXT, project=OVERRIDE, kind="fact")
    environ = {**os.environ, "VAULT_HOME": str(service.vault.root), "VAULT_NOW": "2026-01-02"}
    assert mine.id in briefing(service.vault.root, str(repo), environ)


def test_the_capture_hook_sends_the_overridden_project(
    make_service: ServiceFactory, repo: Path, tmp_path: Path
) -> None:
    service = overridden(make_service)
    transcript = tmp_path / "claude" / "projects" / "-api" / "s1.jsonl"
    transcript.parent.mkdir(parents=True)
    transcript.write_text("{}\n")
    environ = {**os.environ, "CLAUDE_CONFIG_DIR": str(tmp_path / "claude")}
    event = {"transcript_path": str(transcript), "session_id": "s1", "cwd": str(repo)}
    request = capture_request(event, service.vault.root, environ)
    assert request is not None
    args, cli = request
    assert args["project"] == OVERRIDE
    assert cli[cli.index("--project") + 1] == OVERRIDE
