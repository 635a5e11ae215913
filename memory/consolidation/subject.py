"""Which thing two statements are about, read from how their wording lines up
(pure): the same sentence with another qualifier before a shared head ("the
orders service" / "the payments service", "the EU cluster" / "the US cluster")
or after "for"/"of" is about another thing; the same sentence with only its
last slot swapped ("managed in Crowdin" / "managed in Lokalise") states a new
value of the same thing. It must not decide change or restatement on its own:
relations.py weighs these with the values, names and change wording.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from difflib import SequenceMatcher
from functools import lru_cache

from memory.consolidation.text import UNITS, stem
from vault.lazy_pattern import LazyPattern
from vault.stopwords import STOPWORDS

_WORD = LazyPattern(r"[A-Za-z0-9#@~/][\w'.:/\-#@~]*")
# "max upload size for avatars", "backup of the users db", "the cluster in Tokyo has"
_QUALIFYING = frozenset({"for", "of", "in", "at", "on"})
MAX_SLOT_WORDS = 3
_MEASURES = frozenset({"port", "version", "sdk", "v", "python", "node", "ruby", "every", "per"})
# How instructions and preferences open ("Use pytest fixtures", "Prefers pytest
# fixtures"): a different opening verb does not name another thing.
_OPENERS = frozenset(
    stem(w)
    for w in "use prefer write keep avoid run always never add put make let go "
    "stick pick choose want like".split()
)
_NUMBER_WORDS = frozenset("one two three four five six seven eight nine ten twelve".split())
# Words that only say that or when something changed, or why.
_CHANGE_WORDS = frozenset(
    "now since after as this these days from on starting week month quarter sprint "
    "today anymore instead rather than".split()
)
# Words that open a clause saying when or why (after a changed value).
_WHEN_OR_WHY = frozenset(
    "after since because as from starting until following so in on for when once".split()
)
_CALENDAR = frozenset(
    "monday tuesday wednesday thursday friday saturday sunday mondays tuesdays wednesdays "
    "thursdays fridays saturdays sundays".split()
)


@dataclass(frozen=True)
class Word:
    text: str  # as written
    key: str  # lower-cased, stemmed, no possessive: what alignment compares


def words(text: str) -> list[Word]:
    return list(_words(text))


@lru_cache(maxsize=8192)
def _words(text: str) -> tuple[Word, ...]:
    """Read once per text: every pair a memory is in aligns its words again."""
    found = []
    for match in _WORD.finditer(text):
        raw = match.group(0).rstrip(".:,;'")
        lowered = re.sub(r"'s?$", "", raw.lower())
        if lowered:
            found.append(Word(raw, stem(lowered)))
    return tuple(found)


def _is_value(word: Word) -> bool:
    return any(c.isdigit() for c in word.text) or word.key in _CALENDAR | _NUMBER_WORDS


def _is_head(word: Word) -> bool:
    """A content word that can head a noun phrase (not a value, not a stopword)."""
    return word.text.lower() not in STOPWORDS and not _is_value(word)


@dataclass(frozen=True)
class Swap:
    left: list[Word]
    right: list[Word]
    before: list[Word]  # the aligned words just before
    after: list[Word]  # the aligned words just after
    at_start: bool
    tail: list[Word]  # the newer's last words, after its slot, when the swap ends it


def swaps(older: str, newer: str) -> list[Swap]:
    """The stretches one sentence has where the other has different words, both
    non-empty, in sentences that otherwise line up."""
    a, b = words(older), words(newer)
    ops = SequenceMatcher(None, [w.key for w in a], [w.key for w in b], autojunk=False)
    codes = ops.get_opcodes()
    found = []
    for n, (tag, i1, i2, j1, j2) in enumerate(codes):
        if tag != "replace":
            continue
        prev = codes[n - 1] if n else None
        nxt = codes[n + 1] if n + 1 < len(codes) else None
        before = a[prev[1] : prev[2]] if prev and prev[0] == "equal" else []
        after = a[nxt[1] : nxt[2]] if nxt and nxt[0] == "equal" else []
        right, tail = b[j1:j2], []
        if nxt is None:  # the newer's tail may add when or why: "Fastly after the migration"
            right = _until_filler(right)
            tail = b[j1 + len(right) : j2]
        found.append(Swap(a[i1:i2], right, before, after, i1 == 0, tail))
    return found


def _until_filler(side: list[Word]) -> list[Word]:
    for n, word in enumerate(side):
        if n and (word.text.lower() in STOPWORDS or word.key in _CHANGE_WORDS):
            return side[:n]
    return side


def _unshared(swap: Swap, older: str, newer: str) -> bool:
    """Neither side's words appear anywhere in the other sentence."""
    left_keys = {w.key for w in words(older)}
    right_keys = {w.key for w in words(newer)}
    return not ({w.key for w in swap.left} & right_keys or {w.key for w in swap.right} & left_keys)


