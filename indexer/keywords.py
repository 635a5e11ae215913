"""Turn free text into an FTS5 query. Standard library only: the hook fast path
uses it without loading numpy, FAISS or the model.
"""

from __future__ import annotations

import re

STOPWORDS = frozenset(
    """a about above after again against all am an and any are as at be because been before
    being below between both but by can could did do does doing down during each few for from
    further had has have having he her here hers herself him himself his how i if in into is it
    its itself just let lets me more most my myself no nor not now of off on once only or other
    our ours ourselves out over own same she should so some such than that the their theirs them
    themselves then there these they this those through to too under until up very was we were
    what when where which while who whom why will with would you your yours yourself yourselves
    s t don didn doesn isn wasn aren won ll re ve d m o y""".split()
)
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
