"""Every field of every way in is redacted before it is written: `vault import
--jsonl` (text, topic, tags, project, the source's id, extra) and `vault jot`
(topic, tags, project, session, kind), run as processes with every format of
the redaction corpus; then no secret is in any file of the vault: memories,
`.index/meta.sqlite` (and its journal), the topic model, daily logs."""

from __future__ import annotations

import io
import json
import os
import re
import subprocess
import sys
import zipfile
from pathlib import Path

import numpy as np
import pytest

from hooks.ops.table import dispatch
from memory.encode.redact import redact
from memory.service import MemoryService
from tests.memory.redact_corpus import POSITIVE, Fake

pytestmark = pytest.mark.model
# A secret that is a field on its own (a tag, an id): one token, shaped as its provider makes it.
_TOKEN = re.compile(r"[^\s,\[\]]{8,63}")


def formats() -> list[tuple[str, str, list[str], str]]:
    """(name, sentence, secrets, a secret recognisable on its own or "") per format."""
    found = []
    for case in POSITIVE:
        sentence, secrets = case.make(Fake(f"fields/{case.name}"))
        alone = next((s for s in secrets if _TOKEN.fullmatch(s) and s not in redact(s)), "")
        found.append((case.name, sentence, secrets, alone))
    return found


def vault(root: Path, *args: str) -> subprocess.CompletedProcess[str]:
    command = [sys.executable, "-m", "hooks.cli", "--vault", str(root), *args]
    return subprocess.run(
        command, capture_output=True, text=True, env=dict(os.environ), timeout=600
    )


def readable(path: Path) -> str:
    """A file's text as stored: a .npz's string arrays, any other file's bytes."""
    if path.suffix != ".npz":
        return path.read_bytes().decode("utf-8", errors="replace")
    with zipfile.ZipFile(path) as archive:
        arrays = [
            np.load(io.BytesIO(archive.read(n)), allow_pickle=False) for n in archive.namelist()
        ]
    return "\n".join("\n".join(map(str, a.ravel())) for a in arrays if a.dtype.kind in "US")


def test_no_secret_reaches_any_file_through_any_field(tmp_path: Path) -> None:
    root = tmp_path / "vault"
    assert vault(root, "init").returncode == 0
    cases = formats()
    assert sum(1 for *_, alone in cases if alone) >= 40
    lines = []
    for number, (name, sentence, _, alone) in enumerate(cases):
        line = {"text": f"Memory {number}: the {name} example from the runbook. {sentence}",
                "topic": sentence, "project": sentence, "extra": {"where": sentence, alone: 1},
                "id": alone or f"n{number}", "source": "chatgpt",
                "tags": [alone] if alone else []}  # fmt: skip
        lines.append(json.dumps(line))
    (tmp_path / "in.jsonl").write_text("\n".join(lines) + "\n")
    imported = vault(root, "import", "--jsonl", str(tmp_path / "in.jsonl"))
    assert imported.returncode == 0, imported.stderr
    assert f"created {len(cases)}" in imported.stdout
    alone = [secret for *_, secret in cases if secret]
    for number, secret in enumerate(alone[:4]):
        field = ("--topic", "--tag", "--project", "--session", "--kind")
        args = [arg for option in field for arg in (option, secret)]
        jotted = vault(root, "jot", f"Jot {number} keeps the release notes short.", *args)
        assert jotted.returncode == 0, jotted.stderr
    assert vault(root, "jot", "Memory 99: the runbook example files itself.").returncode == 0
    files = [p for p in root.rglob("*") if p.is_file() and ".git" not in p.parts]
    assert root / ".index" / "meta.sqlite" in files
    everything = "\n".join(readable(path) for path in files)
    assert "runbook example" in everything
    for name, _, secrets, _ in cases:
        for secret in (s for s in secrets if len(s) >= 8):  # a 4-digit PIN is in any hash
            for form in {secret, secret.lower()}:
                assert form not in everything, f"{name}: {form!r} stored"


def test_a_daemon_request_has_every_field_redacted(service: MemoryService) -> None:
    """What the daemon is sent (by the MCP server, a hook or any client) is
    written redacted, the request's `source` too."""
    token = "ghp_" + "a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8"
    fields = {key: token for key in ("topic", "project", "session", "kind", "source")}
    reply = dispatch(
        service, "jot", {"text": f"The CI bot uses {token}.", "tags": [token], **fields}
    )
    written = service.store.read(str(reply["id"])).path.read_text()
    assert "[REDACTED]" in written
    assert token not in written
