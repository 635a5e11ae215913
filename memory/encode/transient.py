"""Whether a statement says it holds only for now (pure): "down until the
evening", "for the rest of the week", "a stopgap", "I'm busy with X this
afternoon". Capture files such a statement as kind `status`, which fades in
days and is never offered back from the archive (README, How memory lasts).

The wording is a general list of how people bound a state in time, written
from ordinary English, not from any benchmark's sentences. It must not catch
a standing statement that happens to name a day: "from today on", "as of this
week", "we decided today" state something lasting, so they are checked first.
"""

from __future__ import annotations

import re

from vault.lazy_pattern import LazyPattern
from vault.stopwords import STOPWORDS

_DAY = r"(?:mon|tues|wednes|thurs|fri|satur|sun)day"
_PART_OF_DAY = r"(?:morning|afternoon|evening|night)"
# Something soon that ends the state: a time, or an event that fixes it.
_SOON = (
    rf"(?:tonight|tomorrow(?: {_PART_OF_DAY})?|today|later(?: today| on)?|lunch(?:time)?|noon|"
    rf"this {_PART_OF_DAY}|the {_PART_OF_DAY}|eod|end of (?:the |this )?(?:day|week|sprint)|"
    rf"the end of (?:the |this )?(?:day|week|sprint)|(?:next )?{_DAY}|next week|the weekend|"
    r"(?:the|a|our|their) (?:fix|patch|hotfix|rollback|revert|upgrade|outage|incident|"
    r"maintenance|release|deploy|vendor)\b[^,.;]{0,40}?\b(?:lands?|ships?|goes (?:out|in)|"
    r"is (?:merged|deployed|out|over|done|back|fixed|resolved|applied)|ends?|finish(?:es)?)|"
    r"(?:it|they|that|this|the \w+(?: \w+)?) (?:is|are|comes?|gets?) (?:back|fixed|resolved|"
    r"sorted|restored|up again|back up))"
)
_BOUNDS = [
    # "until tonight", "till the patch lands"
    rf"\b(?:until|till|til|'til)\s+{_SOON}",
    # "for the rest of the day", "for this afternoon", "during this week only"
    rf"\b(?:for|during|over)\s+(?:the rest of\s+)?(?:today|tonight|this (?:{_PART_OF_DAY}|week|"
    rf"sprint)|the (?:{_PART_OF_DAY}|day|week))\b",
    # "this week only", "today only", "only for today"
    rf"\b(?:today|tonight|this (?:{_PART_OF_DAY}|week|sprint)) only\b",
    rf"\bonly (?:for )?(?:today|tonight|this (?:{_PART_OF_DAY}|week|sprint))\b",
    # "for the next couple of hours", "for a few days"
    r"\bfor (?:the (?:next|coming)|a) (?:few|couple(?: of)?|\d+|two|three|several) "
    r"(?:minutes|hours|days)\b",
    r"\bfor (?:an|the next) hour\b",
    # a workaround that says it is one
    r"\b(?:temporary|temp|interim|short-term) (?:workaround|fix|hack|measure|patch|setup)\b",
    r"\bstop-?gap\b",
]
_NOW = (
    rf"\b(?:right now|at the moment|atm|just now|currently|this {_PART_OF_DAY}|today|tonight|"
    rf"since (?:this {_PART_OF_DAY}|earlier|lunch|an hour ago))\b"
)
# A passing state of a thing (with a marker of now it is a status, not a trait).
_PASSING = (
    r"\b(?:is|are|was|were|'s|'re|went|keeps?|kept|seems?)\s+(?:\w+\s+)?(?:down|red|broken|"
    r"failing|flapping|offline|unreachable|stuck|hanging|wedged|acting up|misbehaving|"
    r"out of (?:disk|space|memory|quota)|under maintenance|in maintenance|being (?:patched|"
    r"rebuilt|redeployed|migrated|upgraded|restarted|fixed)|paused|frozen|degraded|"
    r"timing out|crashing|on fire|unavailable|not responding)\b"
)
# The speaker's own activity of the moment: "I'm in the middle of ...", "I'm off".
_DOING = (
    r"\b(?:i'?m|i am)\s+(?:(?:in the middle of|busy with|stuck on|heads-? down on|knee-deep in|"
    r"off|out|away|on call|afk|offline|pairing|travell?ing)\b|(?:\w+\s+){0,2}?\w+ing\b)"
)
# Standing wording: a change or rule that starts now (and then lasts).
_STANDING = LazyPattern(
    rf"\b(?:from (?:now|today|tomorrow|here|this (?:week|sprint)|next week|{_DAY}) on(?:wards)?|"
    rf"from now|going forward|starting (?:now|today|tomorrow|this|next|{_DAY})|"
    rf"as of (?:now|today|tomorrow|this|next|{_DAY})|permanently|for good|from here on|"
    r"always|never|every (?:day|morning|night|week|time)|each (?:day|morning|week|time)|"
    r"by default|anymore|no longer|(?:we|i) (?:decided|agreed|settled))\b",
    re.IGNORECASE,
)
_BOUND = LazyPattern("|".join(_BOUNDS), re.IGNORECASE)
_NOW_RE = LazyPattern(_NOW, re.IGNORECASE)
_PASSING_RE = LazyPattern(_PASSING, re.IGNORECASE)
_DOING_RE = LazyPattern(_DOING, re.IGNORECASE)
_SENTENCE = LazyPattern(r"(?<=[.!?;])\s+|\n+")
_NEXT_WORD = LazyPattern(r"\s+([A-Za-z]+)")
# After a bound, these words go on with the sentence; any other word makes the
# bound a modifier of a noun ("for the morning revenue email").
_GOES_ON = frozenset({"since", "though", "least", "anyway"})


def standing(text: str) -> bool:
    """Whether `text` says something starts now and lasts ("from today on",
    "as of Monday", "no longer")."""
    return _STANDING.search(text) is not None


def bounded_to_now(text: str) -> str | None:
    """The words that bound `text` to now ("until tonight", "right now ... down"),
    or None when it may last: no bound, or a sentence of it is standing."""
    sentences = [s for s in _SENTENCE.split(text) if s.strip()]
    if any(_STANDING.search(s) for s in sentences):
        return None
    for sentence in sentences:
        bound = next((b for b in _BOUND.finditer(sentence) if _ends_phrase(sentence, b)), None)
        if bound:
            return bound.group(0)
        now = _NOW_RE.search(sentence)
        if now is None:
            continue
        state = _PASSING_RE.search(sentence) or _DOING_RE.search(sentence)
        if state:
            return f"{now.group(0)} ... {state.group(0).strip()}"
    return None


def _ends_phrase(sentence: str, bound: re.Match[str]) -> bool:
    """The bound is a phrase of its own: what follows is punctuation, the end or
    a word that carries the sentence on, not the noun it would qualify."""
    after = _NEXT_WORD.match(sentence, bound.end())
    if after is None:
        return True
    word = after.group(1).lower()
    return word in STOPWORDS or word in _GOES_ON
