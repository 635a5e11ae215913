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


def match_expression(text: str) -> str:
    """An FTS5 MATCH string: any of the query's content words."""
    return or_terms(query_terms(text))


def or_terms(terms: list[str]) -> str:
    return " OR ".join(f'"{term}"' for term in terms)
