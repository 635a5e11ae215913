"""Writer and reader processes running `vault` commands at once, with the daemon
up (it owns every write) and down (each writer holds the index lock for its
write-and-publish): nothing is lost, catalog and vectors agree, nothing rebuilds."""

from __future__ import annotations

import subprocess
import sys
import textwrap

import pytest

from hooks.client import client
from indexer.embedder import Embedder
from indexer.index import VaultIndex
from tests.hooks.daemon.test_daemon import serve, stop
from tests.hooks.daemon.test_one_writer import catalog_meta, cli
from vault.config import load_settings
from vault.layout import Vault

pytestmark = pytest.mark.model
WRITERS, JOTS, READERS, RECALLS = 3, 4, 2, 4
# Each worker is one process running the CLI several times (the model, if this
# process needs it, loads once).
WORKER = textwrap.dedent(
    """
    import sys
    from hooks.cli.main import main
    vault, role, number, count = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
    def run(*args):
        main(["--vault", vault, *args], standalone_mode=False)
    if role == "writer":
        for i in range(count):
            run("jot", f"Writer {number} fact {i}: the {number}-{i} export lands in bucket {i}.")
        first = sorted(p.stem for p in __import__("pathlib").Path(vault, "memories").glob("*.md")
                       if f"writer-{number}-fact-0" in p.stem)[0]
        run("confirm", first)
    else:
        for i in range(count):
            run("recall", f"where does export {i} land?", "--json", "--no-reinforce")
    """
)


def texts() -> list[str]:
    return [
        f"Writer {w} fact {i}: the {w}-{i} export lands in bucket {i}."
        for w in range(WRITERS)
        for i in range(JOTS)
    ]


def run_workers(vault: Vault) -> None:
    workers = [
        subprocess.Popen(
            [sys.executable, "-c", WORKER, str(vault.root), role, str(n), str(count)],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
            text=True,
        )  # fmt: skip
        for role, number, count in [("writer", WRITERS, JOTS), ("reader", READERS, RECALLS)]
        for n in range(number)
    ]
    for worker in workers:
        _, err = worker.communicate(timeout=400)
        assert worker.returncode == 0, err


@pytest.mark.parametrize("daemon", ["up", "down"])
def test_concurrent_writers_and_readers_lose_nothing(
    vault: Vault, embedder: Embedder, daemon: str
) -> None:
    vault.config_path.write_text("[association]\nlinks_max = 2\n")
    process = serve(vault) if daemon == "up" else None
    if process is not None:
        assert client.wait_until_up(vault.root, 300) is not None
        before = client.ping(vault.root)["requests"]  # type: ignore[index]
    try:
        run_workers(vault)
        if process is not None:  # every command went to the daemon
            served = client.ping(vault.root)["requests"] - before  # type: ignore[index]
            assert served == WRITERS * (JOTS + 1) + READERS * RECALLS
    finally:
        if process is not None:
            stop(vault, process)
    checked = cli(vault, "reindex", "--check")
    assert checked.returncode == 0, checked.stderr
    assert checked.stdout.startswith(
        "Would change: 0 added, 0 re-embedded, 0 metadata-only, 0 moved, 0 removed"
    )
    assert checked.stderr == ""  # vectors and catalog of one generation agree
    assert catalog_meta(vault, "rebuilds") is None  # no process rebuilt the index
    index = VaultIndex(vault, load_settings(vault.config_path, {}), embedder=embedder)
    for text in texts():
        assert index.body(index.search(text, k=1)[0].row.id).strip() == text
    assert len(list(vault.memories_dir.glob("*.md"))) == WRITERS * JOTS
    index.close()


def test_a_jot_without_a_daemon_does_not_queue_behind_another_writer(vault: Vault) -> None:
    """Another process holds the index lock (a long write): `vault jot` writes its
    file and returns instead of waiting; whoever writes or reads next indexes it.
    No daemon is started for it."""
    from indexer.published import index_lock

    text = "The reports service moved to the eu-west-2 cluster in March."
    with index_lock(vault.index_dir / "index.lock"):  # held by "another writer"
        jot = subprocess.run(
            [sys.executable, "-m", "hooks.cli", "--vault", str(vault.root), "jot", text],
            capture_output=True,
            text=True,
            timeout=120,  # generous: without the fix it waits for the lock, past this
        )
    assert jot.returncode == 0, jot.stderr
    memory_id = jot.stdout.strip()
    assert (vault.memories_dir / f"{memory_id}.md").exists()
    assert client.daemon_pid(vault.root) is None
    found = cli(vault, "recall", "which cluster runs the reports service?", "--json")
    assert memory_id in found.stdout  # indexed by the next command
