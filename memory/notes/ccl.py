"""CCL, the context compression language: plain English (T0) to telegraphic (T3)
with the published, versioned dictionary in ccl_dictionary.toml. Pure text in,
text out; standard library only (the SessionStart hook may use it).

Only prose changes: fenced code, inline code, links and URLs are left alone.
Words are matched as whole chunks between spaces, with surrounding punctuation
kept; a chunk of the original that already reads as a short form is escaped
with a leading backslash, so `decode` restores every dictionary entry exactly.
Dropped words (articles, fillers, auxiliaries) are the lossy part.
"""

from __future__ import annotations

import re
import tomllib
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from vault.lazy_pattern import LazyPattern

DICTIONARY_FILE = Path(__file__).with_name("ccl_dictionary.toml")
TIERS = (0, 1, 2, 3)
ESCAPE = "\\"
_LEAD = "([{\"'*_"
_TRAIL = ".,;:!?)]}\"'*_"
_CODE = LazyPattern(r"^(?:```|~~~)[^\n]*\n[\s\S]*?(?:^(?:```|~~~)[^\n]*$|\Z)|`[^`\n]+`", re.M)
_SPACE = LazyPattern(r"(\s+)")
_BOLD = LazyPattern(r"\*\*(?=\S)([^*\n]+?)(?<=\S)\*\*")
_BLANK_LINES = LazyPattern(r"\n[ \t]*\n(?:[ \t]*\n)*")
_LINE_END_STOP = LazyPattern(r"(?<=\s)([A-Za-z0-9'-]+)\.(?=[ \t]*$)", re.M)


@dataclass(frozen=True)
class Entry:
    long: str
    short: str
    tier: int


@dataclass(frozen=True)
class Dictionary:
    name: str
    version: str
    entries: tuple[Entry, ...]
    drops: dict[int, frozenset[str]]

    def active(self, tier: int) -> dict[str, str]:
        """long -> short at `tier` (a long form's highest tier <= `tier` wins)."""
        chosen: dict[str, Entry] = {}
        for entry in self.entries:
            if entry.tier <= tier and entry.tier >= chosen.get(entry.long, entry).tier:
                chosen[entry.long] = entry
        return {long: entry.short for long, entry in chosen.items()}

    def dropped(self, tier: int) -> frozenset[str]:
        return frozenset().union(*(words for level, words in self.drops.items() if level <= tier))

    @property
    def expansions(self) -> dict[str, str]:
        """Every written short form (and its capitalised form) -> its long form."""
        found: dict[str, str] = {}
        for entry in self.entries:
            for short, long in _variants(entry.short, entry.long):
                found[short] = long
        return found


def _capital(text: str) -> str:
    return text[:1].upper() + text[1:]


def _variants(short: str, long: str) -> list[tuple[str, str]]:
    pairs = [(short, long)]
    if short[:1].isalpha() and short[:1].islower():
        pairs.append((_capital(short), _capital(long)))
    return pairs


@cache
def load_dictionary(path: Path = DICTIONARY_FILE) -> Dictionary:
    data = tomllib.loads(path.read_text(encoding="utf-8"))
    entries = tuple(
        Entry(long, short, int(key.removeprefix("tier")))
        for key, pairs in data["entries"].items()
        for long, short in pairs
    )
    drops = {int(k.removeprefix("tier")): frozenset(v) for k, v in data["drops"].items()}
    dictionary = Dictionary(str(data["name"]), str(data["version"]), entries, drops)
    _check(dictionary)
    return dictionary


def _check(dictionary: Dictionary) -> None:
    """The rules that make decoding exact; a broken dictionary fails loudly."""
    owners: dict[str, str] = {}
    longs = {e.long for e in dictionary.entries}
    for entry in dictionary.entries:
        if not entry.short or any(c.isspace() or c == "`" for c in entry.short):
            raise ValueError(f"CCL short form {entry.short!r}: one chunk, no backticks")
        for short, long in _variants(entry.short, entry.long):
            if owners.setdefault(short, long) != long or short in longs:
                raise ValueError(f"CCL short form {short!r} is ambiguous")


def _segments(text: str) -> list[tuple[bool, str]]:
    """(is_prose, part) in order: code blocks and inline code are not prose."""
    parts, position = [], 0
    for match in _CODE.finditer(text):
        parts += [(True, text[position : match.start()]), (False, match.group())]
        position = match.end()
    parts.append((True, text[position:]))
    return [(prose, part) for prose, part in parts if part]


def _split(chunk: str) -> tuple[str, str, str]:
    core = chunk.lstrip(_LEAD)
    lead = chunk[: len(chunk) - len(core)]
    bare = core.rstrip(_TRAIL)
    return lead, bare, core[len(bare) :]


def _expansion(chunk: str, expansions: dict[str, str]) -> str | None:
    """`chunk` with its short form expanded, widest core first; None if it has none."""
    lead = len(chunk) - len(chunk.lstrip(_LEAD))
    trail = len(chunk) - len(chunk.rstrip(_TRAIL))
    for start in range(lead + 1):
        for end in range(len(chunk), len(chunk) - trail - 1, -1):
            long = expansions.get(chunk[start:end]) if start < end else None
            if long is not None:
                return chunk[:start] + long + chunk[end:]
    return None


