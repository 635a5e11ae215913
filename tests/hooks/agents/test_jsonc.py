"""The JSONC reader: comments and trailing commas are syntax, never data inside strings."""

from __future__ import annotations

import json
from typing import Any

from hypothesis import given, strategies as st

from hooks.agents import jsonc

# Strings rich in the characters the trailing-comma and comment rules look at.
TRICKY = st.text(alphabet=st.sampled_from(list(', ]}[{"\\/*\n\tab')), max_size=12)
VALUES = st.recursive(
    st.none() | st.booleans() | st.integers() | TRICKY,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(TRICKY, inner, max_size=4),
    max_leaves=12,
)


def with_trailing_commas(value: Any) -> str:
    """`value` as JSON with a comma after every container's last item."""
    if isinstance(value, list):
        return "[" + "".join(with_trailing_commas(item) + ", " for item in value) + "]"
    if isinstance(value, dict):
        members = (f"{json.dumps(k)}: {with_trailing_commas(v)},\n" for k, v in value.items())
        return "{" + "".join(members) + "}"
    return json.dumps(value)


@given(VALUES)
def test_plain_json_reads_back_unchanged(value: Any) -> None:
    assert jsonc.loads(json.dumps(value)) == value


@given(VALUES)
def test_trailing_commas_are_dropped_and_strings_kept(value: Any) -> None:
    assert jsonc.loads(with_trailing_commas(value)) == value


def test_a_comma_before_a_bracket_inside_a_string_is_data() -> None:
    text = '{"args": ["--flag=a, ]", "--b=c,}",], // a comment, ]\n}'
    assert jsonc.loads(text) == {"args": ["--flag=a, ]", "--b=c,}"]}
