"""The files: layout, frontmatter, atomic writes and locks, config and paths, clock.

This package imports nothing else of memory-vault.
"""

from __future__ import annotations

import importlib

TYPE_CHECKING = False  # not typing.TYPE_CHECKING: the prompt hook skips importing typing
if TYPE_CHECKING:
    from typing import Any

    from vault.atomic import (
        atomic_write as atomic_write,
        file_lock as file_lock,
    )
    from vault.clock import (
        Clock as Clock,
        fixed_clock as fixed_clock,
        format_time as format_time,
        parse_time as parse_time,
        utc_now as utc_now,
    )
    from vault.config import (
        Settings as Settings,
        default_config_text as default_config_text,
        load_settings as load_settings,
    )
    from vault.daily import append_daily as append_daily, recent_daily as recent_daily
    from vault.errors import (
        BrokenFileError as BrokenFileError,
        ConcurrentEditError as ConcurrentEditError,
        InvalidIdError as InvalidIdError,
        MemoryNotFoundError as MemoryNotFoundError,
        VaultError as VaultError,
    )
    from vault.frontmatter import (
        FrontmatterError as FrontmatterError,
    )
    from vault.ids import (
        make_id as make_id,
        slugify as slugify,
        validate_id as validate_id,
    )
    from vault.layout import (
        Vault as Vault,
    )
    from vault.links import link_targets as link_targets, wikilink as wikilink
    from vault.paths import (
        resolve_vault_home as resolve_vault_home,
    )
    from vault.schema import (
        FILED_AUTO as FILED_AUTO,
        OWNED_FIELDS as OWNED_FIELDS,
        TIERS as TIERS,
        MemoryRecord as MemoryRecord,
        to_record as to_record,
    )
    from vault.state import JsonState as JsonState
    from vault.store import (
        MemoryStore as MemoryStore,
    )

# Public names and the module that defines each; loaded on first use, so that
# importing one light submodule (the hook fast path does) loads nothing else.
_EXPORTS = {
    "BrokenFileError": "vault.errors",
    "Clock": "vault.clock",
    "ConcurrentEditError": "vault.errors",
    "FrontmatterError": "vault.frontmatter",
    "InvalidIdError": "vault.errors",
    "MemoryNotFoundError": "vault.errors",
    "MemoryRecord": "vault.schema",
    "MemoryStore": "vault.store",
    "OWNED_FIELDS": "vault.schema",
    "FILED_AUTO": "vault.schema",
    "Settings": "vault.config",
    "TIERS": "vault.schema",
    "Vault": "vault.layout",
    "JsonState": "vault.state",
    "append_daily": "vault.daily",
    "recent_daily": "vault.daily",
    "VaultError": "vault.errors",
    "atomic_write": "vault.atomic",
    "default_config_text": "vault.config",
    "file_lock": "vault.atomic",
    "fixed_clock": "vault.clock",
    "format_time": "vault.clock",
    "load_settings": "vault.config",
    "make_id": "vault.ids",
    "parse_time": "vault.clock",
    "resolve_vault_home": "vault.paths",
    "slugify": "vault.ids",
    "to_record": "vault.schema",
    "utc_now": "vault.clock",
    "validate_id": "vault.ids",
    "link_targets": "vault.links",
    "wikilink": "vault.links",
}
__all__ = sorted(_EXPORTS)


def __getattr__(name: str) -> Any:
    if name in _EXPORTS:
        return getattr(importlib.import_module(_EXPORTS[name]), name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
