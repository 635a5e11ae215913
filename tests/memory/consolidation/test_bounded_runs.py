"""Automatic consolidation is bounded and visible (issue 24): a run over 800
near-identical "batch job N" lines (and real duplicates beyond the bound)
retires at most the bound, the rest waits on the review list that `vault
consolidate --review` applies or drops and the next briefing mentions once; a
`vault consolidate` killed midway (SIGKILL) is undone without --force."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from datetime import timedelta
from typing import Any

import pytest
from click.testing import CliRunner

from hooks.cli.main import main
from memory.consolidation.journal import load_run
from memory.consolidation.run import consolidate_if_due
from memory.service import MemoryService
from tests.conftest import T0, FakeClock, ServiceFactory
from vault.clock import format_time
from vault.layout import Vault
from vault.store import MemoryStore

pytestmark = pytest.mark.model
SERVICES = (
    "billing invoice payment customer report export import audit search mail queue cache "
    "session token upload archive metric alert schedule webhook ledger refund coupon tax "
    "shipping catalog pricing review rating inventory"
).split()


def write(vault: Vault, texts: list[str], first: int = 0, days: int = 0) -> None:
    store = MemoryStore(vault)
    created = T0 + timedelta(days=days)
    for n, text in enumerate(texts, first):
        memory_id = f"m{n:04d}"
        meta = {"id": memory_id, "created": created, "last_access": T0, "stability": 7.0,
                "tier": "episodic", "kind": "fact", "topic": "", "tags": [],
                "project": "github.com/acme/lake", "source": "jot", "recalls": 0,
                "confirmations": 0, "salience": 1.0, "links": []}  # fmt: skip
        store.create(memory_id, meta, text + "\n")


def duplicates(names: list[str]) -> list[str]:
    """Two near-identical statements per service: each pair merges (2 retired)."""
    return [f"The {name} service writes its logs to stdout as JSON{tail}."
            for name in names for tail in ("", " lines")]  # fmt: skip


def files(vault: Vault) -> dict[str, bytes]:
    return {vault.relative(p): p.read_bytes() for p in vault.memory_files()}


def test_an_automatic_run_retires_at_most_the_bound_and_the_rest_waits_for_review(
    make_service: ServiceFactory, clock: FakeClock
) -> None:
    # merges may run unattended here (off by default: test_unattended_by_precision.py)
    service = make_service(VAULT_AUTO_MERGE="true")
    batch = [f"Batch job {n} writes parquet files to the data lake." for n in range(800)]
    write(service.vault, batch + duplicates(SERVICES))
    service.sync()
    clock.advance(days=1)
    report = consolidate_if_due(service)
    assert report is not None
    archived = list(service.vault.archive_dir.glob("*.md"))
    assert 0 < len(archived) <= 20  # auto_retire_limit (and 3% of 860 memories)
    batch_left = [
        p for p in service.vault.memories_dir.glob("*.md") if "Batch job" in p.read_text()
    ]
    assert len(batch_left) == 800  # every job is its own subject

    from hooks.claude_code.session import briefing
    from memory.consolidation.review import pending

    waiting = pending(service.vault)
    assert len(waiting) == len(SERVICES) - len(archived) // 2
    environ = {"VAULT_NOW": format_time(clock())}
    assert "left 20 change(s) for review" in briefing(service.vault.root, None, environ)
    assert "for review" not in briefing(service.vault.root, None, environ)  # once

    runner = CliRunner()
    listed = runner.invoke(main, ["consolidate", "--review"])
    assert listed.exit_code == 0, listed.stderr
    assert listed.stdout.startswith("  1. merge ")
    applied = runner.invoke(main, ["consolidate", "--review", "--apply", "1"])
    assert applied.exit_code == 0, applied.stderr
    assert applied.stdout.startswith("Did: supersede 0, merge 1")
    dropped = runner.invoke(main, ["consolidate", "--review", "--drop", "all"])
    assert dropped.stdout == f"Dropped {len(waiting) - 1} from the review list.\n"
    runs = runner.invoke(main, ["consolidate", "--list"]).stdout.splitlines()
    assert [("automatic" in line, "by hand" in line) for line in runs] == [
        (False, True), (True, False)
    ]  # fmt: skip


def written_unrecorded(vault: Vault, journal: dict[str, Any]) -> bool:
    """A file the run changed in place that its saved journal has no hash for."""
    for entry in journal.get("files", []):
        path = vault.root / entry["path"]
        if entry.get("before") is None or entry.get("after_sha256") is not None:
            continue
        if path.is_file() and path.read_text() != entry["before"]:
            return True
    return False


def test_a_run_killed_midway_is_undone_without_force(service: MemoryService) -> None:
    """Killed right after it changed a file in place, or else after 40 actions."""
    names = [f"{a}{b}" for a in SERVICES for b in ("", "-v2", "-v3", "-v4", "-v5")]
    older = [f"The {name} service listens on port {8000 + n}." for n, name in enumerate(names)]
    newer = [f"The {name} service listens on port {9000 + n} now." for n, name in enumerate(names)]
    write(service.vault, older)
    write(service.vault, newer, first=len(older), days=10)
    service.sync()
    before = files(service.vault)
    env = {**os.environ, "VAULT_NOW": "2026-02-01T09:00:00Z", "HF_HUB_OFFLINE": "1"}
    command = [sys.executable, "-m", "hooks.cli", "--vault", str(service.vault.root),
               "consolidate"]  # fmt: skip
    process = subprocess.Popen(command, env=env, stdout=subprocess.DEVNULL,
                               stderr=subprocess.DEVNULL)  # fmt: skip
    runs = service.vault.state_dir / "consolidation"
    deadline = time.monotonic() + 300
    while time.monotonic() < deadline and process.poll() is None:
        journals = list(runs.glob("*.jsonl")) if runs.is_dir() else []
        journal = load_run(service.vault, journals[0].stem) if journals else {}
        if written_unrecorded(service.vault, journal) or len(journal.get("actions", [])) >= 40:
            break
        time.sleep(0.005)
    assert process.poll() is None, "the run ended before it could be killed"
    process.send_signal(signal.SIGKILL)
    process.wait(timeout=30)
    [journal_path] = runs.glob("*.jsonl")
    assert load_run(service.vault, journal_path.stem)["finished"] is None
    assert files(service.vault) != before

    undo = subprocess.run([*command, "--undo", journal_path.stem], env=env, capture_output=True,
                          text=True, timeout=300)  # fmt: skip
    assert undo.returncode == 0, undo.stderr
    assert files(service.vault) == before
