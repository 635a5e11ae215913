"""One owner for index writes: with a daemon running, the CLI hands it every
write, and `vault reindex --full` is the daemon's own work. Real processes."""

from __future__ import annotations

import contextlib
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from benchmarks.safety_writers import catalog_meta, write_memories
from hooks.client import client
from indexer.embedder import Embedder
from indexer.index import VaultIndex
from tests.hooks.daemon.test_daemon import serve, stop
from vault.config import load_settings
from vault.layout import Vault

pytestmark = pytest.mark.model
TRANSCRIPT = Path(__file__).parents[2] / "fixtures" / "transcript_sample.jsonl"


def cli(vault: Vault, *args: str, **extra: object) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "hooks.cli", "--vault", str(vault.root), *args],
        capture_output=True, text=True, timeout=300, **extra,  # type: ignore[call-overload]
    )  # fmt: skip


def daemon_over(vault: Vault, embedder: Embedder, count: int) -> Iterator[Vault]:
    """A daemon over `count` indexed memories (links off: this is about the index)."""
    allowed = f"[capture]\ntranscripts_allowed = [{str(TRANSCRIPT.parent)!r}]\n"
    vault.config_path.write_text("[association]\nlinks_max = 0\n" + allowed)
    write_memories(vault, count)
    index = VaultIndex(vault, load_settings(vault.config_path, {}), embedder=embedder)
    index.sync()
    index.close()
    process = serve(vault)
    assert client.wait_until_up(vault.root, 300) is not None
    yield vault
    stop(vault, process)


@pytest.fixture
def running(vault: Vault, embedder: Embedder) -> Iterator[Vault]:
    yield from daemon_over(vault, embedder, 300)  # a rebuild that lasts a few seconds


@pytest.fixture
def small(vault: Vault, embedder: Embedder) -> Iterator[Vault]:
    yield from daemon_over(vault, embedder, 10)


def deleted_catalog_files(pid: int) -> list[str]:
    links = []
    for fd in Path(f"/proc/{pid}/fd").iterdir():
        try:
            links.append(os.readlink(fd))
        except FileNotFoundError:
            continue
    return [link for link in links if "meta.sqlite" in link and "(deleted)" in link]


def test_reindex_full_under_a_daemon_is_its_work_and_recall_keeps_answering(
    running: Vault,
) -> None:
    pid = client.ping(running.root)["pid"]  # type: ignore[index]
    rebuild = subprocess.Popen(
        [sys.executable, "-m", "hooks.cli", "--vault", str(running.root), "reindex", "--full"],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
    )  # fmt: skip
    during, answers = [], []
    args = {"query": "restart the payroll worker when its queue stalls", "reinforce": False,
            "now": "2026-01-02T09:00:00Z"}  # fmt: skip
    while rebuild.poll() is None:
        answers.append(client.request(running.root, "recall", args, timeout=120))
        during.append(rebuild.poll() is None)
        with contextlib.suppress(subprocess.TimeoutExpired):  # a person's pace
            rebuild.wait(timeout=0.25)
    out, err = rebuild.communicate()
    assert rebuild.returncode == 0, err
    assert "Rebuilt: 300 added" in out
    assert len(answers) >= 3  # recalls were answered while the rebuild ran
    assert all(answers), "a recall during the rebuild found nothing"
    # never held up for the whole rebuild: answers came back while it still ran
    # (its speed is benchmarks/reindex_bench.py's business, not a test's)
    assert sum(during) >= 2, during
    assert deleted_catalog_files(pid) == []
    assert catalog_meta(running, "rebuilds") == "1"
    stop(running)
    synced = cli(running, "reindex")  # the next process, without the daemon: nothing to do
    assert synced.returncode == 0, synced.stderr
    assert "Synced: 0 added, 0 re-embedded, 0 metadata-only, 0 moved, 0 removed" in synced.stdout
    assert synced.stderr == ""
    assert catalog_meta(running, "rebuilds") == "1"


def test_every_cli_write_goes_to_the_running_daemon(small: Vault) -> None:
    def requests() -> int:
        return int(client.ping(small.root)["requests"])  # type: ignore[index]

    before = requests()
    jotted = cli(small, "jot", "The audit export runs at 03:00 UTC every night.")
    assert jotted.returncode == 0, jotted.stderr
    memory_id = jotted.stdout.strip()
    note = small.root.parent / "decision.md"
    note.write_text("# Decision\n\nWe keep audit logs for 400 days.\n")
    commands = [
        ("reinforce", memory_id), ("confirm", memory_id), ("forget", memory_id),
        ("revive", memory_id), ("ingest", str(note), "--topic", "compliance"),
        ("prune", "--dry-run"), ("links", "--sweep"), ("topics", "--sweep"),
        ("capture", "--transcript", str(TRANSCRIPT)), ("reindex",),
        ("purge", memory_id, "--yes"),
    ]  # fmt: skip
    for command in commands:
        result = cli(small, *command)
        assert result.returncode == 0, (command, result.stderr)
    assert requests() == before + 1 + len(commands)
    assert not (small.memories_dir / f"{memory_id}.md").exists()
    assert catalog_meta(small, "rebuilds") is None  # no process rebuilt anything


def test_a_daemon_error_keeps_its_exit_code(small: Vault) -> None:
    missing = cli(small, "reinforce", "no-such-memory-0000")
    assert missing.returncode == 1
    assert "no memory with id" in missing.stderr
    (small.memories_dir / "broken.md").write_text("---\ntier: [x\n---\nbody\n")
    broken = cli(small, "confirm", "broken")
    assert broken.returncode == 3
    assert "fix the frontmatter by hand" in broken.stderr
