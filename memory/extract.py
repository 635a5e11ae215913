"""Pick durable statements out of conversation turns, without an LLM.

From the person's turns: preferences ("always", "never", "prefer X over Y",
"from now on"), decisions ("we decided", "let's go with"), corrections of the
assistant, conventions and project facts. From the assistant, more
conservatively: only explicit decisions and summaries. Questions, code and
very short or very long fragments are left out. Pure: text in, candidates out.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace

PREFERENCE = re.compile(
    r"\b(always|never|prefer(?:s|red)?|rather than|instead of|from now on|going forward|"
    r"don'?t (?:ever )?use|do not use|make sure (?:to|we|you)|avoid using|stick (?:to|with))\b",
    re.IGNORECASE,
)
DECISION = re.compile(
    r"\b(we(?:'ve| have)? decided|decided to|let'?s go with|let'?s (?:use|switch to|keep)|"
    r"we(?:'ll| will) use|we'?re going with|going with|settled on|we chose|the plan is)\b",
    re.IGNORECASE,
)
CORRECTION = re.compile(
    r"^(no|nope|actually|wrong|that'?s (?:not|wrong)|that is (?:not|wrong)|not quite)\b[,.!:]?\s",
    re.IGNORECASE,
)
FACT = re.compile(
    r"\b(our|this (?:repo|project|codebase|service|app)|the (?:repo|project|codebase))\b"
    r"[^.?!]{0,80}\b(is|are|uses|runs|lives|needs|requires|deploys|targets)\b",
    re.IGNORECASE,
)
ASSISTANT_SUMMARY = re.compile(
    r"^(summary|decision|in summary|to summari[sz]e|we decided|decided)\b[:,]?", re.IGNORECASE
)
_SENTENCE = re.compile(r"(?<=[.!?])\s+|\n+")
MIN_CHARS, MAX_CHARS, WHOLE_TURN_CHARS = 20, 400, 500


@dataclass(frozen=True)
class Statement:
    text: str
    kind: str  # preference | decision | correction | fact
    role: str  # user | assistant
    at: str = ""  # when it was said (the transcript's timestamp), if known


def _kind(sentence: str, first: bool) -> str | None:
    if first and CORRECTION.match(sentence):
        return "correction"
    if DECISION.search(sentence):
        return "decision"
    if PREFERENCE.search(sentence):
        return "preference"
    if FACT.search(sentence):
        return "fact"
    return None


def _usable(text: str) -> bool:
    stripped = text.strip()
    if not MIN_CHARS <= len(stripped) <= MAX_CHARS or stripped.endswith("?"):
        return False
    if "```" in stripped or stripped.count("`") > 6:
        return False
    letters = sum(c.isalpha() for c in stripped)
    return letters >= 0.5 * len(stripped)


def from_user(text: str) -> list[Statement]:
    sentences = [s.strip() for s in _SENTENCE.split(text) if s.strip()]
    kinds = [(_kind(s, i == 0), s) for i, s in enumerate(sentences)]
    found = [(k, s) for k, s in kinds if k and _usable(s)]
    if not found:
        return []
    whole = " ".join(text.split())
    if len(whole) <= WHOLE_TURN_CHARS and not whole.endswith("?") and "```" not in whole:
        return [Statement(whole, found[0][0], "user")]  # short turn: keep its context
    return [Statement(s, k, "user") for k, s in found]


def from_assistant(text: str) -> list[Statement]:
    statements = []
    for sentence in (s.strip() for s in _SENTENCE.split(text)):
        if ASSISTANT_SUMMARY.match(sentence) and DECISION.search(sentence) and _usable(sentence):
            statements.append(Statement(sentence, "decision", "assistant"))
    return statements


def extract(turns: list[tuple[str, str]], stamps: list[str] | None = None) -> list[Statement]:
    """`turns` are (role, text) pairs in order, `stamps` their times if known;
    duplicates are dropped."""
    seen: set[str] = set()
    statements = []
    for number, (role, text) in enumerate(turns):
        at = stamps[number] if stamps and number < len(stamps) else ""
        found = from_user(text) if role == "user" else from_assistant(text)
        for statement in found:
            key = statement.text.lower()
            if key not in seen:
                seen.add(key)
                statements.append(replace(statement, at=at))
    return statements
