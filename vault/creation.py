"""A new vault on disk: its folders and a commented config.toml. Light to import:
`vault init` needs nothing else."""

from __future__ import annotations

from vault.config import default_config_text
from vault.layout import Vault


def create_vault(vault: Vault) -> bool:
    """Create the folders and a commented config.toml; False if the vault existed."""
    existed = vault.exists()
    vault.create_folders()
    if not vault.config_path.exists():
        vault.config_path.write_text(default_config_text(), encoding="utf-8")
    return not existed
