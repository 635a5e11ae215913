"""The wording of a merged memory, extractive (pure): the most central source as
it was written, then every clause of the other sources that adds content the
text does not have yet (a reason, a file name, a port), in order of centrality.
Clauses that only say the person repeated themselves add nothing.
"""

from __future__ import annotations

from memory.consolidation.gist import sentences
from memory.consolidation.text import stem, tokens
from vault.lazy_pattern import LazyPattern

_CLAUSE = LazyPattern(r";\s+")
# Words about the telling, not the fact: "the user said this again while reviewing".
_TELLING = frozenset(
    stem(word)
    for word in "said say again repeated reminder remind asked told mentioned reviewing please "
    "note user this agreed wants".split()
)
MIN_NEW_WORDS = 2


def clauses(text: str) -> list[str]:
    return [part.strip() for s in sentences(text) for part in _CLAUSE.split(s) if part.strip()]


def _sentence(clause: str) -> str:
    """A clause as a sentence of its own: capitalised, ending in a full stop."""
    clause = clause.strip().rstrip(",;:")
    clause = clause[0].upper() + clause[1:]
    return clause if clause[-1] in ".!?" else clause + "."


def adds_content(clause: str, known: frozenset[str]) -> bool:
    new = {word for word in tokens(clause) - known if word not in _TELLING}
    return len(new) >= MIN_NEW_WORDS or any(any(c.isdigit() for c in word) for word in new)


def merged_text(texts_by_centrality: list[str]) -> str:
    """`texts_by_centrality`: the sources, most central (most like the others) first."""
    base = _sentence(" ".join(texts_by_centrality[0].split()))  # never a run-on
    parts = [base]
    known = tokens(base)
    for text in texts_by_centrality[1:]:
        for clause in clauses(text):
            if adds_content(clause, known):
                parts.append(_sentence(clause))
                known = known | tokens(clause)
    return " ".join(parts)
