"""What a memory's wording states, read without an LLM (pure): sentences,
content words, values (numbers keyed by what they measure), proper names,
negated terms, environments, exception wording and change wording. The
relations between memories (relations.py) are decided on these facts.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cached_property, lru_cache

from memory.consolidation.gist import gist_sentences
from vault.lazy_pattern import LazyPattern
from vault.stopwords import STOPWORDS

_WORD = LazyPattern(r"`[^`]+`|[A-Za-z][\w'+]*(?:[./\-][\w+]+)*")
# A number: not part of a word, code or path; a colon may end it ("locked to 2.7: ...").
_NUMBER = LazyPattern(r"(?<![\w.\-/:])(\d+(?:[.:]\d+)*)(%|st|nd|rd|th|)(?![\w\-/]|[.:]\d)")
UNITS = {
    "s": "second", "sec": "second", "secs": "second", "second": "second", "seconds": "second",
    "ms": "millisecond", "minute": "minute", "minutes": "minute", "min": "minute",
    "hour": "hour", "hours": "hour", "day": "day", "days": "day", "week": "week", "weeks": "week",
    "kb": "kb", "mb": "mb", "gb": "gb", "tb": "tb", "percent": "percent",
}  # fmt: skip
# Words that name where a fact holds: facts about different environments differ.
ENVIRONMENTS = {
    "production": "production", "prod": "production", "staging": "staging",
    "development": "development", "dev": "development", "local": "local", "locally": "local",
}  # fmt: skip
_EXCEPTION = LazyPattern(
    r"\b(exceptions?|exempt|except for|the one allowed|the only allowed)\b", re.IGNORECASE
)
_CHANGE = LazyPattern(
    r"\b(now|no longer|moved|switched|replaced|migrated|changed|raised|lowered|bumped|"
    r"upgraded|downgraded|gone|anymore|from now on|dropped|renamed|as of|these days|"
    r"starting (?:next|this|from|on|in|today|tomorrow|q[1-4]|jan\w*|feb\w*|mar\w*|apr\w*|may|"
    r"jun\w*|jul\w*|aug\w*|sep\w*|oct\w*|nov\w*|dec\w*)|going forward|^set|passed (?:over )?to|"
    r"handed (?:over )?to|took over|taken over|went over|(?:has|have) left|retired|ripped out|"
    r"swapped|deprecated|scaled|increased|decreased|reduced|(?:got|been) pushed|raise|lower|"
    r"bump|relaxed|tightened|formerly|previously|purged|phased out|instead(?! of))\b",
    re.IGNORECASE,
)
# "moved off Heroku", not "kick off the suite" or "sign-off from Marek".
_OFF = r"(?<![-\w])(?<!kick )(?<!sign )(?<!log )(?<!set )(?<!show )(?<!pay )(?<!start )off "
# What a change says was there before: "from X to", "off X", "X is gone", "the old X".
_REPLACED = [
    LazyPattern(pattern, re.IGNORECASE)
    for pattern in (
        r"\bfrom ([^,;:.]+?) to\b", _OFF + r"([^,;:.]+?)(?= to\b|[,;:.]|$)",
        r"\b([\w.\-`]+(?: [\w.\-`]+)?) (?:is|are|was|were|got|has been|have been|is being|"
        r"are being) (?:gone|removed|retired|replaced|dropped|deleted|out|no longer used|"
        r"ripped out|torn out|scrapped|decommissioned|shut down|turned off|switched off|sunset|"
        r"deprecated|purged|swapped out|phased out|taken out)\b",
        r"\b(?:formerly|previously) ([^,;:.]+)",
        r"\bno longer (?:in |on |at )?([^,;:.]+)",
        r"\bthe old ([^,;:.]+)", r"\breplaced ([^,;:.]+?) with\b",
        r"\b(?:has|have|had) left ([^,;:.]+)", r"\bripped out ([^,;:.]+)",
        r"\b(?:moved|switched|migrated) away from ([^,;:.]+)",
        r"\b(?:dropp(?:ed|ing)|ditch(?:ed|ing)|abandon(?:ed|ing)|retir(?:ed|ing)|"
        r"scrapp(?:ed|ing)|decommission(?:ed|ing)|sunsett?(?:ed|ing)|(?:shut|turned|switched) "
        r"(?:down|off)) ([^,;:.]+?)(?= for\b| in favou?r\b|[,;:.]|$)",
        r"\b(?:took|taken|taking|takes) over (?:[^,;:.]+? )?from ([^,;:.]+)",
    )
]  # fmt: skip
# Someone named as gone ("since Mara left"): their role is someone else's now.
_LEFT = LazyPattern(
    r"\b([A-Z][a-z]+) (?:has |had )?(?:left|quit|moved (?:over )?to|joined|transferred)\b"
)
_PHRASE_END = LazyPattern(r"\b(?:in|on|at|for|with|by|so|because|but|which|that|when|while)\b")
_NEGATION = LazyPattern(
    r"\b(?:rather than|instead of|in place of|not|never|no|don't|do not|without)\b"
    r"((?:[^,;:.]|\.(?=\w))*)",
    re.IGNORECASE,
)
# A negation's scope ends at a preposition: "no modules in logslice" negates the modules.
_LEADING_PREPOSITION = LazyPattern(r"^\s*(?:as|in|to|for|on|at|with|from|by)\b", re.IGNORECASE)
_SCOPE_END = LazyPattern(r"\b(?:in|for|of|on|at|from|with|by|so|because|but|when|while)\b")
_POSSESSIVE = LazyPattern(r"\b([A-Z][a-z]+)'s\b")
# "Caroline: ..." in a transcript; not a label ("Correction:", "Payments API:").
_SPEAKER = LazyPattern(r"^([A-Z][a-z'.-]*(?: [A-Z][a-z'.-]*)?):\s")
_LABELS = frozenset(
    "correction update note fyi decision summary reminder edit context rule policy todo "
    "warning important tip update heads".split()
)
_NAMED_SUBJECT = LazyPattern(r"(?:^|[.;:]\s+)([A-Z][a-z]+) (?:is|owns|was|has|leads|runs)\b")
_MID_NAME = LazyPattern(r"(?<=[a-z,] )([A-Z][a-z]+(?: [A-Z][a-z]+)*)")
_VOCATIVE = LazyPattern(r", ([A-Z][a-z]+)[,!?.]")  # "Thanks, Evan!": who is addressed, not a fact
_COMMON = STOPWORDS | {"use", "user", "users", "prefer", "prefers", "keep", "always", "never"}
_CALENDAR = frozenset(
    "monday tuesday wednesday thursday friday saturday sunday mon tue wed thu fri sat sun "
    "january february march april may june july august september october november december "
    "jan feb mar apr jun jul aug sep sept oct nov dec".split()
)


@dataclass(frozen=True)
class Facts:
    """What one memory's core wording (its gist when it is long) states."""

    core: str
    tokens: frozenset[str]  # stemmed content words (code-ish words also split on / . -)
    negated: frozenset[str]  # tokens said in a negation ("not X", "rather than X")
    values: dict[str, frozenset[str]]  # numbers by what they measure: {"port": {"8080"}}
    numbers: frozenset[str]  # every number, keyed or not
    names: frozenset[str]  # proper names stated affirmatively (Priya, Redux Toolkit)
    environments: frozenset[str]  # production, staging, ...
    exception: bool  # states an exception to a rule ("the one allowed ...")
    change: bool  # says something changed ("moved", "now", "switched")
    replaced: frozenset[str]  # tokens of what a change says was there before
    former: frozenset[str]  # values named as the ones before ("from 8000", "was 3.11")
    speaker: str = ""  # who said it, when the text starts "Name: ..."
    marked: frozenset[str] = frozenset()  # tokens written as names: Tokyo, EU, MkDocs
    question: bool = False  # its core asks rather than states
    stated: frozenset[str] = frozenset()  # tokens said outside every negation
    gone_values: frozenset[str] = frozenset()  # numbers of what it says was before

    @property
    def affirmed(self) -> frozenset[str]:
        return self.tokens - self.negated

    @cached_property  # the judge asks for it on every pair (a frozen value: computed once)
    def specific_values(self) -> frozenset[str]:
        """Numbers and digit-bearing codes (eu-west-1): the details that pin a fact."""
        coded = {t for t in self.tokens if any(c.isdigit() for c in t) and not t.isdigit()}
        return self.numbers | coded


