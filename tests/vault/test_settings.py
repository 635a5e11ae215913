"""Typed settings: one declaration of each, checked once at load. A wrong type,
a value out of range or an unknown key is one line naming the key, from
config.toml and from VAULT_<KEY> alike; nothing is coerced quietly."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from memory.config import MemoryConfig
from vault.config import SETTINGS, default_config_text, load_settings
from vault.errors import VaultError


def vault_cli(*args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "hooks.cli", *args], capture_output=True,
                          text=True, env={**os.environ, **(env or {})}, timeout=120)  # fmt: skip


@pytest.mark.parametrize(
    ("line", "message"),
    [
        ("[association]\nlinks_max = 2.9", "links_max must be a whole number 0 to 100, got 2.9"),
        ("[recall]\ncue_bar = true", "cue_bar must be a number >= 0, got true"),
        ("[recall]\nmin_similarity = 1.7", "min_similarity must be a number 0 to 1, got 1.7"),
        ('[hooks]\npush_channels = "no"', "push_channels must be true or false, got 'no'"),
        ("[recall]\ncue_barr = 0.2", "unknown setting 'cue_barr'"),
    ],
)
def test_a_wrong_config_toml_value_is_one_line_naming_the_key(
    tmp_path: Path, line: str, message: str
) -> None:
    assert vault_cli("init").returncode == 0
    (tmp_path / "vault" / "config.toml").write_text(line + "\n", encoding="utf-8")
    result = vault_cli("recall", "anything")
    assert result.returncode == 3
    assert result.stderr.strip().splitlines() == [f"Error: {tmp_path}/vault/config.toml: {message}"]


@pytest.mark.parametrize(
    ("variable", "text", "message"),
    [
        ("VAULT_LINKS_MAX", "2.9", "links_max must be a whole number 0 to 100, got '2.9'"),
        ("VAULT_CUE_BAR", "true", "cue_bar must be a number >= 0, got 'true'"),
        ("VAULT_MIN_SIMILARITY", "abc", "min_similarity must be a number 0 to 1, got 'abc'"),
        (
            "VAULT_LLM_EXTRACTION",
            "maybe",
            "llm_extraction must be true or false (1/0, yes/no), got 'maybe'",
        ),
    ],
)
def test_a_wrong_environment_value_is_one_line_naming_the_variable(
    variable: str, text: str, message: str
) -> None:
    assert vault_cli("init").returncode == 0
    result = vault_cli("config", env={variable: text})
    assert result.returncode == 3
    assert result.stderr.strip().splitlines() == [f"Error: {variable}: {message}"]


def test_values_keep_their_declared_types(tmp_path: Path) -> None:
    config = tmp_path / "config.toml"
    config.write_text("[association]\nlinks_max = 3\n[recall]\ncue_bar = 1\n", encoding="utf-8")
    settings = load_settings(config, {"VAULT_PRUNE_CURATED": "yes"})
    assert (settings.links_max, settings.cue_bar, settings.prune_curated) == (3, 1.0, True)
    assert isinstance(settings.cue_bar, float)
    with pytest.raises(AttributeError):
        settings.cue_bar = 0.5  # type: ignore[misc]


def test_every_key_of_the_old_table_is_still_read() -> None:
    """Backwards compatibility: each key the settings table had before typing."""
    old = {line.split()[1] for line in default_config_text().splitlines() if " = " in line}
    assert old == {spec.key for spec in SETTINGS}
    added = {"min_cosine", "hedged_cosine", "hedged_gap", "hook_confident_max",  # round three
             "hook_hedged_max", "auto_retire_limit", "auto_retire_share",
             "daily_folder", "weekly_folder", "monthly_folder", "quarterly_folder",
             "yearly_folder", "llm_briefing", "llm_briefing_seconds", "llm_gist",
             "llm_gist_seconds", "push_on_success", "briefing_max_memories",
             "daemon_quick_sync_files", "daemon_index_check_seconds"}  # fmt: skip
    added |= {"index_paths", "index_extensions", "index_max_depth", "index_skip_dirs",
              "categories", "category_rules"}  # folders indexed in place, categories  # fmt: skip
    added |= {"status_stability"}  # statements bounded to now (issue 24, round three)
    added |= {"auto_supersede", "auto_merge"}  # unattended by held-out precision (round four)
    assert added <= old
    assert len(old - added) == 69  # the table before typing, every key still read
    defaults = load_settings(None, {})
    assert MemoryConfig.from_settings(defaults) == MemoryConfig.default()


def test_every_default_keeps_its_type_and_range() -> None:
    for spec in SETTINGS:
        assert spec.help, spec.key
        assert load_settings(None, {}).value(spec.key) == spec.default


def test_vault_config_lists_every_setting_with_help_and_origin(tmp_path: Path) -> None:
    assert vault_cli("init").returncode == 0
    (tmp_path / "vault" / "config.toml").write_text("[recall]\ncue_bar = 0.2\n", encoding="utf-8")
    shown = vault_cli("config", env={"VAULT_LINKS_MAX": "3"})
    assert shown.returncode == 0, shown.stderr
    assert "  links_max = 3    env VAULT_LINKS_MAX" in shown.stdout
    assert "      int (0 to 100): nearest memories a memory links to" in shown.stdout
    assert f"  cue_bar = 0.2    {tmp_path}/vault/config.toml" in shown.stdout
    rows = json.loads(vault_cli("config", "--json").stdout)
    assert len(rows) == len(SETTINGS)
    row = next(r for r in rows if r["key"] == "evergreen_paths")
    assert (row["type"], row["value"], row["origin"]) == (
        "tuple[str, ...]", ["memories/decisions/**"], "default")  # fmt: skip


def test_a_bad_value_in_load_settings_raises_vault_error() -> None:
    with pytest.raises(VaultError, match="^VAULT_HOOK_CONTEXT_CHARS: hook_context_chars must be"):
        load_settings(None, {"VAULT_HOOK_CONTEXT_CHARS": "20000"})