def _small(swap: Swap) -> bool:
    return 0 < len(swap.left) <= MAX_SLOT_WORDS and 0 < len(swap.right) <= MAX_SLOT_WORDS


def _plain(swap: Swap) -> bool:
    """Both sides are content words only (no "is", "with"), but for a determiner
    they open with ("for sessions" / "for the job queue")."""
    sides = _opened(swap.left) + _opened(swap.right)
    return not any(w.text.lower() in STOPWORDS for w in sides)


def _opened(side: list[Word]) -> list[Word]:
    start = 0
    while start < len(side) - 1 and side[start].text.lower() in _DETERMINERS:
        start += 1
    return side[start:]


def _identifier(swap: Swap) -> bool:
    """A whole number between two words names which one ("batch job 17 writes")."""
    sides = swap.left + swap.right
    return (
        len(swap.left) == len(swap.right) == 1
        and all(w.text.isdigit() for w in sides)
        and bool(swap.before and swap.after)
        and _is_head(swap.before[-1])
        and swap.before[-1].key not in _MEASURES
        and _is_head(swap.after[0])
        and swap.after[0].text.lower() not in UNITS
    )


def _qualifier(swap: Swap) -> bool:
    """A swap that names which thing: before a shared head noun, or after "for"/"of"."""
    if not _plain(swap):
        return False
    if _identifier(swap) or _named_one(swap):
        return True
    if any(_is_value(w) for w in swap.left + swap.right):
        return False
    if swap.at_start and {w.key for w in swap.left + swap.right} & _OPENERS:
        return False
    if swap.after and _is_head(swap.after[0]):
        return True
    if swap.at_start and swap.after and len(swap.after) >= 2:
        return True  # the sentence's subject: "avatars can be up to 2 MB" / "documents ..."
    before = _undetermined(swap.before)
    return bool(before and before[-1].key in _QUALIFYING and swap.after)


_DETERMINERS = frozenset("the a an our their its this that these those".split())


def _undetermined(side: list[Word]) -> list[Word]:
    """The words before a swap without the determiners that end them ("for the")."""
    end = len(side)
    while end and side[end - 1].text.lower() in _DETERMINERS:
        end -= 1
    return side[:end]


def _coded(word: Word) -> bool:
    """Written as an identifier: letters with a hyphen, underscore or slash, or
    letters and digits together (user-events, prod-a, /v1/orders, db2)."""
    text = word.text
    has_letter = any(c.isalpha() for c in text)
    return has_letter and (any(c in "-_/" for c in text) or any(c.isdigit() for c in text))


def _named_one(swap: Swap) -> bool:
    """One identifier in place of another right after a shared head noun with the
    sentence going on ("the topic user-events is", "queue orders-high has"), or
    right before one ("the /v1/orders endpoint"): the name of which one."""
    if len(swap.left) != 1 or len(swap.right) != 1:
        return False
    if not (_coded(swap.left[0]) and _coded(swap.right[0])):
        return False
    after_head = bool(swap.before and _is_head(swap.before[-1]) and swap.after)
    before_head = bool(swap.after and _is_head(swap.after[0]))
    return after_head or before_head


def _names_only(swap: Swap) -> bool:
    """Both sides are capitalised like a person (Priya, Marco), not acronyms (EU)."""
    return all(w.text[:1].isupper() and not w.text.isupper() for w in swap.left + swap.right)


def other_subject(older: str, newer: str) -> str | None:
    """Why the two are about different things, or None: a swapped qualifier
    ("orders" -> "payments" before "service"), or a swapped person and a swapped
    value both (Priya owns billing / Marco owns search)."""
    found = [s for s in swaps(older, newer) if _small(s) and _unshared(s, older, newer)]
    qualifiers = [s for s in found if _qualifier(s)]
    if len(found) == 1 and qualifiers and _names_only(qualifiers[0]):
        return None  # one person in place of another: a change of who, not of what
    if qualifiers:
        swap = qualifiers[0]
        left = " ".join(w.text for w in swap.left)
        right = " ".join(w.text for w in swap.right)
        return f"about {left} and about {right}"
    return None