@lru_cache(maxsize=65536)
def stem(word: str) -> str:
    """A crude English stem, the same for every text compared (fixtures -> fixtur)."""
    for suffix, keep in (("ies", "y"), ("ing", ""), ("ed", ""), ("es", ""), ("s", "")):
        if word.endswith(suffix) and len(word) - len(suffix) >= 3:
            return word[: -len(suffix)] + keep
    return word


def tokens(text: str) -> frozenset[str]:
    found: set[str] = set()
    for match in _WORD.finditer(text):
        word = re.sub(r"'(?:s|t|re|ll|ve|d)$", "", match.group(0).strip("`").lower().rstrip(".'"))
        if word in _COMMON:
            continue
        found.add(stem(word))
        if re.search(r"[./\-]", word):
            found |= {stem(p) for p in re.split(r"[./\- ]+", word) if p and p not in _COMMON}
    return frozenset(found)


# "10 requests a second", "600 requests per minute": a rate, keyed by what it counts.
_PER = LazyPattern(r" (?:per|a|an|each|every|1) (second|minute|hour|day|week)\b")  # "a": spelled 1


def keyed_numbers(text: str) -> list[tuple[str, str]]:
    """(what, value) for each number: a version, a time of day, a port, or the
    unit after it ("30 seconds", "8 processes"); "" when nothing says."""
    found = []
    for match in _NUMBER.finditer(text):
        value = match.group(1) + match.group(2)
        before = [w.lower() for w in re.findall(r"[A-Za-z]+", text[: match.start()])[-3:]]
        after_match = re.match(r" ([A-Za-z]+)", text[match.end() :])
        after = after_match.group(1) if after_match else ""
        if match.group(2) == "%":
            key = "percent"
        elif match.group(2):
            key = "ordinal"  # "on the 5th of each month"
        elif re.fullmatch(r"\d{1,2}:\d\d", value):
            key = "time"
        elif re.fullmatch(r"\d+\.\d+(?:\.\d+)?", value):
            key = "version"
        elif "port" in before:
            key = "port"
        elif after.lower() in UNITS:
            key = UNITS[after.lower()]
        elif after.islower() and len(after) > 2 and after not in STOPWORDS:
            rate = _PER.match(text, match.end() + len(after) + 1)
            key = stem(after) + (f" per {rate.group(1)}" if rate else "")
        else:
            key = ""
        found.append((key, value))
    return found


