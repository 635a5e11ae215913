"""Pick durable statements out of conversation turns, without an LLM: a person's
turn is prepared (memory/encode/turn_text.py), scored (classifier or rules) and kept at
the scorer's threshold, or always with an explicit cue; one-off commands at its
ends are cut off. From the assistant only explicit decisions and summaries.
Pure: no I/O."""

from __future__ import annotations

import math
import re
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Protocol

from memory.encode.capture_features import (
    ONE_OFF_MARKERS,
    PRIORS,
    STANDING_MARKERS,
    featurize,
    fired,
)
from memory.encode.turn_text import CUE, PreparedTurn, only_cue, prepare, stored_text

DECISION = re.compile(
    r"\b(we(?:'ve| have)? decided|decided to|let'?s go with|let'?s (?:use|switch to|keep)|"
    r"we(?:'ll| will) use|we'?re going with|going with|settled on|we chose|the plan is)\b",
    re.IGNORECASE,
)
ASSISTANT_SUMMARY = re.compile(
    r"^(summary|decision|in summary|to summari[sz]e|we decided|decided)\b[:,]?", re.IGNORECASE
)
_SENTENCE = re.compile(r"(?<=[.!?])\s+|\n+")
CONVENTION = re.compile(
    r"\b(?:naming|named|prefix(?:ed)?|suffix|convention|snake_case|camelcase|kebab-case|"
    r"format(?:ted)?)\b|\b(?:all|every|each|any)\s+\w+(?:\s+\w+)?\s+(?:go|goes|live|lives|has|"
    r"have|need|needs|must|use|uses|is|are|gets?)\b",
    re.IGNORECASE,
)
LEAVE_ALONE = re.compile(r"\bleave\b.{1,60}\balone\b", re.IGNORECASE)
INTERJECTIONS = frozenset(
    "ah oh ahh ohh yes yeah yep ok okay k hmm hm ugh right sure cool nice thanks thx great "
    "alright well so wait".split()
)
MIN_STORED_CHARS, MAX_BODY_CHARS = 10, 1500
# The rules' own scorer: the features' prior weights and this bias, at this threshold.
RULES_BIAS, RULES_THRESHOLD = -2.0, 0.5


@dataclass(frozen=True)
class Statement:
    text: str
    kind: str  # preference | decision | convention | fact | prohibition | correction
    role: str  # user | assistant
    at: str = ""  # when it was said (the transcript's timestamp), if known
    turn: int = -1  # the turn's position in the list given to extract(), if known


class Scorer(Protocol):
    """P(durable) for prepared turns; a turn is kept at or above `threshold`."""

    threshold: float

    def __call__(self, turns: Sequence[PreparedTurn]) -> list[float]: ...


class RuleScorer:
    """The rules alone: each feature's prior weight, no model and no file."""

    threshold = RULES_THRESHOLD

    def __call__(self, turns: Sequence[PreparedTurn]) -> list[float]:
        scores = []
        for turn in turns:
            logit = RULES_BIAS + sum(
                w * v for w, v in zip(PRIORS, featurize(turn.body, turn.asked), strict=True)
            )
            scores.append(1.0 / (1.0 + math.exp(-logit)))
        return scores


def kind_of(text: str) -> str:
    on = fired(text)
    if "correction_start" in on:
        return "correction"
    if on & {"negated_imperative", "ask_first", "no_noun"} or LEAVE_ALONE.search(text):
        return "prohibition"
    if "decision" in on:
        return "decision"
    if "preference" in on:
        return "preference"
    if on & {"we_habitually", "distributive", "standing"} or CONVENTION.search(text):
        return "convention"
    return "fact"


def _one_off(segment: str) -> bool:
    words = re.findall(r"[\w']+", segment.lower())
    if words and all(w in INTERJECTIONS for w in words):
        return True
    on = fired(segment)
    return bool(on & ONE_OFF_MARKERS) and not on & STANDING_MARKERS


def durable_part(turn: PreparedTurn) -> str:
    """The statement to store: pure cues dropped, one-off commands, reactions and
    asides cut off at either end (and, before a cue, anything without a rule)."""
    texts = [s.text for s in turn.segments]
    kept = [i for i, text in enumerate(texts) if not only_cue(text)]
    first_cue = next((i for i in kept if CUE.search(texts[i])), None)
    if first_cue is not None:
        kept = [i for i in kept if i >= first_cue or fired(texts[i]) & STANDING_MARKERS]
    while len(kept) > 1 and _one_off(texts[kept[0]]):
        kept.pop(0)
    while len(kept) > 1 and _one_off(texts[kept[-1]]):
        kept.pop()
    return stored_text(turn, kept) if kept else ""


def _keeps(turn: PreparedTurn, score: float, threshold: float) -> bool:
    if turn.cue:
        return True
    return score >= threshold and len(turn.body) <= MAX_BODY_CHARS


def from_assistant(text: str) -> list[Statement]:
    statements = []
    for sentence in (s.strip() for s in _SENTENCE.split(text)):
        if ASSISTANT_SUMMARY.match(sentence) and DECISION.search(sentence) and _usable(sentence):
            statements.append(Statement(sentence, "decision", "assistant"))
    return statements


def _usable(text: str) -> bool:
    stripped = text.strip()
    if not 20 <= len(stripped) <= 400 or stripped.endswith("?"):
        return False
    if "```" in stripped or stripped.count("`") > 6:
        return False
    return sum(c.isalpha() for c in stripped) >= 0.5 * len(stripped)


def extract(
    turns: list[tuple[str, str]], stamps: list[str] | None = None, scorer: Scorer | None = None
) -> list[Statement]:
    """`turns` are (role, text) pairs in order, `stamps` their times if known;
    the person's turns are scored in one batch (`scorer`, the rules by default);
    duplicates are dropped."""
    scorer = scorer or RuleScorer()
    prepared = {i: prepare(text) for i, (role, text) in enumerate(turns) if role == "user"}
    candidates = [(i, turn) for i, turn in prepared.items() if turn is not None]
    scores = dict(zip([i for i, _ in candidates], scorer([t for _, t in candidates]), strict=True))
    seen: set[str] = set()
    statements = []
    for number, (role, text) in enumerate(turns):
        found = from_assistant(text) if role != "user" else []
        turn = prepared.get(number)
        if turn is not None and _keeps(turn, scores[number], scorer.threshold):
            durable = durable_part(turn)
            if len(durable) >= MIN_STORED_CHARS:
                found = [Statement(durable, kind_of(durable), "user")]
        at = stamps[number] if stamps and number < len(stamps) else ""
        for statement in found:
            key = statement.text.lower()
            if key not in seen:
                seen.add(key)
                statements.append(replace(statement, at=at, turn=number))
    return statements
