"""Capture from transcripts, safely: a turn with <private> never captured,
only transcripts under the Claude config folder's projects/ (or a configured
folder), never a second capture after the cursors file is lost, and the
configured project identity over the git remote."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from hooks.claude_code.capture import capture_transcript, pending_transcripts, sweep
from memory.service import MemoryService
from tests.conftest import ServiceFactory
from vault.layout import Vault
from vault.source_files import RefusedSourceError

pytestmark = pytest.mark.model
PRIVATE_TURN = (
    "We decided to ship the billing service on Fridays after the weekly review. "
    "<private>My home address is 12 Elm Street for deliveries. "
    "We decided my door code is 4471 and it never changes. "
    "Always call my sister Ada before noon.</private> "
    "From now on we always pin the Python version in CI so builds stay reproducible. "
    "Let's go with ruff for both linting and formatting across every repository. "
    "We decided to keep the staging database in eu-west-1 next to the app servers. "
    "Never merge on red: the main branch must stay green at all times."
)


def write_transcript(path: Path, turns: list[str], cwd: Path | None = None) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("a") as handle:
        for number, text in enumerate(turns):
            line = {"type": "user", "uuid": f"{path.stem}-{path.stat().st_size}-{number}",
                    "sessionId": path.stem, "cwd": str(cwd or path.parent),
                    "timestamp": "2026-01-01T09:00:00Z",
                    "message": {"role": "user", "content": text}}  # fmt: skip
            handle.write(json.dumps(line) + "\n")
    return path


@pytest.fixture
def projects(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("CLAUDE_CONFIG_DIR", str(tmp_path / "claude"))
    folder = tmp_path / "claude" / "projects" / "-home-dev-api"
    folder.mkdir(parents=True)
    return folder


def texts(service: MemoryService) -> list[str]:
    return [service.store.read_path(p).body for p in service.vault.memory_files()]


def snapshot(service: MemoryService) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in service.vault.memory_files()}


def test_a_turn_with_a_private_tag_is_never_captured_at_all(
    vault: Vault, projects: Path, tmp_path: Path
) -> None:
    """The README's rule, on the path a session takes (`vault capture` as a
    process): a <private> tag anywhere in a turn drops the whole turn, and so
    does a stray </private>; the turns around it are captured."""
    assert len(PRIVATE_TURN) > 500  # a long turn is split into sentences
    stray = ("We decided my door code is 4471 and it never changes.</private> "
             "From now on we always pin the Node version in CI as well.")  # fmt: skip
    kept = "Let's go with ruff for both linting and formatting across every repository."
    path = write_transcript(projects / "s1.jsonl", [PRIVATE_TURN, stray, kept])
    env = {**os.environ, "CLAUDE_CONFIG_DIR": str(tmp_path / "claude")}
    run = subprocess.run([sys.executable, "-m", "hooks.cli", "--vault", str(vault.root), "capture",
                          "--transcript", str(path)], capture_output=True, text=True, env=env,
                         timeout=300)  # fmt: skip
    assert run.returncode == 0, run.stderr
    captured = " ".join(p.read_text() for p in vault.memory_files())
    assert "ruff for both linting" in captured
    for private in ("Elm Street", "4471", "door code", "sister Ada", "Python version", "Node"):
        assert private not in captured


def test_only_transcripts_under_projects_or_configured_folders_are_read(
    make_service: ServiceFactory, projects: Path, tmp_path: Path
) -> None:
    elsewhere = write_transcript(tmp_path / "elsewhere" / "s2.jsonl", ["We decided to use tabs."])
    service = make_service()
    for path in (Path("/etc/passwd"), elsewhere, projects / ".." / ".." / ".." / "x.jsonl"):
        with pytest.raises(RefusedSourceError):
            capture_transcript(service, path)
    (projects / "escape.jsonl").symlink_to(elsewhere)
    with pytest.raises(RefusedSourceError, match="outside the folders"):
        capture_transcript(service, projects / "escape.jsonl")
    assert pending_transcripts(service, {"CLAUDE_CONFIG_DIR": str(tmp_path / "claude")}) == []
    assert not (service.vault.state_dir / "cursors.json").exists()
    assert texts(service) == []
    allowed = make_service(VAULT_TRANSCRIPTS_ALLOWED=str(tmp_path / "elsewhere"))
    assert len(capture_transcript(allowed, elsewhere).created) == 1


def test_a_corrupt_cursors_file_does_not_capture_a_transcript_again(
    service: MemoryService, projects: Path, tmp_path: Path
) -> None:
    first = write_transcript(projects / "s3.jsonl", ["We decided to keep billing in cents."])
    second = write_transcript(projects / "s4.jsonl", ["From now on never log card numbers."])
    environ = {"CLAUDE_CONFIG_DIR": str(tmp_path / "claude")}
    sweep(service, environ)
    before = snapshot(service)
    assert len(before) == 2
    cursors = service.vault.state_dir / "cursors.json"
    cursors.write_text(cursors.read_text()[:40])
    assert capture_transcript(service, first).total == 0
    assert sweep(service, environ).captured == {}
    assert snapshot(service) == before  # no new file, no reinforcement either
    assert len(list(service.vault.state_dir.glob("cursors.json.corrupt-*"))) == 1
    write_transcript(second, ["Never run the migrations by hand in this repo."])
    assert len(capture_transcript(service, second).created) == 1
