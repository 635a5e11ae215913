"""Episodic to semantic gist without an LLM (pure): of a long memory keep the
sentence that carries the decision or preference (decision wording, and the
closing sentence where a story usually lands), plus any sentence saying what
was changed; the context around it may go. With `llm_gist` on, a `WriteGists`
callable (hooks/claude_code/llm_gist.py) writes them instead; a gist it
cannot write, or writes no shorter, is the rule-based one.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from vault.lazy_pattern import LazyPattern

_SENTENCE = LazyPattern(r"(?<=[.!?])\s+(?=[A-Z0-9`'\"(\[])")
_CUE = LazyPattern(
    r"\b(decided|decision|agreed|rule|from now on|going forward|wants?|prefers?|always|never|"
    r"only|must|should|now|moved|switched|replaced|migrated|raised|lowered|configured|"
    r"use|avoid)\b",
    re.IGNORECASE,
)
_LEAD = LazyPattern(
    r"^(?:decided|decision|agreed|rule|from now on|going forward|the fix|the rule|lesson)\b",
    re.IGNORECASE,
)
_WE_CHANGED = LazyPattern(
    r"\b(?:we|I)(?:'ve| have)? (?:moved|switched|replaced|migrated|changed|raised|lowered|"
    r"decided|dropped|adopted)\b",
    re.IGNORECASE,
)
LAST_SENTENCE_BONUS = 1.5
LEAD_BONUS = 2.0
MIN_WORDS = 40  # a shorter memory is kept whole: compressing it saves little
SHORTER = 0.8  # a gist must be shorter than this share of the text
# texts -> a gist for each (None: none written); one call per consolidation run
WriteGists = Callable[[list[str]], "list[str | None]"]


def sentences(text: str) -> list[str]:
    return [part.strip() for part in _SENTENCE.split(" ".join(text.split())) if part.strip()]


def _score(sentence: str, last: bool) -> float:
    bonus = (LAST_SENTENCE_BONUS if last else 0.0) + (LEAD_BONUS if _LEAD.match(sentence) else 0)
    return len(_CUE.findall(sentence)) + bonus


def gist_sentences(text: str, min_sentences: int = 3) -> list[str]:
    """The sentences that carry a long text's decision, in their order; [] when
    the text is shorter than `min_sentences` or MIN_WORDS (it is its own gist).
    A question is never the gist."""
    found = sentences(text)
    if not long_enough(text, min_sentences):
        return []
    scores = [
        -1.0 if s.endswith("?") else _score(s, n == len(found) - 1) for n, s in enumerate(found)
    ]
    best = max(range(len(found)), key=lambda n: (scores[n], n))
    if scores[best] < 0:
        return []
    keep = {best} | {n for n, s in enumerate(found) if n != best and _WE_CHANGED.search(s)}
    return [found[n] for n in sorted(keep)]


def decision_gist(text: str, min_sentences: int = 3) -> str | None:
    """The gist to keep in place of `text`, or None: too short, or no sentence
    carries a decision or preference (then there is nothing safe to keep)."""
    kept = gist_sentences(text, min_sentences)
    if not kept or not any(_CUE.search(s) or _LEAD.match(s) for s in kept):
        return None
    gist = " ".join(kept)
    return gist if len(gist) < SHORTER * len(" ".join(text.split())) else None


def long_enough(text: str, min_sentences: int = 3) -> bool:
    """Whether `text` is long enough to be gisted at all (else it is its own gist)."""
    return len(sentences(text)) >= min_sentences and len(text.split()) >= MIN_WORDS


def written_gist(written: str | None, text: str) -> str | None:
    """A gist a model wrote for `text`, if it is one: on one line, shorter."""
    gist = " ".join((written or "").split())
    return gist if gist and len(gist) < SHORTER * len(" ".join(text.split())) else None
