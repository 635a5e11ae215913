"""A vault holding hostile files, through the real daemon's warm-up (a sync),
a link sweep, recall and confirm from CLI processes: files we must not change
stay byte-identical, a symlink's target is never read into the vault, nothing
crashes, and the usable odd files (BOM, CRLF, comments) keep their form."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from benchmarks.safety_checks import start_daemon, stop_daemon, vault_cli
from vault.layout import Vault

pytestmark = pytest.mark.model
BOM = "\ufeff".encode()
KEYS = "---\nid: keys\n# why this note exists\nmine: {a: 1}  # inline\n---\nKeys note body.\n"
LEFT_ALONE = {
    "huge.md": b"---\nid: huge\n---\n" + b"The export runbook. " * 524_288,  # 10 MB body
    "binary.md": bytes(range(256)) * 64,
    "yaml.md": b"---\nid: yaml\nstability: [7\n---\nThe export runbook has broken YAML.\n",
    "empty.md": b"",
}


def test_hostile_files_survive_the_daemon_the_sweeps_and_the_cli(
    vault: Vault, tmp_path: Path
) -> None:
    outside = tmp_path / "outside.txt"
    outside.write_text("root:x:0:0:a secret outside the vault about the export runbook\n")
    for name, data in LEFT_ALONE.items():
        (vault.memories_dir / name).write_bytes(data)
    (vault.memories_dir / "link.md").symlink_to(outside)
    (vault.memories_dir / "bom.md").write_bytes(BOM + b"---\nid: bom\n---\nExport runbook A.\n")
    (vault.memories_dir / "crlf.md").write_bytes(b"---\r\nid: crlf\r\n---\r\nExport runbook B.\r\n")
    (vault.memories_dir / "keys.md").write_text(KEYS)
    outside_before = outside.stat()
    daemon = start_daemon(vault.root)  # its warm-up reads and indexes the vault
    try:
        for command in (["recall", "export runbook", "--no-reinforce"], ["links", "--sweep"],
                        ["confirm", "bom"], ["confirm", "crlf"], ["confirm", "keys"]):  # fmt: skip
            result = vault_cli(vault.root, *command)
            assert result.returncode == 0, (command, result.stderr)
            assert "Traceback" not in result.stderr
        status = vault_cli(vault.root, "status")
        assert "memories/link.md: a symbolic link" in status.stdout  # reported
        assert "memories/yaml.md: YAML does not parse" in status.stdout
        for name in ("huge", "binary"):
            assert vault_cli(vault.root, "confirm", name).returncode == 3
    finally:
        stop_daemon(vault.root, daemon)
    for name, data in LEFT_ALONE.items():
        assert (vault.memories_dir / name).read_bytes() == data, name
    assert os.readlink(vault.memories_dir / "link.md") == str(outside)
    assert outside.stat().st_mtime_ns == outside_before.st_mtime_ns
    assert outside.read_text().startswith("root:x:0:0")
    for path in vault.root.rglob("*"):
        if path.is_file() and not path.is_symlink():
            assert b"root:x:0:0" not in path.read_bytes(), path  # never read into the vault
    bom = (vault.memories_dir / "bom.md").read_bytes()
    assert bom.startswith(BOM + b"---\n")
    assert bom.count(b"---\n") == 2
    crlf = (vault.memories_dir / "crlf.md").read_bytes()
    assert b"confirmations: 1" in crlf
    assert b"\n" not in crlf.replace(b"\r\n", b"")
    keys = (vault.memories_dir / "keys.md").read_text()
    assert "# why this note exists\nmine: {a: 1}  # inline\n" in keys