def _protected(chunk: str) -> bool:
    return "://" in chunk or "[[" in chunk or "]]" in chunk or "](" in chunk


def encode(text: str, tier: int, dictionary: Dictionary | None = None) -> str:
    """`text` at `tier` (0 returns it unchanged)."""
    if tier not in TIERS:
        raise ValueError(f"CCL tier must be one of {TIERS}, not {tier}")
    if tier == 0:
        return text
    book = dictionary or load_dictionary()
    coder = _Encoder(book.active(tier), book.dropped(tier), book.expansions)
    return "".join(
        coder.prose(_restructured(part, tier)) if prose else part for prose, part in _segments(text)
    )


def _restructured(text: str, tier: int) -> str:
    """The lossy layout changes: from T2 no bold markers or blank lines, at T3 no
    full stop after a line's last plain word."""
    if tier >= 2:
        text = _BOLD.sub(r"\1", text)
        text = _BLANK_LINES.sub("\n", text)
    if tier >= 3:
        text = _LINE_END_STOP.sub(r"\1", text)
    return text


def decode(text: str, dictionary: Dictionary | None = None) -> str:
    """Every short form back to its long form; escaped chunks back to themselves."""
    expansions = (dictionary or load_dictionary()).expansions
    return "".join(
        "".join(_decoded(chunk, expansions) for chunk in _SPACE.split(part)) if prose else part
        for prose, part in _segments(text)
    )


def _decoded(chunk: str, expansions: dict[str, str]) -> str:
    if chunk.startswith(ESCAPE):
        return chunk[1:]
    if not chunk or chunk.isspace() or _protected(chunk):
        return chunk
    return _expansion(chunk, expansions) or chunk


class _Encoder:
    def __init__(self, active: dict[str, str], drops: frozenset[str], shorts: dict[str, str]):
        self.shorts = shorts
        self.drops = drops | {_capital(word) for word in drops}
        self.phrases: dict[str, list[tuple[list[str], str]]] = {}
        for long, short in active.items():
            for written_long in (long, _capital(long)):
                words = written_long.split(" ")
                written_short = short if written_long == long else _capital(short)
                if written_long != long and not (short[:1].isalpha() and short[:1].islower()):
                    continue  # "&" has no capital: "And" stays
                self.phrases.setdefault(words[0], []).append((words, written_short))
        for options in self.phrases.values():
            options.sort(key=lambda item: -len(item[0]))

    def prose(self, text: str) -> str:
        parts = _SPACE.split(text)  # chunks at even places, whitespace at odd ones
        out: list[str] = []
        i = 0
        while i < len(parts):
            chunk = parts[i]
            if i % 2 or not chunk:
                out.append(chunk)
                i += 1
                continue
            replaced, used = self._phrase(parts, i)
            if replaced is not None:
                out.append(replaced)
                i += used
            elif chunk in self.drops and i + 1 < len(parts):
                if "\n" not in parts[i + 1]:
                    i += 2  # the word and the space after it
                    continue
                if out and out[-1].isspace() and "\n" not in out[-1]:
                    out.pop()  # the line ends here: keep its line break, not the space
                i += 1
            else:
                out.append(self._literal(chunk))
                i += 1
        return "".join(out)

    def _phrase(self, parts: list[str], i: int) -> tuple[str | None, int]:
        lead, first, trail = _split(parts[i])
        for words, short in self.phrases.get(first, []) if not _protected(parts[i]) else []:
            span = 2 * len(words) - 1
            if i + span > len(parts):
                continue
            chunks = parts[i : i + span : 2]
            spaces = parts[i + 1 : i + span : 2]
            if any(space != " " for space in spaces):
                continue
            last_lead, last, last_trail = _split(chunks[-1])
            if len(words) == 1:
                if first == words[0]:
                    return lead + short + trail, 1
                continue
            middle_plain = all(
                chunk == word for chunk, word in zip(chunks[1:-1], words[1:-1], strict=True)
            )
            if trail == "" and not last_lead and last == words[-1] and middle_plain:
                return lead + short + last_trail, span
        return None, 0

    def _literal(self, chunk: str) -> str:
        if chunk.startswith(ESCAPE):
            return ESCAPE + chunk
        if _protected(chunk) or _expansion(chunk, self.shorts) is None:
            return chunk
        return ESCAPE + chunk


@dataclass(frozen=True)
class TierSavings:
    tier: int
    chars: int
    char_savings: float  # share of the original's characters saved
    tokens: int | None = None
    token_savings: float | None = None


def analyze(text: str, count_tokens: Callable[[str], int] | None = None) -> list[TierSavings]:
    """Characters (and tokens, given a counter) at every tier, against T0."""
    base_chars = max(len(text), 1)
    base_tokens = count_tokens(text) if count_tokens else None
    found = []
    for tier in TIERS:
        encoded = encode(text, tier)
        tokens = count_tokens(encoded) if count_tokens else None
        token_savings = (
            round(1 - tokens / base_tokens, 4) if tokens is not None and base_tokens else None
        )
        found.append(
            TierSavings(
                tier, len(encoded), round(1 - len(encoded) / base_chars, 4), tokens, token_savings
            )  # fmt: skip
        )
    return found
