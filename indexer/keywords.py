"""Turn free text into an FTS5 query. Standard library only: the hook fast path
uses it without loading numpy, FAISS or the model.
"""

from __future__ import annotations

import re

from vault.stopwords import STOPWORDS

_TOKEN = re.compile(r"[^\W_]+", re.UNICODE)
MAX_TERMS = 32


def query_terms(text: str) -> list[str]:
    """Distinct lowercase content words, in order of appearance."""
    seen: dict[str, None] = {}
    for token in _TOKEN.findall(text.lower()):
        if token not in STOPWORDS and len(token) > 1:
            seen.setdefault(token, None)
    return list(seen)[:MAX_TERMS]


def query_phrases(text: str, allowed: list[str] | None = None) -> list[str]:
    """Two content words written next to each other ("support group"), as FTS5
    phrases: a memory that has them together scores more than one with either.
    `allowed` limits them to pairs of those words."""
    tokens = _TOKEN.findall(text.lower())
    usable = set(query_terms(text) if allowed is None else allowed)
    pairs = {
        f"{first} {second}": None
        for first, second in zip(tokens, tokens[1:], strict=False)
        if first in usable and second in usable and first != second
    }
    return list(pairs)[:MAX_TERMS]


def match_expression(text: str) -> str:
    """An FTS5 MATCH string: any of the query's content words or word pairs."""
    return or_terms(query_terms(text) + query_phrases(text))


def or_terms(terms: list[str]) -> str:
    """Terms or two-word phrases, any of which may match."""
    return " OR ".join(f'"{term}"' for term in terms)
