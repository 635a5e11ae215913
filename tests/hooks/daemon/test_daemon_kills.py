"""The daemon killed with SIGKILL in the middle of a `vault jot`: the jot is
written once (asked again, the request returns the memory already written),
and the next hook brings a daemon back, even when the kill came in its warm-up."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

from hooks.client import client
from hooks.client.control import stop
from vault.layout import Vault

pytestmark = pytest.mark.model
TEXT = "The billing export runs nightly at 02:00 against the replica."

# The real daemon, whose jot operation (after writing the memory) marks a file
# and hangs: the test kills it exactly between the write and the reply.
HANGING_DAEMON = textwrap.dedent(
    """
    import sys, time
    from pathlib import Path
    import hooks.ops.table as ops
    from hooks.daemon.__main__ import main

    written = Path(sys.argv[2])
    real_jot = ops.OPS["jot"]

    def jot_then_hang(service, args):
        reply = real_jot(service, args)
        written.touch()
        time.sleep(600)
        return reply

    ops.OPS["jot"] = jot_then_hang
    sys.exit(main(["--vault", sys.argv[1]]))
    """
)


def vault_jot(root: Path) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [sys.executable, "-m", "hooks.cli", "--vault", str(root), "jot", TEXT],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )


def wait_for(condition: object, what: str) -> None:
    deadline = time.monotonic() + 180  # real processes: bounded polling
    while not condition():  # type: ignore[operator]
        assert time.monotonic() < deadline, f"gave up waiting for {what}"
        time.sleep(0.05)


def memories_with(vault: Vault, text: str) -> list[str]:
    return [p.stem for p in vault.memories_dir.glob("*.md") if text in p.read_text()]


def test_a_jot_whose_daemon_died_after_writing_is_reported_once_not_failed(
    vault: Vault, tmp_path: Path
) -> None:
    written = tmp_path / "written"
    daemon = subprocess.Popen(
        [sys.executable, "-c", HANGING_DAEMON, str(vault.root), str(written)],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        assert client.wait_until_up(vault.root, 180) is not None
        jot = vault_jot(vault.root)
        wait_for(written.exists, "the daemon to write the memory")
        daemon.send_signal(signal.SIGKILL)
        daemon.wait(timeout=60)
        out, err = jot.communicate(timeout=300)
    finally:
        if daemon.poll() is None:
            daemon.kill()
            daemon.wait()
    assert jot.returncode == 0, err  # not "failed" while the memory was written
    assert memories_with(vault, TEXT) == [out.strip()]  # the one memory, not a second


def test_the_next_hook_brings_a_daemon_back_after_a_kill_in_its_warm_up(vault: Vault) -> None:
    root = vault.root
    spawn = "import os, sys; from pathlib import Path; from hooks.client import client; "
    spawn += "sys.exit(0 if client.spawn(Path(sys.argv[1]), os.environ) else 1)"
    subprocess.run([sys.executable, "-c", spawn, str(root)], check=True)  # as SessionStart does
    jot = vault_jot(root)  # in flight: it waits for the warm-up
    wait_for(lambda: client.ping(root) is not None, "the daemon's socket")
    pid = client.daemon_pid(root)
    assert pid is not None
    answer = client.ping(root)
    assert answer is not None
    assert answer["ready"] is False  # killed while warming up, a write waiting on it
    os.kill(pid, signal.SIGKILL)
    out, err = jot.communicate(timeout=300)
    assert jot.returncode == 0, err
    assert memories_with(vault, TEXT) == [out.strip()]
    assert not client.daemon_starting(root)  # its marker is left, but it is dead
    hook = subprocess.run(
        [sys.executable, "-m", "hooks.claude_code.entry", "user-prompt-submit"],
        input='{"prompt": "when does the billing export run?", "session_id": "s", "cwd": "/"}',
        capture_output=True,
        text=True,
        timeout=120,
        env={**os.environ, "VAULT_HOME": str(root), "VAULT_HOOK_COLD_WAIT_SECONDS": "1"},
    )
    assert hook.returncode == 0
    try:
        assert client.wait_until_up(root, 180) is not None  # the hook started one
    finally:
        stop(vault)
