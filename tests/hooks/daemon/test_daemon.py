"""The warm daemon and the hook fast path: real processes, sockets and files."""

from __future__ import annotations

import json
import os
import shutil
import signal
import stat
import subprocess
import sys
import textwrap
from collections.abc import Iterator
from pathlib import Path

import pytest

from hooks.client import client
from hooks.client.protocol import pid_path, socket_path
from indexer.embedder import Embedder
from indexer.index import VaultIndex
from memory.service import MemoryService
from tests.conftest import FakeClock
from vault.config import load_settings
from vault.layout import Vault
from vault.store import MemoryStore

pytestmark = pytest.mark.model
STORY = (
    "let's always use pytest fixtures instead of setUp/tearDown for this codebase — tried "
    "unittest style on a past project and sharing fixtures across test files was a pain."
)
QUESTION = "should I use TestCase.setUp() here or something else?"
WORKERS = "billing search email thumbnail export import audit payroll".split()
FILLER = [
    f"Runbook {i}: restart the {w} worker when its queue stalls." for i, w in enumerate(WORKERS)
]
TOPICS = "invoices latency dashboards onboarding retention pricing backups tracing alerts".split()
BACKGROUND = [
    f"Team note: review {topic} with the {group} group on Thursdays."
    for topic in TOPICS
    for group in ("design", "platform", "data")
]


def serve(vault: Vault, *extra: str) -> subprocess.Popen[bytes]:
    return subprocess.Popen(
        [sys.executable, "-m", "hooks.cli", "--vault", str(vault.root), "serve", *extra],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )  # fmt: skip


def hook(vault: Vault, payload: object, **env: str) -> subprocess.CompletedProcess[str]:
    data = payload if isinstance(payload, str) else json.dumps(payload)
    merged = {**os.environ, "VAULT_HOME": str(vault.root), **env}
    return subprocess.run(
        [sys.executable, "-m", "hooks.claude_code.entry", "user-prompt-submit"],
        input=data, capture_output=True, text=True, env=merged, timeout=60,
    )  # fmt: skip


def stop(vault: Vault, process: subprocess.Popen[bytes] | None = None) -> None:
    from hooks.client.control import stop as stop_daemon

    stop_daemon(Vault(vault.root))
    if process is not None:
        process.wait(timeout=30)


@pytest.fixture(scope="module")
def seeded_once(tmp_path_factory: pytest.TempPathFactory, embedder: Embedder) -> Vault:
    """The story among 35 other memories, jotted (embedded, linked) once per module."""
    vault = Vault(tmp_path_factory.mktemp("seeded") / "vault")
    MemoryService.init_vault(vault)
    settings = load_settings(vault.config_path, {})
    index = VaultIndex(vault, settings, embedder=embedder)
    service = MemoryService(vault, settings, clock=FakeClock(), index=index)
    service.jot(STORY, project="github.com/acme/project-a")
    for text in FILLER + BACKGROUND:
        service.jot(text)
    index.close()
    return vault


@pytest.fixture
def seeded(vault: Vault, seeded_once: Vault) -> Vault:
    """A copy of `seeded_once` of this test's own (files, catalog and vectors)."""
    shutil.rmtree(vault.root)
    shutil.copytree(seeded_once.root, vault.root)
    return vault


@pytest.fixture
def running(seeded: Vault) -> Iterator[Vault]:
    process = serve(seeded)
    assert client.wait_until_up(seeded.root, 120) is not None
    yield seeded
    stop(seeded, process)


def test_socket_is_private_and_only_one_daemon_serves_a_vault(running: Vault) -> None:
    path = socket_path(running.root)
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert stat.S_IMODE(path.parent.stat().st_mode) == 0o700
    first = client.ping(running.root)
    second = serve(running)
    assert second.wait(timeout=60) == 0  # saw the lock, left quietly
    assert client.ping(running.root)["pid"] == first["pid"]  # type: ignore[index]