def swapped_slot(older: str, newer: str) -> tuple[str, str] | None:
    """The one slot two otherwise aligned sentences fill differently ("managed in
    Crowdin" / "managed in Lokalise"; words saying when or why may follow it),
    or None. Values are left to the value rules; a qualifier names another thing."""
    found = swaps(older, newer)
    if len(found) != 1:
        return None
    swap = found[0]
    if not _small(swap) or not _plain(swap) or not _unshared(swap, older, newer):
        return None
    if _qualifier(swap) and not _names_only(swap):
        return None
    if any(_is_value(w) and w.key not in _CALENDAR for w in swap.left + swap.right):
        return None  # numbers are the value rules' to judge
    if any(w.key in _CHANGE_WORDS for w in swap.left) or not _lined_up_before(older, newer, swap):
        return None
    if swap.tail and swap.tail[0].key not in _CHANGE_WORDS | _WHEN_OR_WHY:
        return None  # "main" / "protected against force pushes": another attribute
    return " ".join(w.text for w in swap.left), " ".join(w.text for w in swap.right)


def _lined_up_before(older: str, newer: str, swap: Swap) -> bool:
    """Up to the swap the two say the same, but for filler words."""
    a, b = words(older), words(newer)
    ops = SequenceMatcher(None, [w.key for w in a], [w.key for w in b], autojunk=False)
    for tag, i1, i2, j1, j2 in ops.get_opcodes():
        if tag == "replace":
            return True
        if tag in ("insert", "delete"):
            extra = a[i1:i2] + b[j1:j2]
            if any(w.text.lower() not in STOPWORDS and w.key not in _CHANGE_WORDS for w in extra):
                return False
    return True


# What is said about a thing (its attributes): two statements that each name one
# the other does not, and share no value, are about two attributes of it ("5
# second timeout" / "retries twice on 5xx"), not one fact said twice.
_ATTRIBUTE_WORDS = {
    "port": "port", "version": "version release", "timeout": "timeout",
    "retry": "retry retries", "owner": "owner owns ownership maintainer",
    "approval": "approval approve approves sign-off", "schedule": "schedule cron",
    "region": "region", "partition": "partition partitions", "retention": "retention retain",
    "replica": "replica replicas", "concurrency": "concurrency", "language": "language written",
    "header": "header", "encryption": "encryption encrypted", "key": "key",
    "latency": "latency", "trigger": "trigger triggered",
}  # fmt: skip
ATTRIBUTES = {stem(w): slot for slot, found in _ATTRIBUTE_WORDS.items() for w in found.split()}


def other_attribute(
    left_tokens: frozenset[str], right_tokens: frozenset[str],
    left_values: frozenset[str], right_values: frozenset[str],
) -> tuple[str, str] | None:  # fmt: skip
    """The attribute each names and the other does not, when they share no value
    (stemmed content tokens and values of each), or None."""
    left = {ATTRIBUTES[t] for t in left_tokens if t in ATTRIBUTES}
    right = {ATTRIBUTES[t] for t in right_tokens if t in ATTRIBUTES}
    if left and right and not left & right and not left_values & right_values:
        return min(left), min(right)
    return None


_LEADING = frozenset("the a an our their its this that these those we i you my".split())
MAX_HEAD_WORDS = 3


def head_words(text: str) -> list[Word]:
    """The words a sentence opens with, up to its verb: content words from the
    start (after a determiner or "our") until the first stopword, a word saying
    when, or a third-person verb ("runs", "keeps"); at most three."""
    found: list[Word] = []
    for word in words(text):
        lowered = word.text.lower()
        if not found and lowered in _LEADING:
            continue
        if lowered in STOPWORDS or word.key in _CHANGE_WORDS or _is_value(word):
            break
        if found and lowered.endswith("s") and not lowered.endswith("ss"):
            break  # "the web app runs": a verb, or a plural that ends the phrase
        found.append(word)
        if len(found) == MAX_HEAD_WORDS:
            break
    return found


def subjects_apart(older: str, newer: str) -> bool:
    """Neither sentence's opening words appear anywhere in the other ("the web
    app runs on Node 18" / "our background worker is on Node 20"): two things
    that share only what they use, not one thing that changed."""
    left, right = head_words(older), head_words(newer)
    if not left or not right:
        return False
    left_all = {w.key for w in words(older)}
    right_all = {w.key for w in words(newer)}

    def meets(side: list[Word], other: set[str]) -> bool:
        return any(
            w.key in other
            or any(len(w.key) >= 4 and len(o) >= 4 and (o.startswith(w.key) or w.key.startswith(o))
                   for o in other)
            for w in side
        )  # fmt: skip

    return not meets(left, right_all) and not meets(right, left_all)
