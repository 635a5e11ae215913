"""Obsidian wikilinks in the `links` property: `[[id]]`, resolved by file stem."""

from __future__ import annotations

import re
from collections.abc import Iterable

_WIKILINK = re.compile(r"\[\[([^\]|#^]+)(?:[#^][^\]|]*)?(?:\|[^\]]*)?\]\]")


def wikilink(memory_id: str) -> str:
    return f"[[{memory_id}]]"


def link_targets(values: Iterable[str]) -> list[str]:
    """The note names the values link to, in order, without duplicates.

    Accepts `[[id]]`, `[[id|alias]]`, `[[id#heading]]` and a bare id.
    """
    found: list[str] = []
    for value in values:
        text = str(value).strip()
        names = _WIKILINK.findall(text) if "[[" in text else [text]
        for name in names:
            name = name.strip()
            if name.endswith(".md"):
                name = name[:-3]
            if name and name not in found:
                found.append(name)
    return found