def test_hook_through_warm_daemon_injects_the_hedged_story(running: Vault) -> None:
    event = {"hook_event_name": "UserPromptSubmit", "prompt": QUESTION, "cwd": "/nowhere"}
    result = hook(running, event, VAULT_NOW="2026-01-20T09:00:00Z")
    assert result.returncode == 0
    output = json.loads(result.stdout)["hookSpecificOutput"]
    assert output["hookEventName"] == "UserPromptSubmit"
    assert "Might be related" in output["additionalContext"]
    assert "pytest fixtures" in output["additionalContext"]
    assert len(output["additionalContext"]) <= 2000


def test_fast_path_imports_only_the_standard_library(running: Vault) -> None:
    code = textwrap.dedent(
        """
        import io, json, sys
        before = {m.split(".")[0] for m in sys.modules}
        sys.stdin = io.StringIO(json.dumps({"prompt": sys.argv[1]}))
        from hooks.claude_code import entry
        entry.main(["user-prompt-submit"])
        ours = {"hooks", "memory", "vault", "indexer"}
        loaded = {m.split(".")[0] for m in sys.modules} - before
        print(sorted(loaded - set(sys.stdlib_module_names) - ours), file=sys.stderr)
        """
    )
    env = {**os.environ, "VAULT_HOME": str(running.root), "VAULT_NOW": "2026-01-20T09:00:00Z"}
    result = subprocess.run([sys.executable, "-c", code, QUESTION], capture_output=True,
                            text=True, env=env, timeout=60)  # fmt: skip
    assert "pytest fixtures" in result.stdout
    assert result.stderr.strip().splitlines()[-1] == "[]"


def test_warm_fast_path_skips_the_slow_standard_modules(running: Vault) -> None:
    """json, socket, pathlib, typing and collections cost ~20 ms of start-up here; the warm
    path hands the raw event to the daemon and prints its answer without them."""
    code = textwrap.dedent(
        """
        import sys
        from hooks.claude_code import entry
        entry.main(["user-prompt-submit"])
        slow = ("json", "socket", "pathlib", "typing", "enum", "re", "collections")
        print(sorted(m for m in slow if m in sys.modules), file=sys.stderr)
        """
    )
    env = {**os.environ, "VAULT_HOME": str(running.root), "VAULT_NOW": "2026-01-20T09:00:00Z"}
    event = json.dumps({"prompt": QUESTION, "session_id": "s1", "cwd": "/nowhere"})
    result = subprocess.run([sys.executable, "-S", "-c", code], input=event, capture_output=True,
                            text=True, env={**env, "PYTHONPATH": os.pathsep.join(sys.path)},
                            timeout=60)  # fmt: skip
    assert "pytest fixtures" in json.loads(result.stdout)["hookSpecificOutput"]["additionalContext"]
    assert result.stderr.strip().splitlines()[-1] == "[]"


def test_cli_uses_the_daemon_when_one_runs(running: Vault) -> None:
    before = client.ping(running.root)["requests"]  # type: ignore[index]
    result = subprocess.run(
        [sys.executable, "-m", "hooks.cli", "--vault", str(running.root), "recall", "queue stalls",
         "--json", "--no-reinforce", "--now", "2026-01-02"],
        capture_output=True, text=True, timeout=60,
    )  # fmt: skip
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout)
    assert client.ping(running.root)["requests"] == before + 1  # type: ignore[index]


def test_eight_processes_twenty_five_recalls_lose_no_reinforcement(running: Vault) -> None:
    worker = textwrap.dedent(
        """
        import sys
        from pathlib import Path
        from hooks.client import client
        root = Path(sys.argv[1])
        for _ in range(25):
            args = {"query": "restart the billing worker queue", "limit": 1,
                    "now": "2026-01-02T09:00:00Z"}
            hits = client.request(root, "recall", args, timeout=60)
            assert len(hits) == 1, hits
        """
    )
    workers = [subprocess.Popen([sys.executable, "-c", worker, str(running.root)])
               for _ in range(8)]  # fmt: skip
    assert [w.wait(timeout=300) for w in workers] == [0] * 8
    client.request(running.root, "status", {}, timeout=120)  # after the last reinforcement
    billing = next(p for p in running.memories_dir.glob("*.md") if "billing" in p.name)
    assert MemoryStore(running).read_path(billing).recalls == 200


