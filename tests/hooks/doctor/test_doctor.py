"""`vault doctor`: each broken state is named with its fix, on real files, git and
processes; the command prints a line per check and exits 1 on any failure. (A
healthy install passing every check: tests/packaging/test_uv_tool_install.py.)"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

from hooks.doctor import claude_checks, daemon_checks, git_checks, install_checks, vault_checks
from hooks.doctor.report import Check
from indexer.embedder import serving_embedder
from vault.config import load_settings
from vault.layout import Vault

BIN = Path(sys.executable).parent
HOOK = BIN / "vault-hook"


def failing(check: Check, name: str, *words: str) -> None:
    assert (check.ok, check.name) == (False, name), check
    assert check.fix, check
    for word in words:
        assert word in check.detail, check


def settings_with(claude: Path, command: str | None, plugin: bool = False) -> None:
    data: dict[str, object] = {}
    if command is not None:
        data["hooks"] = {"SessionStart": [{"hooks": [{"type": "command", "command": command}]}]}
    if plugin:
        data["enabledPlugins"] = {"memory-vault@memory-vault-local": True}
    claude.mkdir(parents=True, exist_ok=True)
    (claude / "settings.json").write_text(json.dumps(data))


def test_claude_code_wiring_problems_are_named(tmp_path: Path) -> None:
    claude = tmp_path / "claude"
    env = {"CLAUDE_CONFIG_DIR": str(claude)}
    failing(claude_checks.hooks_check(env), "hooks", "no memory-vault hooks")
    failing(claude_checks.mcp_check(env), "mcp", 'no MCP server "vault"')
    settings_with(claude, '"/gone/venv/bin/vault-hook" session-start')
    failing(claude_checks.hooks_check(env), "hooks", "/gone/venv/bin/vault-hook does not exist")
    settings_with(claude, f'"{HOOK}" session-start', plugin=True)
    failing(claude_checks.hooks_check(env), "hooks", "wired twice")
    settings_with(claude, f'"{HOOK}" session-start')
    (claude / ".claude.json").write_text(
        json.dumps({"mcpServers": {"vault": {"command": "/gone/vault", "args": ["mcp"]}}})
    )
    failing(claude_checks.mcp_check(env), "mcp", "/gone/vault does not exist")
    settings_with(claude, None)
    (claude / ".claude.json").write_text(
        json.dumps({"mcpServers": {"vault": {"command": str(BIN / "vault"), "args": ["mcp"]}}})
    )
    assert claude_checks.mcp_check(env).ok


def test_every_event_wired_once_to_a_runnable_hook_passes(tmp_path: Path) -> None:
    from hooks.claude_code.install import our_groups

    claude = tmp_path / "claude"
    claude.mkdir()
    (claude / "settings.json").write_text(json.dumps({"hooks": our_groups()}))
    check = claude_checks.hooks_check({"CLAUDE_CONFIG_DIR": str(claude)})
    assert check.ok, check
    assert str(HOOK) in check.detail


def test_an_unsafe_socket_folder_is_named(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    temp = tmp_path / "tmp"
    (temp / f"memory-vault-{os.getuid()}").mkdir(parents=True, mode=0o777)
    (temp / f"memory-vault-{os.getuid()}").chmod(0o777)
    monkeypatch.setattr(tempfile, "tempdir", str(temp))
    vault = Vault(tmp_path / ("vault-with-a-long-name-" * 5))
    failing(daemon_checks.daemon_check(vault), "daemon", "refusing the socket folder")


@pytest.mark.model
def test_an_index_behind_the_files_and_an_old_schema_are_named(vault: Vault) -> None:
    settings = load_settings(vault.config_path, {})
    embedder = serving_embedder("")
    assert vault_checks.index_check(vault, settings, embedder).ok  # empty and in step
    (vault.memories_dir / "2026-01-01-a-note-abcd.md").write_text(
        "---\nid: 2026-01-01-a-note-abcd\n---\nA note written in an editor.\n"
    )
    failing(vault_checks.index_check(vault, settings, embedder), "index", "out of date", "1 added")
    import sqlite3

    with sqlite3.connect(vault.index_dir / "meta.sqlite") as db:
        db.execute("UPDATE meta SET value = '1' WHERE key = 'schema_version'")
    failing(vault_checks.index_check(vault, settings, embedder), "index", "schema")


def test_files_not_ours_and_open_private_folders_are_named(vault: Vault) -> None:
    assert vault_checks.permissions_check(vault).ok
    vault.state_dir.chmod(0o755)
    failing(vault_checks.permissions_check(vault), "perms", ".state is open to other users")
    vault.state_dir.chmod(0o700)
    note = vault.memories_dir / "2026-01-01-a-note-abcd.md"
    note.write_text("---\nid: 2026-01-01-a-note-abcd\n---\nA note.\n")
    note.chmod(0o444)
    failing(vault_checks.permissions_check(vault), "perms", "not ours to write", note.name)


def test_an_unreadable_transcripts_folder_is_named(tmp_path: Path) -> None:
    projects = tmp_path / "claude" / "projects"
    projects.mkdir(parents=True)
    env = {"CLAUDE_CONFIG_DIR": str(tmp_path / "claude")}
    assert vault_checks.transcripts_check(env).ok
    projects.chmod(0o000)
    try:
        failing(vault_checks.transcripts_check(env), "transcripts", "cannot be read")
    finally:
        projects.chmod(0o700)


def git(root: Path, *args: str) -> None:
    subprocess.run(["git", *args], cwd=root, check=True, capture_output=True)


def test_git_sync_problems_are_named(vault: Vault, tmp_path: Path) -> None:
    assert [c.name for c in git_checks.sync_checks(vault)] == ["sync"]  # not set up: fine
    git(vault.root, "init", "-q")
    git(vault.root, "remote", "add", "origin", str(tmp_path / "no-such-remote.git"))
    note = vault.memories_dir / "2026-01-01-a-note-abcd.md"
    note.write_text(
        "---\nid: 2026-01-01-a-note-abcd\n---\n<<<<<<< ours\na\n=======\nb\n>>>>>>> x\n"
    )
    git(vault.root, "add", "-A")
    (vault.root / ".git" / "index.lock").write_text("")  # a killed git left it
    checks = {check.name: check for check in git_checks.sync_checks(vault)}
    failing(checks["git lock"], "git lock", "index.lock", "no longer running")
    failing(checks["conflicts"], "conflicts", "1 files with conflicts", note.name)
    failing(checks["remote"], "remote", "not reachable")


def test_a_model_that_does_not_load_is_named() -> None:
    check, embedder = install_checks.model_check("/no/such/model")
    failing(check, "model", "/no/such/model")
    assert embedder is None


def test_the_command_prints_a_line_per_check_and_exits_1(vault: Vault, tmp_path: Path) -> None:
    env = {**os.environ, "VAULT_HOME": str(vault.root), "CLAUDE_CONFIG_DIR": str(tmp_path / "c"),
           "HF_HUB_OFFLINE": "1"}  # fmt: skip
    result = subprocess.run([str(BIN / "vault"), "doctor", "--json"], capture_output=True,
                            text=True, env=env, timeout=300)  # fmt: skip
    report = json.loads(result.stdout)
    names = [check["name"] for check in report["checks"]]
    assert names[:2] == ["package", "model"]
    assert {"hooks", "mcp", "vault", "index", "perms", "daemon", "sync"} <= set(names)
    assert report["ok"] is False
    assert result.returncode == 1
    assert result.stderr.strip().endswith("2 of 10 checks failed")  # not wired: hooks, mcp
    subprocess.run([str(BIN / "vault"), "daemon", "stop"], env=env, timeout=60)