def negated_terms(text: str) -> frozenset[str]:
    found: set[str] = set()
    for match in _NEGATION.finditer(text):
        scope = _LEADING_PREPOSITION.sub("", match.group(1))
        found |= tokens(_SCOPE_END.split(scope)[0])
    return frozenset(found)


_CONTRASTED = LazyPattern(
    r"\b(?:instead of|rather than|in place of|(?:prefer(?:s|red)?|chose|picked|went with|"
    r"favou?r(?:s|ed)?)\b[^,;:.]*?\b(?:to|over))\s+"
    r"([^,;:.]+)",
    re.IGNORECASE,
)


def contrasted_terms(text: str) -> frozenset[str]:
    """What a choice is made against: "loguru instead of structlog" -> structlog."""
    found: set[str] = set()
    for match in _CONTRASTED.finditer(text):
        found |= tokens(_SCOPE_END.split(match.group(1))[0])
    return frozenset(found)


def replaced_values(text: str) -> frozenset[str]:
    """The numbers of what a change says was there before ("off port 8004")."""
    found: set[str] = set()
    for pattern in _REPLACED:
        for match in pattern.finditer(text):
            phrase = _PHRASE_END.split(match.group(1))[0]
            found |= {m.group(1) + m.group(2) for m in _NUMBER.finditer(phrase)}
    return frozenset(found)


def replaced_terms(text: str) -> frozenset[str]:
    found: set[str] = set()
    for pattern in _REPLACED:
        for match in pattern.finditer(text):
            found |= tokens(_PHRASE_END.split(match.group(1))[0])
    found |= {stem(name.lower()) for name in _LEFT.findall(text) if name.lower() not in _COMMON}
    return frozenset(found)


def stated_terms(text: str) -> frozenset[str]:
    """The tokens said outside every negation and contrast ("rebase on main rather
    than merging main in" states main): what the text affirms somewhere."""
    kept = text
    for pattern in (_NEGATION, _CONTRASTED):
        for match in pattern.finditer(text):
            scope = match.group(1)
            lead = _LEADING_PREPOSITION.match(scope)
            start = match.start(1) + (lead.end() if lead else 0)
            end = start + len(_SCOPE_END.split(scope[lead.end() if lead else 0 :])[0])
            kept = kept[:start] + " " * (end - start) + kept[end:]
    return tokens(kept)


def proper_names(text: str) -> frozenset[str]:
    """People and products named with capitals: "Priya's", "Sam is", "Redux Toolkit"."""
    found = {name.lower() for name in _POSSESSIVE.findall(text)}
    found |= {name.lower() for name in _NAMED_SUBJECT.findall(text)}
    found |= {name.lower() for name in _MID_NAME.findall(text)}
    found -= {name.lower() for name in _VOCATIVE.findall(text)}
    return frozenset(name for name in found if name not in _COMMON | _CALENDAR)


_MARKED = LazyPattern(r"(?<=[\w,;)'] )[A-Z][\w'+]*(?:[./\-][\w+]+)*|\b[A-Z]{2,}\w*")


def marked_words(text: str) -> frozenset[str]:
    """The tokens of words capitalised where grammar does not ask for it (not a
    sentence's first word) or written in capitals: the names of things."""
    return frozenset(t for match in _MARKED.finditer(text) for t in tokens(match.group(0)))


