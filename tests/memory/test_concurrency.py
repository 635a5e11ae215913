"""Real concurrent processes updating one memory: no lost reinforcement."""

from __future__ import annotations

import subprocess
import sys
import textwrap

from vault.layout import Vault
from vault.store import MemoryStore

WORKER = textwrap.dedent(
    """
    import os, sys
    from memory.service import MemoryService
    from vault.config import load_settings
    from vault.layout import Vault
    from pathlib import Path
    vault = Vault(Path(sys.argv[1]))
    service = MemoryService(vault, load_settings(vault.config_path, {}), embed_on_write=False)
    for _ in range(50):
        service.reinforce(sys.argv[2])
    """
)


def test_eight_processes_reinforcing_fifty_times_each_lose_nothing(vault: Vault) -> None:
    path = vault.memories_dir / "shared.md"
    path.write_text(
        "---\nid: shared\ntier: semantic\nstability: 90.0\nrecalls: 0\nmine: keep me\n---\n"
        "A memory everybody reinforces.\n"
    )
    workers = [
        subprocess.Popen([sys.executable, "-c", WORKER, str(vault.root), "shared"])
        for _ in range(8)
    ]
    assert [w.wait(timeout=240) for w in workers] == [0] * 8
    record = MemoryStore(vault).read("shared")
    assert record.recalls == 400
    assert record.stability == 900.0
    assert record.extra == {"mine": "keep me"}
    assert record.body == "A memory everybody reinforces.\n"
