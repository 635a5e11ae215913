"""`vault import` against hostile or broken sources, run as the process a user
runs: it reads only regular files inside the folders a source is about (never a
link out, never a system folder), says what it could not read in one line per
file (exit 1, no traceback), and never writes a memory the vault would refuse."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from vault.layout import Vault

GOOD = "The staging database runs in eu-west-1 next to the app servers, since March."
OUTSIDE = "The launch codes live in the outside folder and must never be imported."
SYSTEM_FILE = Path("/etc/passwd")


def vault_import(
    vault: Vault, *args: str, env: dict[str, str] | None = None
) -> subprocess.CompletedProcess[str]:
    command = [sys.executable, "-m", "hooks.cli", "--vault", str(vault.root), "import", *args]
    environ = {**os.environ, **(env or {})}
    return subprocess.run(command, capture_output=True, text=True, env=environ, timeout=300)


def stored(vault: Vault) -> str:
    return "".join(path.read_text() for path in vault.memory_files())


def one_line_each(result: subprocess.CompletedProcess[str]) -> list[str]:
    assert "Traceback" not in result.stderr
    return [line for line in result.stderr.splitlines() if line.startswith("error: ")]


@pytest.fixture
def claude(tmp_path: Path) -> Path:
    memory = tmp_path / "claude" / "projects" / "-home-dev-api" / "memory"
    memory.mkdir(parents=True)
    (memory / "staging.md").write_text(f"---\nname: staging\ntype: project\n---\n{GOOD}\n")
    return tmp_path / "claude"


@pytest.mark.model
def test_claude_code_import_follows_no_link_out_of_the_claude_folder(
    vault: Vault, claude: Path, tmp_path: Path
) -> None:
    memory = claude / "projects" / "-home-dev-api" / "memory"
    (memory / "shadow.md").symlink_to(SYSTEM_FILE)
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "codes.md").write_text(f"---\nname: codes\n---\n{OUTSIDE}\n")
    (claude / "projects" / "-home-dev-web").mkdir()
    (claude / "projects" / "-home-dev-web" / "memory").symlink_to(outside)
    result = vault_import(vault, "--claude-code", env={"CLAUDE_CONFIG_DIR": str(claude)})
    assert result.returncode == 1
    errors = one_line_each(result)
    assert len(errors) == 2
    assert all("outside" in line and "not read" in line for line in errors)
    assert "created 1" in result.stdout
    assert GOOD in stored(vault)
    assert "root:" not in stored(vault)
    assert "launch codes" not in stored(vault)


def test_hx_index_paths_in_system_folders_are_refused(vault: Vault, tmp_path: Path) -> None:
    notes = tmp_path / "notes"
    notes.mkdir()
    (notes / "staging.md").write_text(GOOD * 2)
    hx = tmp_path / "hx"
    hx.mkdir()
    paths = [{"path": "/etc", "depth": 1}, {"path": "/", "depth": 1}, {"path": str(notes)}]
    (hx / "config.json").write_text(json.dumps({"index_paths": paths, "index_extensions": [""]}))
    result = vault_import(vault, "--hx", str(hx), "--dry-run")
    assert result.returncode == 1
    assert one_line_each(result) == [
        "error: /etc: a folder of the system; imports read only your own files",
        "error: /: a folder of the system; imports read only your own files",
    ]
    assert result.stdout.startswith("Would import: created 1,")  # the notes, nothing of /etc


BROKEN_HX = {
    "truncated": ('{"index_paths": [{"path": "/tmp", "de', "not valid JSON"),
    "binary": ("\x00\x01\xff\xfe\x00", "binary"),
    "not-utf8": ('{"index_paths": []}\xff', "not UTF-8 text"),
    "index-paths-a-number": ('{"index_paths": 5}', "index_paths must be a list, got 5"),
    "depth-a-word": ('{"index_paths": [{"path": "/tmp", "depth": "deep"}]}', "got 'deep'"),
}


@pytest.mark.parametrize("case", BROKEN_HX, ids=list(BROKEN_HX))
def test_a_broken_hx_config_is_one_line_naming_it(case: str, vault: Vault, tmp_path: Path) -> None:
    text, problem = BROKEN_HX[case]
    (tmp_path / "hx").mkdir()
    config = tmp_path / "hx" / "config.json"
    config.write_bytes(text.encode("latin-1"))
    result = vault_import(vault, "--hx", str(tmp_path / "hx"))
    assert result.returncode == 1
    assert "Traceback" not in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1
    assert f"{config}: " in result.stderr
    assert problem in result.stderr


def test_files_that_are_not_text_are_named_and_the_rest_imports(
    vault: Vault, claude: Path, tmp_path: Path
) -> None:
    binary = b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\xff\xfe"
    (claude / "CLAUDE.md").write_bytes(binary)
    result = vault_import(vault, "--claude-code", "--dry-run",
                          env={"CLAUDE_CONFIG_DIR": str(claude)})  # fmt: skip
    assert result.returncode == 1
    refused = f"error: {claude / 'CLAUDE.md'}: binary (it holds NUL bytes), not text"
    assert one_line_each(result) == [refused]
    assert result.stdout.startswith("Would import: created 1,")
    (tmp_path / "CLAUDE.md").write_bytes(binary)
    alone = vault_import(vault, "--claude-md", str(tmp_path / "CLAUDE.md"))
    assert alone.returncode == 1
    assert "binary" in one_line_each(alone)[0]
    (tmp_path / "in.jsonl").write_bytes(b'{"text": "caf\xe9 opens at nine"}\n')
    jsonl = vault_import(vault, "--jsonl", str(tmp_path / "in.jsonl"))
    assert jsonl.returncode == 1
    assert len(jsonl.stderr.strip().splitlines()) == 1
    assert f"{tmp_path / 'in.jsonl'}: not UTF-8 text (byte 13)" in jsonl.stderr


@pytest.mark.model
def test_what_the_vault_would_refuse_is_never_written(
    vault: Vault, claude: Path, tmp_path: Path
) -> None:
    """A memory over the vault's 1 MB, NaN or negative values, an unreadable
    bank: each one line, exit 1, and no file `vault status` would then reject."""
    memory = claude / "projects" / "-home-dev-api" / "memory"
    (memory / "huge.md").write_text("---\nname: huge\n---\n" + "All work and no play. " * 100_000)
    (claude / "CLAUDE.md").write_text("## Notes\n" + "Dull boy. " * 200_000)
    result = vault_import(vault, "--claude-code", "--dry-run",
                          env={"CLAUDE_CONFIG_DIR": str(claude)})  # fmt: skip
    assert result.returncode == 1
    errors = one_line_each(result)
    assert errors[0] == f"error: {memory / 'huge.md'}: larger than 1048576 bytes; not read"
    assert errors[1].endswith("larger than 1 MB, the most a memory holds; not imported (split it)")
    bank = tmp_path / "engram" / "global"
    bank.mkdir(parents=True)
    records = [
        {"id": "a", "content": "Deploys go out on Tuesdays.", "salience": {"x": float("nan")}},
        {"id": "b", "content": "Reviews need two approvals.", "access_count": -5},
        {"id": "c", "content": "Tabs, never spaces, in Go.", "access_count": 1e400},
        {"id": "d", "content": "Releases are tagged from main."},
    ]
    (bank / "memories.json").write_text(json.dumps(records).replace("Infinity", "1e400"))
    (bank / "deep_archive.json").write_text('[{"id": "e", "content": "cut off')
    engram = vault_import(vault, "--engram", str(tmp_path / "engram"))
    assert engram.returncode == 1
    problems = "\n".join(one_line_each(engram))
    assert "salience must be a finite number" in problems
    assert "recalls must not be negative, got -5" in problems
    assert "access count inf is not a whole number" in problems
    assert "deep_archive.json: not an engram bank (broken JSON" in problems
    assert "created 1" in engram.stdout
    assert "nan" not in stored(vault)
    assert not re.search(r"^\w+: -5$", stored(vault), re.M)  # no negative count written
