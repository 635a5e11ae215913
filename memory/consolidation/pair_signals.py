"""The signals the judge reads off a pair of memories, as numbers (pure): the
rules' own findings (a value of one kind changed, the subject differs, the
newer says what was there before) and plain measures of the pair (cosine,
shared words, shared and differing numbers). pair_model.py weighs them with
weights fitted on the labelled pairs; nothing here decides a relation.
"""

from __future__ import annotations

from memory.consolidation.subject import (
    head_words,
    other_attribute,
    other_subject,
    subjects_apart,
    words,
)
from memory.consolidation.text import Facts, contrasted_terms
from memory.consolidation.values import (
    named_apart,
    number_swapped,
    plain_tokens,
    related_word,
    same_frame,
    value_conflict,
)

SIGNAL_NAMES = [
    "cosine",
    "similarity",
    "rule_change",
    "veto",
    "other_subject",
    "subjects_apart",
    "other_attribute",
    "named_apart",
    "value_conflict",
    "shared_value",
    "values_differ",
    "one_side_valued",
    "newer_says_change",
    "older_says_change",
    "names_what_was",
    "names_older_term_gone",
    "names_older_value_former",
    "same_frame",
    "plain_overlap",
    "subject_overlap",
    "contrasted_older_term",
    "number_swapped",
    "negation_differs",
    "length_ratio",
]


def signals(
    old: Facts, new: Facts, cosine: float, alike: float, rule_change: bool, veto: bool
) -> list[float]:
    """One number per SIGNAL_NAMES entry for the pair (`old` said first): `cosine`
    and `alike` as the judge has them; `rule_change`: the rules call it a change;
    `veto`: a rule keeps the two from being one fact (relations.py decides both)."""
    left, right = plain_tokens(old), plain_tokens(new)
    shorter = max(1, min(len(left), len(right)))
    old_keys = frozenset(w.key for w in words(old.core))
    new_keys = frozenset(w.key for w in words(new.core))
    heads = [related_word(w.key, new_keys) for w in head_words(old.core)]
    heads += [related_word(w.key, old_keys) for w in head_words(new.core)]
    found = {
        "cosine": cosine,
        "similarity": alike,
        "rule_change": rule_change,
        "veto": veto,
        "other_subject": other_subject(old.core, new.core) is not None,
        "subjects_apart": subjects_apart(old.core, new.core),
        "other_attribute": other_attribute(
            old.tokens, new.tokens, old.specific_values, new.specific_values
        )
        is not None,
        "named_apart": named_apart(old, new) is not None,
        "value_conflict": value_conflict(old, new) is not None,
        "shared_value": bool(old.specific_values & new.specific_values),
        "values_differ": bool(
            old.specific_values
            and new.specific_values
            and old.specific_values ^ new.specific_values
        ),
        "one_side_valued": bool(old.specific_values) != bool(new.specific_values),
        "newer_says_change": new.change,
        "older_says_change": old.change,
        "names_what_was": bool(new.replaced),
        "names_older_term_gone": bool(new.replaced & old.affirmed),
        "names_older_value_former": bool((new.former | new.gone_values) & old.numbers),
        "same_frame": same_frame(old, new),
        "plain_overlap": sum(1 for w in left if related_word(w, right)) / shorter,
        "subject_overlap": sum(heads) / len(heads) if heads else 1.0,
        "contrasted_older_term": bool(contrasted_terms(new.core) & old.affirmed),
        "number_swapped": number_swapped(old, new) is not None,
        "negation_differs": bool(old.negated) != bool(new.negated),
        "length_ratio": min(len(old.tokens), len(new.tokens))
        / max(1, len(old.tokens), len(new.tokens)),
    }
    return [float(found[name]) for name in SIGNAL_NAMES]
