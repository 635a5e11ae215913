"""List settings (folders): a TOML list of strings, or one string of folders
separated like PATH (`:`) in config.toml or a VAULT_* variable."""

from __future__ import annotations

from pathlib import Path

import pytest

from vault.config import default_config_text, load_settings
from vault.errors import VaultError


def test_list_settings_default_to_empty_and_read_toml_lists(tmp_path: Path) -> None:
    assert load_settings(None, {}).ingest_allowed == ()
    config = tmp_path / "config.toml"
    config.write_text('[ingest]\ningest_allowed = ["~/notes", "/srv/docs"]\n')
    assert load_settings(config, {}).ingest_allowed == ("~/notes", "/srv/docs")


def test_a_string_is_split_like_path(tmp_path: Path) -> None:
    env = {"VAULT_TRANSCRIPTS_ALLOWED": "/a/b:/c::"}
    assert load_settings(None, env).transcripts_allowed == ("/a/b", "/c")
    config = tmp_path / "config.toml"
    config.write_text('[ingest]\ningest_allowed = "/x:/y"\n')
    assert load_settings(config, {}).ingest_allowed == ("/x", "/y")


def test_a_list_of_non_strings_is_refused(tmp_path: Path) -> None:
    config = tmp_path / "config.toml"
    config.write_text("[ingest]\ningest_allowed = [1, 2]\n")
    with pytest.raises(VaultError, match="ingest_allowed must be a list of strings"):
        load_settings(config, {})


def test_the_commented_config_shows_list_defaults() -> None:
    text = default_config_text()
    assert "# ingest_allowed = []" in text
    assert "# transcripts_allowed = []" in text
