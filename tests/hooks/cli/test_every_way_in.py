"""Every way a memory enters gets links and a topic without a sweep: CLI jots with
no daemon, a file dropped in by hand and picked up by the daemon's watcher, and
files indexed for the first time by `vault reindex --full`."""

from __future__ import annotations

import time

import pytest
from click.testing import CliRunner

from hooks.cli.main import main
from indexer.embedder import Embedder
from tests.hooks.daemon.test_daemon import serve, stop
from vault.layout import Vault
from vault.links import link_targets
from vault.store import MemoryStore

pytestmark = pytest.mark.model
LABELS = (
    ("testing", "Run the pytest suite with -x to stop at the first failing test."),
    ("testing", "Fixtures for the test database go in conftest.py, shared by every test module."),
    ("database", "Postgres connections are pooled by PgBouncer in transaction mode."),
)
RELATED = (
    "Use pytest fixtures instead of unittest setUp/tearDown in this codebase; sharing "
    "setup across test files was painful with TestCase classes.",
    "Shared test fixtures live in tests/conftest.py so every test module can request "
    "the temporary database without importing helpers.",
    "A session-scoped pytest fixture loads the embedding model once; per-test loading "
    "made the suite take twelve minutes.",
)
DROPPED = "Parametrize a pytest test instead of copying it; fixtures supply each input.\n"


def vault_cli(*args: str) -> str:
    result = CliRunner().invoke(main, list(args))
    assert result.exit_code == 0, result.output
    return result.stdout.strip()


def linked_and_filed(vault: Vault, memory_id: str) -> tuple[bool, str]:
    record = MemoryStore(vault).read(memory_id)
    return bool(link_targets(record.links)), record.topic


@pytest.fixture
def labelled(vault: Vault, embedder: Embedder) -> Vault:
    for topic, text in LABELS:
        vault_cli("jot", text, "--topic", topic)
    return vault


def test_cli_jots_without_a_daemon_are_linked_and_filed_at_once(labelled: Vault) -> None:
    ids = [vault_cli("jot", text) for text in RELATED]
    for memory_id in ids:
        assert linked_and_filed(labelled, memory_id) == (True, "testing"), memory_id


def test_files_a_full_reindex_meets_first_are_linked_and_filed(labelled: Vault) -> None:
    for n, text in enumerate(RELATED):
        (labelled.memories_dir / f"by-hand-{n}.md").write_text(text + "\n")
    assert vault_cli("reindex", "--full").startswith("Rebuilt: 6 added")
    for n in range(len(RELATED)):
        assert linked_and_filed(labelled, f"by-hand-{n}") == (True, "testing")


def test_a_file_dropped_in_is_linked_and_filed_by_the_daemons_watcher(labelled: Vault) -> None:
    vault_cli("jot", RELATED[0])
    process = serve(labelled)
    try:
        from hooks.client import client

        assert client.wait_until_up(labelled.root, 300) is not None
        (labelled.memories_dir / "dropped.md").write_text(DROPPED)
        deadline = time.monotonic() + 60  # a real file event: bounded polling
        while time.monotonic() < deadline:
            if "links:" in (labelled.memories_dir / "dropped.md").read_text():
                break
            time.sleep(0.1)
        assert linked_and_filed(labelled, "dropped") == (True, "testing")
    finally:
        stop(labelled, process)
