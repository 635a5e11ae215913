"""The wheel as a user installs it: `uv tool install` (a fresh virtual environment,
nothing of the checkout on sys.path, commands run from a temp folder), then the
real-CLI story: init, jot, recall, capture a transcript, consolidate, the daemon,
the hooks, the MCP server, `vault install` and `vault doctor`; and an upgrade, whose
next SessionStart replaces the daemon the older install left running."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from mcp import Client, StdioServerParameters

from tests.claude_code.machine import CLAUDE, wait_for
from tests.claude_code.story import STORY
from tests.packaging.artifacts import ROOT
from tests.packaging.conftest import Person

pytestmark = [pytest.mark.slow, pytest.mark.model, pytest.mark.timeout(900)]
DECISION = "We decided to keep billing amounts as integer cents, never floats."


def tool_python(person: Person) -> Path:
    return person.bin_dir.parent / "tools" / "memory-vault" / "bin" / "python"


def transcript(person: Person) -> Path:
    """A Claude Code transcript (where Claude Code writes them) with one decision."""
    folder = person.base / "home" / ".claude" / "projects" / "-code-billing"
    folder.mkdir(parents=True, exist_ok=True)
    lines = [{"type": "user", "uuid": f"u{i}", "parentUuid": None, "sessionId": "s-billing",
              "cwd": str(person.base / "code" / "billing"), "timestamp": f"2026-01-0{i}T09:00:00Z",
              "message": {"role": "user", "content": text}}
             for i, text in enumerate([DECISION, "thanks"], start=1)]  # fmt: skip
    path = folder / "s-billing.jsonl"
    path.write_text("".join(json.dumps(line) + "\n" for line in lines))
    return path


def test_the_installed_package_is_the_wheel_with_the_cpu_torch(uv_person: Person) -> None:
    version = uv_person.run("vault", "--version")
    assert version.returncode == 0, version.stderr
    assert version.stdout.strip().endswith("0.2.0")
    probe = ("import hooks, sys, torch, importlib.metadata as m; print(hooks.__file__); "
             "print(torch.__version__, torch.version.cuda); "
             "print(sorted(d.metadata['Name'] for d in m.distributions()))")  # fmt: skip
    found = uv_person.run(str(tool_python(uv_person)), "-c", probe)
    where, torch, names = found.stdout.splitlines()
    assert str(ROOT) not in where
    assert "site-packages" in where
    assert torch.endswith("None")  # no CUDA in this build
    assert not [name for name in json.loads(names.replace("'", '"'))
                if re.match(r"nvidia|triton", name, re.IGNORECASE)]  # fmt: skip


def test_the_story_through_the_installed_cli(uv_person: Person) -> None:
    person = uv_person
    assert person.run("vault", "init").returncode == 0
    jot = person.run("vault", "jot", STORY, "--kind", "preference")
    assert jot.returncode == 0, jot.stderr
    recall = person.run("vault", "recall", "how do we share test fixtures?", "--json")
    assert recall.returncode == 0, recall.stderr
    assert "pytest fixtures" in recall.stdout
    captured = person.run("vault", "capture", "--transcript", str(transcript(person)))
    assert captured.returncode == 0, captured.stderr
    listed = person.run("vault", "list", "--json")
    assert "integer cents" in listed.stdout
    consolidated = person.run("vault", "consolidate", "--dry-run")
    assert consolidated.returncode == 0, consolidated.stderr


def test_the_daemon_and_the_hooks(uv_person: Person) -> None:
    person = uv_person
    started = person.run("vault", "daemon", "start", "--json")
    assert started.returncode == 0, started.stderr
    assert json.loads(started.stdout)["version"] == "0.2.0"
    prompt = "should these tests use pytest fixtures or setUp/tearDown?"
    event = {"hook_event_name": "UserPromptSubmit", "prompt": prompt, "session_id": "s-2",
             "cwd": str(person.base / "tmp"), "transcript_path": ""}  # fmt: skip
    hook = person.run("vault-hook", "user-prompt-submit", stdin=json.dumps(event))
    assert hook.returncode == 0, hook.stderr
    assert "pytest fixtures" in json.loads(hook.stdout)["hookSpecificOutput"]["additionalContext"]
    start = {"hook_event_name": "SessionStart", "source": "startup", "session_id": "s-3",
             "cwd": str(person.base / "tmp")}  # fmt: skip
    briefing = person.run("vault-hook", "session-start", stdin=json.dumps(start))
    assert (briefing.returncode, briefing.stderr) == (0, "")


@pytest.mark.anyio
@pytest.mark.parametrize("anyio_backend", ["asyncio"])
async def test_one_real_mcp_call(uv_person: Person) -> None:
    server = StdioServerParameters(command=str(uv_person.bin_dir / "vault"), args=["mcp"],
                                   env=uv_person.env(), cwd=uv_person.base / "tmp")  # fmt: skip
    async with Client(server) as client:
        result = await client.call_tool("recall", {"query": "how are billing amounts stored?"})
    assert not result.is_error, result.content
    assert "integer cents" in json.dumps(result.structured_content)


@pytest.mark.skipif(CLAUDE is None, reason="needs the pinned Claude Code CLI (`make tools`)")
def test_vault_install_then_doctor_finds_everything_healthy(uv_person: Person) -> None:
    installed = uv_person.run("vault", "install")
    assert installed.returncode == 0, installed.stderr
    doctor = uv_person.run("vault", "doctor")
    assert doctor.returncode == 0, doctor.stdout + doctor.stderr
    lines = doctor.stdout.splitlines()
    assert [line for line in lines if not line.startswith("ok")] == [], doctor.stdout
    names = {line.split()[1] for line in lines}
    assert {"package", "model", "hooks", "mcp", "index", "daemon", "perms"} <= names


def test_an_upgrade_replaces_the_running_daemon_at_the_next_session(uv_person: Person) -> None:
    """pip, uv and pipx replace the dist-info folder on an upgrade: done here by hand
    (to 0.2.1) while the 0.2.0 daemon runs; the next SessionStart restarts it."""
    person = uv_person
    [meta] = tool_python(person).parent.parent.glob("lib/python*/site-packages/memory_vault-*")
    newer = meta.with_name("memory_vault-0.2.1.dist-info")
    text = (meta / "METADATA").read_text()
    meta.rename(newer)
    (newer / "METADATA").write_text(text.replace("Version: 0.2.0", "Version: 0.2.1", 1))
    try:
        before = json.loads(person.run("vault", "daemon", "status", "--json").stdout)
        assert before["version"] == "0.2.0"
        start = {"hook_event_name": "SessionStart", "source": "startup", "session_id": "s-4",
                 "cwd": str(person.base / "tmp")}  # fmt: skip
        assert person.run("vault-hook", "session-start", stdin=json.dumps(start)).returncode == 0
        wait_for(lambda: not Path(f"/proc/{before['pid']}").exists(), timeout=10)  # the hook
        after = person.run("vault", "daemon", "start", "--json")
        assert json.loads(after.stdout)["version"] == "0.2.1"
        assert json.loads(after.stdout)["pid"] != before["pid"]
    finally:
        person.run("vault", "daemon", "stop")
        (newer / "METADATA").write_text(text)
        newer.rename(meta)
