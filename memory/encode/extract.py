"""Pick durable statements out of conversation turns, without an LLM, in two
steps of the capture pipeline (memory/encode/capture.py): `statements_of` cuts
each person's turn (prepared by memory/encode/turn_text.py) to its lasting part,
one-off commands at its ends cut off, and takes from the assistant only explicit
decisions and summaries; `durable` is the judgement: the scorer (classifier or
rules) keeps a person's statement at its threshold, or always with an explicit
cue. `extract` is the two in a row. Pure: no I/O."""

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
from memory.encode.transient import standing
from memory.encode.turn_text import CUE, PreparedTurn, only_cue, prepare, stored_text
from vault.lazy_pattern import LazyPattern

DECISION = LazyPattern(
    r"\b(we(?:'ve| have)? decided|decided to|let'?s go with|let'?s (?:use|switch to|keep)|"
    r"we(?:'ll| will) use|we'?re going with|going with|settled on|we chose|the plan is)\b",
    re.IGNORECASE,
)
ASSISTANT_SUMMARY = LazyPattern(
    r"^(summary|decision|in summary|to summari[sz]e|we decided|decided)\b[:,]?", re.IGNORECASE
)
_SENTENCE = LazyPattern(r"(?<=[.!?])\s+|\n+")
CONVENTION = LazyPattern(
    r"\b(?:naming|named|prefix(?:ed)?|suffix|convention|snake_case|camelcase|kebab-case|"
    r"format(?:ted)?)\b|\b(?:all|every|each|any)\s+\w+(?:\s+\w+)?\s+(?:go|goes|live|lives|has|"
    r"have|need|needs|must|use|uses|is|are|gets?)\b",
    re.IGNORECASE,
)
LEAVE_ALONE = LazyPattern(r"\bleave\b.{1,60}\balone\b", re.IGNORECASE)
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
    if_change: bool = False  # dropped as passing: kept only if it changes a memory


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
    if standing(segment):  # "it is on port 8003 from today on": the change itself
        return False
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


@dataclass(frozen=True)
class Candidate:
    """A statement before the durable judgement, with the turn it was cut from
    (None: the assistant's, which the rules of `from_assistant` kept already)."""

    statement: Statement
    turn: PreparedTurn | None


def statements_of(turns: list[tuple[str, str]], stamps: list[str] | None = None) -> list[Candidate]:
    """The statements `turns` ((role, text) pairs in order, `stamps` their times if
    known) could be stored as, in order: a person's turn cut to its lasting part,
    the assistant's explicit decisions and summaries."""
    found = []
    for number, (role, text) in enumerate(turns):
        at = stamps[number] if stamps and number < len(stamps) else ""
        if role != "user":
            found += [Candidate(replace(s, at=at, turn=number), None) for s in from_assistant(text)]
            continue
        turn = prepare(text)
        durable = durable_part(turn) if turn is not None else ""
        if turn is not None and len(durable) >= MIN_STORED_CHARS:
            found.append(Candidate(Statement(durable, kind_of(durable), "user", at, number), turn))
    return found


def durable(candidates: list[Candidate], scorer: Scorer | None = None) -> list[Statement]:
    """The durable judgement: the person's statements their turn's score keeps
    (`scorer`, the rules by default, all turns in one batch), the assistant's as
    they are; the same text twice is kept once."""
    scorer = scorer or RuleScorer()
    persons = [c.turn for c in candidates if c.turn is not None]
    scores = iter(scorer(persons) if persons else [])
    seen: set[str] = set()
    kept = []
    for candidate in candidates:
        turn = candidate.turn
        if turn is not None and not _keeps(turn, next(scores), scorer.threshold):
            continue
        key = candidate.statement.text.lower()
        if key not in seen:
            seen.add(key)
            kept.append(candidate.statement)
    return kept


def extract(
    turns: list[tuple[str, str]], stamps: list[str] | None = None, scorer: Scorer | None = None
) -> list[Statement]:
    """`statements_of` then `durable`: the durable statements of `turns`."""
    return durable(statements_of(turns, stamps), scorer)
