"""The compaction watcher on a transcript the real Claude Code CLI wrote while
auto-compacting, on transcripts that grow while it watches (in-process, as a
CLI subprocess and inside the daemon) and on a format it cannot read (a size
drop). When capture is behind a compaction, the watcher captures."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from hooks.claude_code.capture import cursor_offset
from hooks.claude_code.compaction import events, scan, scan_file, stats
from hooks.claude_code.compaction_detect import read_compactions
from hooks.client import client
from hooks.client.control import stop
from memory.service import MemoryService
from vault.layout import Vault

REAL = Path(__file__).resolve().parents[2] / "fixtures" / "claude_code" / "compacted_auto.jsonl"
BOUNDARY = 142708  # the byte where the real transcript's compact_boundary line starts
SESSION = "11e0ffc8-478f-49ff-85f1-cbed25472804"
PREFERENCE = "let's always use pytest fixtures instead of setUp/tearDown in this codebase."


def claude_home(tmp_path: Path) -> tuple[Path, dict[str, str]]:
    folder = tmp_path / "claude" / "projects" / "-tmp-ccprobe-runs-p6auto-proj"
    folder.mkdir(parents=True)
    return folder, {"CLAUDE_CONFIG_DIR": str(tmp_path / "claude")}


def test_the_real_clis_compaction_is_found_once() -> None:
    found, offset, _ = read_compactions(REAL)
    assert offset == REAL.stat().st_size
    [event] = found  # the summary line belongs to the boundary: one compaction
    assert (event.how, event.trigger, event.session) == ("boundary", "auto", SESSION)
    assert (event.pre_tokens, event.post_tokens, event.offset) == (990013, 2547, BOUNDARY)
    assert event.time == "2026-12-01T14:52:41.943Z"
    assert event.cwd == "/tmp/ccprobe/runs/p6auto/proj"
    assert event.drop_percent == 99.7


def test_a_summary_alone_counts_and_a_scan_may_stop_between_the_two_lines(tmp_path) -> None:
    lines = REAL.read_bytes().splitlines(keepends=True)
    older = tmp_path / "older.jsonl"
    older.write_bytes(b"".join(lines[:27] + lines[28:]))  # an older CLI: no boundary line
    [summary] = read_compactions(older)[0]
    assert summary.how == "summary"
    first, offset, seen = read_compactions(REAL, 0)
    split = tmp_path / "split.jsonl"
    split.write_bytes(b"".join(lines[:28]))
    part, offset, seen = read_compactions(split)
    split.write_bytes(REAL.read_bytes())
    rest, _, _ = read_compactions(split, offset, seen)
    assert [e.how for e in part] == ["boundary"]
    assert rest == []


@pytest.mark.model
def test_a_live_transcript_is_recorded_once_when_the_compaction_lands(
    service: MemoryService, tmp_path: Path
) -> None:
    folder, env = claude_home(tmp_path)
    live = folder / f"{SESSION}.jsonl"
    data = REAL.read_bytes()
    live.write_bytes(data[:BOUNDARY])
    assert scan(service, env, catch_up=False).events == []
    with live.open("ab") as handle:
        handle.write(data[BOUNDARY:])
    [event] = scan(service, env, catch_up=False).events
    assert (event["how"], event["session"], event["trigger"]) == ("boundary", SESSION, "auto")
    assert event["project"] == "/tmp/ccprobe/runs/p6auto/proj"  # no repository there
    assert scan(service, env).events == []  # recorded once
    assert stats(service)["by_trigger"] == {"auto": 1}


def transcript_line(kind: str, number: int, **fields: object) -> str:
    envelope = {"type": kind, "uuid": f"u-{number}", "sessionId": "s-catch", "cwd": "/nowhere",
                "timestamp": "2027-01-26T10:00:00Z", "isSidechain": False}  # fmt: skip
    return json.dumps({**envelope, **fields}) + "\n"


@pytest.mark.model
def test_capture_catches_up_on_what_a_compaction_dropped(
    service: MemoryService, tmp_path: Path
) -> None:
    folder, env = claude_home(tmp_path)
    path = folder / "s-catch.jsonl"
    boundary = json.loads(REAL.read_bytes()[BOUNDARY:].split(b"\n", 1)[0])
    before = transcript_line("user", 1, message={"role": "user", "content": PREFERENCE})
    compacted = json.dumps({**boundary, "sessionId": "s-catch", "cwd": "/nowhere"}) + "\n"
    path.write_text(before + compacted)
    [event] = scan(service, env).events
    assert event["capture_behind"] is True
    assert event["captured"] == 1
    [memory] = service.vault.memories_dir.glob("*.md")
    assert "pytest fixtures" in memory.read_text()
    assert cursor_offset(service, path) == path.stat().st_size
    assert events(service)[0]["captured"] == 1  # the log says so too
    with path.open("a") as handle:  # a second compaction, capture already up to date
        handle.write(compacted.replace(boundary["uuid"], "second-boundary"))
    [second] = scan(service, env).events
    assert second["capture_behind"] is False
    assert "captured" not in second


@pytest.mark.model
def test_a_format_it_cannot_read_is_caught_by_a_size_drop(service, tmp_path) -> None:
    path = tmp_path / "other-format.log"
    path.write_text("x" * 10_000)
    assert scan_file(service, path, catch_up=False) == []
    path.write_text("x" * 9_000)  # a 10 % shrink is no compaction
    assert scan_file(service, path, catch_up=False) == []
    path.write_text("x" * 4_000)
    [event] = scan_file(service, path, catch_up=False)
    assert (event["how"], event["size_before"], event["size_after"]) == ("size-drop", 9000, 4000)
    assert event["drop_percent"] == 55.6


def vault_cli(*args: str, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "hooks.cli", *args], capture_output=True,
                          text=True, env={**os.environ, **env}, timeout=120)  # fmt: skip


def test_the_cli_scans_logs_and_counts(vault: Vault, tmp_path: Path) -> None:
    folder, env = claude_home(tmp_path)
    (folder / f"{SESSION}.jsonl").write_bytes(REAL.read_bytes())
    scanned = vault_cli("compaction", "--scan", "--no-capture", "--json", env=env)
    assert scanned.returncode == 0, scanned.stderr
    assert [e["pre_tokens"] for e in json.loads(scanned.stdout)["events"]] == [990013]
    logged = vault_cli("compaction", "--log", env=env)
    assert "auto" in logged.stdout
    assert "990013 -> 2547 tokens (-99.7%)" in logged.stdout
    counted = json.loads(vault_cli("compaction", "--stats", "--json", env=env).stdout)
    assert counted["events"] == 1
    assert counted["sessions"] == 1


def test_the_cli_watches_a_transcript_grow(vault: Vault, tmp_path: Path) -> None:
    folder, env = claude_home(tmp_path)
    live = folder / f"{SESSION}.jsonl"
    data = REAL.read_bytes()
    live.write_bytes(data[:BOUNDARY])
    command = [sys.executable, "-m", "hooks.cli", "compaction", "--watch", "--interval", "0.2",
               "--for", "60", "--json", "--no-capture"]  # fmt: skip
    with subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                          env={**os.environ, **env}) as watcher:  # fmt: skip
        try:
            assert watcher.stderr is not None
            assert "Watching" in watcher.stderr.readline()
            with live.open("ab") as handle:
                handle.write(data[BOUNDARY:])
            assert watcher.stdout is not None
            event = json.loads(watcher.stdout.readline())  # blocks until the watcher prints
        finally:
            watcher.terminate()
    assert (event["how"], event["pre_tokens"]) == ("boundary", 990013)


@pytest.fixture
def daemon_watching(vault: Vault, tmp_path: Path) -> Iterator[tuple[Path, Path]]:
    folder, env = claude_home(tmp_path)
    env |= {"VAULT_COMPACTION_WATCH": "true", "VAULT_COMPACTION_POLL_SECONDS": "0.2"}
    process = subprocess.Popen([sys.executable, "-m", "hooks.cli", "serve"],
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                               env={**os.environ, **env})  # fmt: skip
    assert client.wait_until_up(vault.root, 120) is not None
    yield folder, vault.state_dir / "compaction.json"
    stop(vault)
    process.wait(timeout=30)


@pytest.mark.model
def test_the_daemon_watches_when_the_setting_says_so(daemon_watching) -> None:
    folder, log = daemon_watching
    (folder / f"{SESSION}.jsonl").write_bytes(REAL.read_bytes())
    deadline = time.monotonic() + 60  # a real file event: bounded polling
    while time.monotonic() < deadline:
        if log.exists() and json.loads(log.read_text()).get("events"):
            break
        time.sleep(0.1)
    [event] = json.loads(log.read_text())["events"]
    assert (event["how"], event["session"]) == ("boundary", SESSION)