def test_past_the_cold_budget_the_hook_answers_from_keywords_and_starts_one(
    seeded: Vault,
) -> None:
    event = {"prompt": "the thumbnail worker queue stalls again, restart it?"}
    try:
        # how fast is benchmarks/hook_bench.py's business ("past the cold budget")
        result = hook(
            seeded, event, VAULT_NOW="2026-01-02T09:00:00Z", VAULT_HOOK_COLD_WAIT_SECONDS="0"
        )
        assert result.returncode == 0
        context = json.loads(result.stdout)["hookSpecificOutput"]["additionalContext"]
        assert "thumbnail worker" in context
        assert client.wait_until_up(seeded.root, 120) is not None
    finally:
        stop(seeded)


def test_killed_daemon_is_restarted_and_stale_files_do_not_block(running: Vault) -> None:
    pid = client.ping(running.root)["pid"]  # type: ignore[index]
    os.kill(pid, signal.SIGKILL)
    os.waitpid(pid, 0)  # the test started it, so the test reaps it
    pid_path(running.root).write_text("999999\n")  # stale pid; the socket file stays too
    client.starting_path_clear(running.root)
    assert hook(running, {"prompt": "billing worker"}).returncode == 0
    answer = client.wait_until_up(running.root, 120)
    assert answer is not None
    assert answer["pid"] != pid


def test_idle_daemon_exits_by_itself(seeded: Vault) -> None:
    process = serve(seeded, "--idle", "1")
    assert process.wait(timeout=120) == 0
    assert not pid_path(seeded.root).exists()
    assert not socket_path(seeded.root).exists()


@pytest.mark.parametrize(
    "payload", ["", "not json", "[]", "{}", '{"prompt": 42}', '{"prompt": ""}', "\x00\xff"]
)
def test_bad_input_exits_zero_silently(vault: Vault, payload: str) -> None:
    result = hook(vault, payload)
    assert (result.returncode, result.stdout) == (0, "")


def test_hooks_do_nothing_inside_our_own_claude_child(vault: Vault) -> None:
    result = hook(vault, {"prompt": QUESTION}, MEMORY_VAULT_CHILD="1")
    assert (result.returncode, result.stdout, result.stderr) == (0, "", "")


def test_unknown_events_and_missing_vault_exit_zero(tmp_path: Path) -> None:
    result = subprocess.run([sys.executable, "-m", "hooks.claude_code.entry", "no-such-event"],
                            input="{}", capture_output=True, text=True)  # fmt: skip
    assert (result.returncode, result.stdout) == (0, "")
    missing = hook(Vault(tmp_path / "nothing"), {"prompt": "hello"})
    assert (missing.returncode, missing.stdout) == (0, "")


def test_ping_is_answered_while_work_holds_the_daemon(vault: Vault) -> None:
    import socket as socket_module
    import threading

    from hooks.client.protocol import encode
    from hooks.daemon.server import Daemon
    from vault.config import load_settings

    daemon = Daemon(vault, load_settings(vault.config_path, {}))
    ours, theirs = socket_module.socketpair()
    with daemon._work:  # a long capture or sweep step is running
        worker = threading.Thread(target=daemon._handle, args=(theirs,))
        worker.start()
        ours.sendall(encode({"op": "ping"}))
        ours.settimeout(5)
        reply = json.loads(ours.recv(65536))
        worker.join(timeout=5)
    assert reply["ok"]
    assert reply["result"]["pid"] == os.getpid()
    ours.close()
    daemon.service.index.close()
