"""Categories a person defines by path (seed 001's `categories` and
`category_rules`): a rule `glob=category` gives the category to every memory
whose vault-relative path, or every indexed document whose full path, matches
the glob (fnmatch: `*` crosses folders; a leading `~` is the home folder). The
first matching rule wins. Pure functions of the settings' values: computed when
asked, never stored, so changing a rule needs no reindex.
"""

from __future__ import annotations

import os
from fnmatch import fnmatchcase
from functools import lru_cache

from vault.errors import VaultError


class UnknownCategoryError(VaultError):
    """A category asked for that no setting names."""


@lru_cache(maxsize=8)
def category_rules(entries: tuple[str, ...]) -> tuple[tuple[str, str], ...]:
    """`glob=category` settings as (glob, category) pairs, in order; a malformed
    one is a VaultError naming it."""
    pairs = []
    for entry in entries:
        glob, sep, name = entry.rpartition("=")
        if not sep or not glob.strip() or not name.strip():
            raise VaultError(
                f"category_rules: {entry!r} must be glob=category "
                "(e.g. memories/acme/**=project); fix config.toml or VAULT_CATEGORY_RULES"
            )
        pairs.append((os.path.expanduser(glob.strip()), name.strip()))
    return tuple(pairs)


def category_of(path: str, rules: tuple[str, ...]) -> str:
    """The category of a memory's vault-relative path or a document's full path
    ("" when no rule matches)."""
    for glob, name in category_rules(rules):
        if fnmatchcase(path, glob):
            return name
    return ""


def known_categories(categories: tuple[str, ...], rules: tuple[str, ...]) -> tuple[str, ...]:
    """Every category name the settings mention, sorted."""
    return tuple(sorted({*categories, *(name for _, name in category_rules(rules))}))


def check_category(name: str, categories: tuple[str, ...], rules: tuple[str, ...]) -> str:
    """`name` if the settings know it, else UnknownCategoryError listing those they do."""
    known = known_categories(categories, rules)
    if name in known:
        return name
    if not known:
        raise UnknownCategoryError(
            f"unknown category {name!r}: none are set; add category_rules "
            "(glob=category) to config.toml"
        )
    raise UnknownCategoryError(f"unknown category {name!r}; known: {', '.join(known)}")