_SPELLED = "one two three four five six seven eight nine ten eleven twelve"
_NUMBER_WORDS = {word: str(n) for n, word in enumerate(_SPELLED.split(), 1)}
_NUMBER_WORD = LazyPattern(rf"\b({'|'.join(_NUMBER_WORDS)})\b(?= [a-z])", re.IGNORECASE)
# A value named as the one before ("moved from 8000", "was 3.11"): not the current one.
_FORMER = LazyPattern(
    r"\b(?:from|was|were|instead of|rather than|no longer|not)\s+(?:[a-z]+\s+)?"
    r"(\d+(?:[.:]\d+)*%?)(?![\w\-/:]|\.\d)",
    re.IGNORECASE,
)
# How often, said without a number: "weekly" is every 1 week (as "every 2 weeks" is 2).
_EVERY_UNIT = {"hourly": "hour", "hour": "hour", "daily": "day", "nightly": "day", "day": "day",
               "night": "day", "weekly": "week", "week": "week"}  # fmt: skip
_EVERY = LazyPattern(r"\b(hourly|daily|nightly|weekly|every (?:hour|day|night|week))\b", re.I)
_WEEKDAY = LazyPattern(r"\b(mon|tues|wednes|thurs|fri|satur|sun)days?\b", re.IGNORECASE)


def _speaker(label: str) -> str:
    lowered = label.lower()
    return "" if lowered.split()[0] in _LABELS or lowered in STOPWORDS else lowered


# A unit written onto its number ("15s", "512MB") and "an hour": numbers keyed by unit.
_GLUED = LazyPattern(r"\b(\d+)(ms|s|sec|secs|min|mins|h|kb|mb|gb|tb)\b", re.IGNORECASE)
_ONE_UNIT = LazyPattern(r"\b(?:an?|one) (second|minute|hour|day|week)\b", re.IGNORECASE)
_GLUED_UNITS = {"h": "hours", "mins": "minutes", "min": "minutes"}


def _spelled_out(core: str) -> str:
    """Numbers as digits with their unit apart: "two approvals" -> "2 approvals",
    "15s" -> "15 s", "an hour" -> "1 hour"."""
    spelled = _NUMBER_WORD.sub(lambda m: _NUMBER_WORDS[m.group(1).lower()], core)
    spelled = _GLUED.sub(
        lambda m: f"{m.group(1)} {_GLUED_UNITS.get(m.group(2).lower(), m.group(2))}", spelled
    )
    return _ONE_UNIT.sub(lambda m: f"1 {m.group(1)}", spelled)


@lru_cache(maxsize=4096)  # capture compares each neighbour with each statement
def analyse(text: str) -> Facts:
    core = " ".join(gist_sentences(text)) or " ".join(text.split())
    values: dict[str, set[str]] = {}
    numbers = set()
    spelled = _spelled_out(core)
    for key, value in keyed_numbers(spelled):  # "two approvals" is 2 of them
        numbers.add(value)
        if key:
            values.setdefault(key, set()).add(value)
    former = set(_FORMER.findall(spelled))
    values = {key: found - former or found for key, found in values.items()}
    for day in _WEEKDAY.findall(core):  # "cut on Thursdays": a value of the day it happens
        values.setdefault("weekday", set()).add(day.lower())
    for word in _EVERY.findall(core):  # "weekly", "every night": once a week, once a day
        values.setdefault(_EVERY_UNIT[word.lower().split()[-1]], set()).add("1")
    negated = negated_terms(core)
    lowered = re.findall(r"[a-z]+", text.lower())
    speaker = _SPEAKER.match(text)
    return Facts(
        core=core,
        tokens=tokens(core),
        negated=negated,
        values={key: frozenset(found) for key, found in values.items()},
        numbers=frozenset(numbers),
        names=frozenset(n for n in proper_names(core) if stem(n) not in negated),
        environments=frozenset(ENVIRONMENTS[w] for w in lowered if w in ENVIRONMENTS),
        exception=bool(_EXCEPTION.search(text)),
        change=bool(_CHANGE.search(core)),
        replaced=replaced_terms(core),
        gone_values=replaced_values(core),
        former=frozenset(former),
        speaker=_speaker(speaker.group(1)) if speaker else "",
        question=core.rstrip().endswith("?"),
        marked=marked_words(core),
        stated=stated_terms(core),
    )


def says_change(text: str) -> bool:
    """The text names what was there before ("moved from port 7001 to 7400", "off
    Heroku", "X is gone", "no longer"): capture weighs such a statement against
    the memories even when it reads as passing. "now" alone is not enough."""
    core = " ".join(text.split())
    return bool(replaced_terms(core) or _FORMER.search(core))
