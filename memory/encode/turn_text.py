"""A person's turn made ready for capture: opt-outs, redaction, pasted output,
segments, questions and explicit cues. Pure text in, text out; it decides
nothing about what is durable (memory/encode/extract.py does). Redaction runs before
the turn is split, so no secret reaches a segment.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from memory.encode.redact import has_private, redact
from vault.lazy_pattern import LazyPattern

# Opt-outs: the whole turn is never captured (so is one with a <private> tag).
OPT_OUT = LazyPattern(
    r"\b(?:off the record|keep this between us|not for (?:the )?(?:memory|vault)|"
    r"(?:don'?t|do not|never|please don'?t)\s+(?:ever\s+)?"
    r"(?:save|store|remember|record|keep|capture|memori[sz]e|note|write down)\s+"
    r"(?:this|that|it|anything|any of (?:this|that))\b)",
    re.IGNORECASE,
)
# Explicit cues: a statement carrying one is kept whatever the classifier says.
CUE = LazyPattern(
    r"(?<!n't )(?<!not )(?<!never )(?<!nobody could )"
    r"\b(?:fyi|f\.y\.i\.?|for the record|note that|note:|nb:|remember that|remember this|"
    r"please remember|worth remembering|keep in mind|for future reference|before i forget|"
    r"context for later)(?=\W|$)",
    re.IGNORECASE,
)
_FILLER = (
    r"(?:and|also|oh|ah|ok|okay|so|but|wait|hmm|yes|yeah|well|btw|by the way|fyi|f\.y\.i\.?|"
    r"for the record|note that|"
    r"note|nb|remember that|please remember|heads up|before i forget|one thing|context for later)"
)
_LEADING_FILLER = LazyPattern(rf"^(?:{_FILLER}\b[\s,:.!-]*)+", re.IGNORECASE)
_TRAILING_CUE = LazyPattern(
    r"[\s,;.-]*\b(?:remember that|worth remembering|btw|fyi|keep (?:that|this) in mind)[.!]*$",
    re.IGNORECASE,
)
# Sentence ends, line breaks, semicolons, dashes between spaces, and the start of a
# cue in mid-sentence ("run the linter and fyi we never ...") all end a segment.
_BOUNDARY = LazyPattern(
    r"(?<=[.!?])\s+(?=\S)|\n+|;\s+|\s+[-\u2013\u2014]{1,2}\s+|"
    r"[,\s]+(?=(?:and\s+)?(?:fyi|for the record|note that|remember that)\b)",
    re.IGNORECASE,
)
_QUESTION_START = LazyPattern(
    r"^\W*(?:(?:so|and|but|ok|hmm|wait|also|k)[,.]?\s+)*"
    r"(?:what|why|how|which|where|when|who|whose|is|are|was|were|does|do|did|can|could|"
    r"would|should|will|shall|any idea)\b",
    re.IGNORECASE,
)
_ERROR_HEAD = LazyPattern(
    r"^\s*(?:Traceback \(|[\w.$]*(?:Error|Exception|Timeout|Failure)\b[^:\n]{0,60}:|"
    r"(?:error|fatal|warning|panic)(?:\[\w+\])?:|E\s{2,}|FAIL\b|--- FAIL|thread '.*' panicked|"
    r"[\w./\\-]+\.\w+:\d+(?::\d+)?:)",
    re.IGNORECASE,
)
_MACHINE_START = LazyPattern(
    r"^(?:\t|\s{2,})\S|^\s*(?:at |File \"|\d+\s*\||[-=+*>]{2,}|\.\.\.$|Caused by|Required by|"
    r"\w[\w ]{0,20}:\s*$)|^(?=[\w.@/:-]*[\d.@/_-])[\w.@/:-]+:\s|^[A-Z]{3,}[\w ]*\s(?:WARN|INFO|"
    r"ERROR|DEBUG)\b"
)
_INLINE_DIAGNOSTIC = LazyPattern(r"\b(?:error|warning) [A-Z]*\d+:|: (?:error|fatal|warning):")


@dataclass(frozen=True)
class Segment:
    text: str
    start: int  # offsets into PreparedTurn.text
    end: int
    number: int  # position among all the turn's segments, questions included


@dataclass(frozen=True)
class PreparedTurn:
    text: str  # redacted, pasted output removed
    segments: tuple[Segment, ...]  # questions left out
    asked: bool  # a question was left out
    cue: bool  # an explicit cue outside any question

    @property
    def body(self) -> str:
        """What the classifier reads: the kept segments on one line."""
        return " ".join(s.text for s in self.segments)


def opted_out(text: str) -> bool:
    """A turn the person kept out: a <private> or </private> tag anywhere in it
    (checked on the raw turn, before redaction removes the tags) or words like
    "off the record"."""
    return has_private(text) or bool(OPT_OUT.search(text))


def is_question(segment: str) -> bool:
    stripped = segment.rstrip()
    return stripped.endswith("?") or (
        bool(_QUESTION_START.match(stripped)) and not stripped.endswith(".")
    )


def machine_line(line: str) -> bool:
    """A line that a tool printed (a trace, a compiler message, a log), not a person."""
    text = line.rstrip()
    if not text.strip():
        return False
    if _ERROR_HEAD.search(text) or _MACHINE_START.search(text) or _INLINE_DIAGNOSTIC.search(text):
        return True
    plain = sum(c.isalnum() or c.isspace() for c in text)
    return len(text) >= 20 and plain < 0.7 * len(text)


def without_output(text: str) -> str:
    """`text` without pasted tool output; empty when the turn is mostly output."""
    lines = [line for line in text.splitlines() if line.strip()]
    machine = [machine_line(line) for line in lines]
    if not lines or 2 * sum(machine) >= len(lines):
        return ""
    return "\n".join(
        line for line, is_machine in zip(lines, machine, strict=True) if not is_machine
    )


def split_segments(text: str) -> list[Segment]:
    found: list[Segment] = []
    start = 0
    for match in [*_BOUNDARY.finditer(text), None]:
        end = match.start() if match else len(text)
        piece = text[start:end]
        if piece.strip():
            offset = start + len(piece) - len(piece.lstrip())
            stripped = piece.strip()
            found.append(Segment(stripped, offset, offset + len(stripped), len(found)))
        start = match.end() if match else len(text)
    return found


def prepare(text: str) -> PreparedTurn | None:
    """The turn ready to classify, or None when it opts out or nothing is left."""
    if opted_out(text):
        return None
    human = without_output(redact(text))
    segments = split_segments(human)
    kept = tuple(s for s in segments if not is_question(s.text))
    if not kept:
        return None
    cue = any(CUE.search(s.text) for s in kept)
    return PreparedTurn(human, kept, len(kept) < len(segments), cue)


def only_cue(segment: str) -> bool:
    """A segment that is nothing but a cue ("remember that", "fyi")."""
    return not _TRAILING_CUE.sub("", _LEADING_FILLER.sub("", segment)).strip(" .,:;!-")


def stored_text(turn: PreparedTurn, kept: list[int]) -> str:
    """The segments at the `kept` positions as said (their own punctuation between
    neighbours), with cues and fillers at either end removed, on one line."""
    runs: list[list[Segment]] = []
    for segment in (turn.segments[position] for position in sorted(kept)):
        if runs and runs[-1][-1].number == segment.number - 1:
            runs[-1].append(segment)
        else:
            runs.append([segment])
    parts = [turn.text[run[0].start : run[-1].end] for run in runs]
    text = " ".join(" ".join(parts).split())
    return _TRAILING_CUE.sub("", _LEADING_FILLER.sub("", text)).strip(" ,;:-")
