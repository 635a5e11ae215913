"""The rules of capture as features: what in a turn speaks for a lasting
statement (a rule, a reason, a value, "we always") and what for a passing one
(a command, a reaction, "now", "for this run"). Each feature carries a prior
weight and sign; the rules alone score a turn with the priors, the classifier
(memory/encode/durable_classifier.py) learns around them. Pure Python, no numpy.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable
from dataclasses import dataclass

from vault.lazy_pattern import LazyPattern


def _words(alternatives: str) -> LazyPattern:
    """Any of the |-separated words or phrases (regular expressions), as whole words."""
    return LazyPattern(rf"\b(?:{alternatives})\b", re.IGNORECASE)


_LEAD = (
    r"^\W*(?:(?:ok|okay|k|so|then|and|also|yes|yeah|yep|pls|please|now|good|great|cool|right|"
    r"ah|oh|hmm|wait|alright|fine)[,.!]?\s+)*"
)
COMMAND_VERBS = (
    "run|rerun|add|fix|commit|push|write|build|open|show|try|check|look|make|rename|remove|"
    "delete|implement|refactor|generate|draft|update|set|change|move|split|migrate|launch|start|"
    "kill|trigger|fetch|read|squash|revert|apply|deploy|flash|log|create|give|find|explain|list|"
    "summari[sz]e|bump|pin|merge|install|restart|retry|go ahead|do|put|drop|replace|test|lint|"
    "plan|print|debug|clean|undo|continue|carry on|skip|wait|let'?s|lets|tell|help|review|ship|"
    "send|port|convert|compare|rewrite|clone|cherry-pick|rebase|profile|measure|benchmark"
)
_IMPERATIVE = LazyPattern(_LEAD + rf"(?:{COMMAND_VERBS})\b", re.IGNORECASE)
_IMPERATIVE_ON_IT = LazyPattern(
    _LEAD + rf"(?:{COMMAND_VERBS})\s+(?:it|that|this|them|those|these|both|again|now)\b",
    re.IGNORECASE,
)
_REACTION = LazyPattern(
    r"^\W*(?:ok|okay|k|nice|cool|thanks|thank you|thx|ty|great|perfect|lol|haha|yep|yes|yeah|"
    r"yesss|hmm|good|lovely|beautiful|wonderful|awesome|right|spot on|works|all green|green|"
    r"looks|there we go|much better|better|wow|sweet|done|ugh|oops|damn|argh)\b",
    re.IGNORECASE,
)
_POLITE_REQUEST = LazyPattern(
    rf"\b(?:please|pls|plz|can you|could you|would you|can u)\s+(?:{COMMAND_VERBS})\b",
    re.IGNORECASE,
)
_NEGATED_IMPERATIVE = LazyPattern(
    r"(?:^|[.,;:]\s*|\b(?:please|pls|and|but|so)\s+)(?:don'?t|dont|do not|never)\s+(?:ever\s+)?"
    r"(?!mind\b)\w+",
    re.IGNORECASE,
)
_NO_NOUN = LazyPattern(
    r"(?:^|[.,;:]\s*)no\s+(?!problem|worries|idea|luck|need|way|wait)\w+", re.IGNORECASE
)
_CORRECTION_START = LazyPattern(
    r"^\W*(?:(?:hmm|hm|wait|oh|ah|oh wait|and)[,.]?\s+)*(?:no(?=\s*[,.!:;-])|nope|nah|"
    r"actually|wrong|"
    r"not quite|not correct|not really|that'?s (?:not|wrong|backwards|incorrect)|i think you|"
    r"you'?re (?:wrong|mistaken)|not the)\b",
    re.IGNORECASE,
)
_CONTRAST = LazyPattern(r"\bnot\s+[`'\"]?\w+|, not\b|\binstead\b", re.IGNORECASE)
_VALUE_WITH_UNIT = LazyPattern(
    r"\d+\s*(?:ms|s|sec|seconds?|min|minutes?|h|hours?|days?|weeks?|mb|gb|gi|kb|k|%|px|ua|ma|v|"
    r"rows|replicas|attempts|retries)\b|:\d{2,5}\b|\bv?\d+\.\d+(?:\.\d+)?\b",
    re.IGNORECASE,
)
_BOUND = LazyPattern(
    r"\b(?:under|below|above|at most|at least|no more than|up to|max(?:imum)?|min(?:imum)?|"
    r"capped at|limit(?:ed)? (?:to|at|of))\s+(?:of\s+)?~?\d",
    re.IGNORECASE,
)
_PATH_OR_HOST = LazyPattern(r"\w/\w|(?:^|\s)/\w|\w\.\w+\.\w|\.\w{2,4}\b")
_DISTRIBUTIVE = LazyPattern(
    r"\bper\b|\bone \w+(?: \w+)? (?:per|for each|for every)\b|\beach\b", re.IGNORECASE
)
_EVALUATION = LazyPattern(
    r"\b(?:is|are|looks?|seems?|sounds?)\s+(?:ok|okay|fine|good|great|right|better|correct|"
    r"healthy|reasonable|clean|weird|off|broken)\b",
    re.IGNORECASE,
)
_DEICTIC_SUBJECT = LazyPattern(
    r"^\W*(?:(?:ok|hmm|ah|oh|so|and)[,.]?\s+)*(?:it|they|that|this|these|those|here)\b",
    re.IGNORECASE,
)
_EMOJI_OR_BANG = LazyPattern("[!\U0001f300-\U0001faff\u2600-\u27bf]")

# Word lists (regular expressions, |-separated) of the features below.
GREETING_OR_BREAK = (
    "morning|hi|hello|hey|lunch|brb|back|meeting|see you|for the day|heading|leave|"
    "leaving|coffee|standup|afk|bye|cheers|weekend"
)
TIME_DEIXIS = (
    "(?<!from )now(?! on\\b| that\\b)|today|todays|today'?s|tonight|tonights|tomorrow|"
    "tomorrow'?s|this time|"
    "this run|for now|just for|right now|last night|this morning|meanwhile|again|"
    "currently|current|at the moment|yet|in a minute|later"
)
ONE_OFF_SCOPE = (
    "this time|this run|for now|just for|only on my branch|just this|for this (?:pr|"
    "experiment|run|branch|test|build|one)|only for me|until tomorrow"
)
HEDGE = (
    "maybe|probably|i bet|i guess|i think|might|seems|looks like|not sure|perhaps|"
    r"possibly|i suspect|wonder|at like|like \d"
)
EXPERIMENT = (
    "try|let'?s see|see (?:if|what|whether)|experiment|attempt|for a test|"
    "quick test|test it|play with"
)
UNTIL_SOON = (
    "until (?:tomorrow|today|tonight|friday|monday|tuesday|wednesday|thursday|"
    "saturday|sunday|next week|later|we talk|the meeting|it'?s fixed)"
)
FIRST_PERSON_ACTIVITY = (
    "i'?m|i am|i go|i will|i'?ll|i need to|i have to|gonna|i want to|i'?d like to|"
    "let me|i was|i bet|i guess|i'?ve seen|i suspected|i hoped|i(?:'ve| have|"
    " launch| run| see| just| can| did| tried| got| saw| ran)"
)
TASK_TALK = (
    "today|tackle|i want (?:a|to)|we need (?:a|to)|wants a|let'?s do|let'?s get|"
    "continue with|continuing with|working on|the task"
)
PROBLEM = (
    "fails?|failing|failed|crash(?:es|ed|ing)?|broken|breaks|hangs?|stuck|slow|"
    "flaky|drops|mismatch(?:es)?|red|500s|oomkilled|timing out|times out|"
    "doesn'?t work|not working|regression|bug|weird|exploded|taking forever|down"
)
QUANTIFIER = (
    "every|everywhere|all|any|anything|anyone|anywhere|nothing|nobody|each|whenever|"
    "always|never(?! mind)|by default|no one|none of"
)
REASON = (
    "because|since|so that|otherwise|on purpose|that'?s why|thats why|the reason|"
    r"beats|makes? \w+ (?:easier|harder|faster|slower|bearable)|we got bitten|burned|"
    "came out of|after the|insists|assumes|depends? on|rel(?:y|ies) on"
)
PROJECT_SCOPE = (
    "this repo|this repository|this project|this codebase|this app|this service|"
    "this crate|this firmware|this library|this module|this package|here|in prod|"
    r"in production|in staging|the team|in this \w+"
)
WE_HABITUALLY = (
    "we (?!need|want|should|could|can|might|may|will|would|were|was|had|have to|"
    "just|probably|maybe|also|still|wait|are going)[a-z]+|we'?re (?:on|using|not)|"
    "we are (?:on|using|not)"
)
COPULA = (
    "is|are|isn'?t|aren'?t|lives?|runs? on|comes? from|go(?:es)? (?:to|in|into|"
    "through)|belongs?|owned by|owns|holds?|points? at|expires?|uses?|has|have|"
    "gets?|stays?|follows?|exposes|returns|serves|listens|stores|sends|reads|writes|"
    "calls|expects|accepts|handles|ships|requires|contains|produces|emits|publishes|"
    "consumes|wraps|defaults to|maps to|talks to|connects to|sits"
)
MODAL_RULE = (
    "must|has to|have to|needs? to|need a|should|shall|required|mandatory|"
    "not allowed|may not|can'?t|cannot"
)
ASK_FIRST = (
    "ask me|check with|ping me|without asking|before you|before any|ask first|"
    r"with me before|asking me|ask (?:\w+ )?before|sign(?:ed)? off"
)
PREFERENCE = (
    "prefer|prefers|i'?d rather|rather|rather than|i like|i'?d like|i want|i find|"
    "instead of|over|better than|i'?d keep|personally|honestly|i love|i hate|"
    "drives? me|worst|easier|harder"
)
DECISION = (
    "decided|agreed|settled|went with|go with|chose|plan:|moved (?:off|to)|dropping|"
    "the plan|we'?re not adding|off the table|switched|we'?re going with"
)
CUE = (
    "fyi|for the record|note that|note:|remember that|worth remembering|"
    "before i forget|heads up|keep in mind|context for later|for future reference|"
    "remember this"
)
STANDING = (
    "anymore|permanently|from now on|going forward|in general|as a rule|by hand|"
    "directly|in future|from here on|each time|every time"
)
AUTHORITY = (
    r"rule|policy|requirement|required|audit\w*|compliance|contract|legal|security|"
    "mandatory|agreed with|signed off|insists?|owner|owned by|owns|review"
)
NEGATION = "not|never|don'?t|dont|do not|doesn'?t|isn'?t|aren'?t|won'?t|nothing|none|no"
CONDITIONAL = "when|whenever|if|unless|except|otherwise|even if|even for|as long as"

Test = Callable[[str], bool]


def _has(pattern: LazyPattern) -> Test:
    return lambda text: bool(pattern.search(text))


@dataclass(frozen=True)
class Feature:
    name: str
    prior: float  # the weight the rules give it; its sign is kept when the classifier learns
    test: Test


TRANSIENT = [
    Feature("starts_imperative", -2.25, _has(_IMPERATIVE)),
    Feature("imperative_on_it", -1.5, _has(_IMPERATIVE_ON_IT)),
    Feature("starts_reaction", -2.25, _has(_REACTION)),
    Feature("greeting_or_break", -1.5, _has(_words(GREETING_OR_BREAK))),
    Feature("time_deixis", -2.25, _has(_words(TIME_DEIXIS))),
    Feature("one_off_scope", -3.0, _has(_words(ONE_OFF_SCOPE))),
    Feature("hedge", -2.25, _has(_words(HEDGE))),
    Feature("experiment", -2.25, _has(_words(EXPERIMENT))),
    Feature("until_soon", -3.0, _has(_words(UNTIL_SOON))),
    Feature("polite_request", -1.5, _has(_POLITE_REQUEST)),
    Feature("first_person_activity", -1.5, _has(_words(FIRST_PERSON_ACTIVITY))),
    Feature("task_talk", -2.25, _has(_words(TASK_TALK))),
    Feature("problem", -1.5, _has(_words(PROBLEM))),
    Feature("evaluation", -1.5, _has(_EVALUATION)),
    Feature("deictic_subject", -0.75, _has(_DEICTIC_SUBJECT)),
    Feature("exclaim_or_emoji", -0.75, _has(_EMOJI_OR_BANG)),
]
DURABLE = [
    Feature("quantifier", 1.5, _has(_words(QUANTIFIER))),
    Feature("only", 0.75, _has(_words("only"))),
    Feature("reason", 1.5, _has(_words(REASON))),
    Feature("project_scope", 1.5, _has(_words(PROJECT_SCOPE))),
    Feature("we_or_our", 0.4, _has(_words("we|our|ours|us|we'?re|we'?ve"))),
    Feature("we_habitually", 1.5, _has(_words(WE_HABITUALLY))),
    Feature("copula", 0.75, _has(_words(COPULA))),
    Feature("modal_rule", 0.75, _has(_words(MODAL_RULE))),
    Feature("negated_imperative", 0.75, _has(_NEGATED_IMPERATIVE)),
    Feature("no_noun", 0.75, _has(_NO_NOUN)),
    Feature("negation", 0.75, _has(_words(NEGATION))),
    Feature("ask_first", 2.25, _has(_words(ASK_FIRST))),
    Feature("preference", 1.5, _has(_words(PREFERENCE))),
    Feature("decision", 1.5, _has(_words(DECISION))),
    Feature("correction_start", 2.25, _has(_CORRECTION_START)),
    Feature("contrast", 0.75, _has(_CONTRAST)),
    Feature("digits", 0.4, _has(LazyPattern(r"\d"))),
    Feature("bound", 1.5, _has(_BOUND)),
    Feature("value_with_unit", 0.75, _has(_VALUE_WITH_UNIT)),
    Feature("code", 0.4, lambda text: "`" in text),
    Feature("path_or_host", 0.0, _has(_PATH_OR_HOST)),
    Feature("cue", 3.0, _has(_words(CUE))),
    Feature(
        "aside", 0.75, _has(_words("btw|by the way|oh and|one thing|context for later|ps|also"))
    ),
    Feature("standing", 2.25, _has(_words(STANDING))),
    Feature("authority", 1.5, _has(_words(AUTHORITY))),
    Feature("conditional", 0.75, _has(_words(CONDITIONAL))),
    Feature("distributive", 1.5, _has(_DISTRIBUTIVE)),
]
TEXT_FEATURES = TRANSIENT + DURABLE
# Computed from the text features, the turn's length and whether a question was left out.
DERIVED_PRIORS = {
    "plain_statement": 1.5,
    "fact_with_value": 0.75,
    "rule_with_value": 0.75,
    "generic_imperative": 1.5,
    "standing_prohibition": 2.25,
    "asked_too": -1.5,
    "one_or_two_words": -1.5,
    "up_to_four_words": -0.75,
    "log_words": 0.0,  # free: length speaks both ways
}
FEATURE_NAMES = [f.name for f in TEXT_FEATURES] + list(DERIVED_PRIORS)
PRIORS = [f.prior for f in TEXT_FEATURES] + list(DERIVED_PRIORS.values())
# For cutting a glued one-off command off a statement: what marks a segment as one-off,
# and what marks it as part of a standing statement (which keeps it).
ONE_OFF_MARKERS = frozenset(
    {
        "starts_imperative",
        "imperative_on_it",
        "starts_reaction",
        "greeting_or_break",
        "time_deixis",
        "one_off_scope",
        "until_soon",
        "task_talk",
        "experiment",
        "hedge",
        "first_person_activity",
        "polite_request",
    }
)
STANDING_MARKERS = frozenset(
    {
        "quantifier",
        "reason",
        "project_scope",
        "we_habitually",
        "modal_rule",
        "negated_imperative",
        "no_noun",
        "negation",
        "ask_first",
        "preference",
        "decision",
        "correction_start",
        "cue",
        "standing",
        "authority",
        "distributive",
    }
)


def fired(text: str) -> set[str]:
    """The names of the text features that fire on `text`."""
    return {f.name for f in TEXT_FEATURES if f.test(text)}


def featurize(body: str, asked: bool = False) -> list[float]:
    """One value per FEATURE_NAMES entry for a turn's kept text; `asked` says a
    question was left out of it."""
    on = fired(body)
    words = len(body.split())
    specific = bool(on & {"digits", "code", "path_or_host", "value_with_unit"})
    generic = bool(on & {"quantifier", "reason", "preference", "ask_first", "project_scope"})
    passing = bool(on & {f.name for f in TRANSIENT})
    derived = [
        "copula" in on and not passing and not asked,
        specific and "copula" in on and not on & {"starts_imperative", "time_deixis"},
        specific and (generic or bool(on & {"negation", "we_habitually"})),
        "starts_imperative" in on and generic,
        "negated_imperative" in on and not on & {"time_deixis", "one_off_scope"},
        asked,
        words <= 2,
        words <= 4,
    ]
    values = [float(f.name in on) for f in TEXT_FEATURES] + [float(d) for d in derived]
    return [*values, math.log1p(words) / 4]
