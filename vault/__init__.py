"""The files: layout, frontmatter, atomic writes and locks, config and paths, clock.

This package imports nothing else of memory-vault.
"""

from vault.atomic import atomic_write, file_lock
from vault.clock import Clock, fixed_clock, format_time, parse_time, utc_now
from vault.config import Settings, default_config_text, load_settings
from vault.errors import (
    BrokenFileError,
    ConcurrentEditError,
    InvalidIdError,
    MemoryNotFoundError,
    VaultError,
)
from vault.frontmatter import FrontmatterError
from vault.ids import make_id, slugify, validate_id
from vault.layout import Vault
from vault.paths import resolve_vault_home
from vault.schema import OWNED_FIELDS, TIERS, MemoryRecord, to_record
from vault.store import MemoryStore

__all__ = [
    "OWNED_FIELDS",
    "TIERS",
    "BrokenFileError",
    "Clock",
    "ConcurrentEditError",
    "FrontmatterError",
    "InvalidIdError",
    "MemoryNotFoundError",
    "MemoryRecord",
    "MemoryStore",
    "Settings",
    "Vault",
    "VaultError",
    "atomic_write",
    "default_config_text",
    "file_lock",
    "fixed_clock",
    "format_time",
    "load_settings",
    "make_id",
    "parse_time",
    "resolve_vault_home",
    "slugify",
    "to_record",
    "utc_now",
    "validate_id",
]
