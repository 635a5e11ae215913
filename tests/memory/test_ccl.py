"""CCL: decode inverts encode for every dictionary entry, at every tier and in
every position; literal short forms and code survive; savings grow with the tier
on real text."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given, strategies as st

from memory.notes.ccl import (
    Dictionary,
    Entry,
    _check,
    analyze,
    decode,
    encode,
    load_dictionary,
)

BOOK = load_dictionary()
ROOT = Path(__file__).resolve().parents[2]
CONTEXTS = ["{}", "({}),", "{} and more;", "Start: {}", '"{}"', "- {}\n- next", "*{}*"]


def test_the_dictionary_is_published_and_versioned() -> None:
    assert BOOK.version == "1.0"
    assert BOOK.name == "memory-vault CCL"
    assert {entry.tier for entry in BOOK.entries} == {1, 2, 3}
    assert len(BOOK.entries) > 100


def written_forms(entry: Entry) -> list[str]:
    """The long form, and its capitalised form when the short one has a capital too
    (a symbol has none: "And" stays "And", and its small words may be dropped)."""
    capital = entry.long[:1].upper() + entry.long[1:]
    has_capital = entry.short[:1].isalpha() and entry.short[:1].islower()
    return [entry.long, capital] if has_capital else [entry.long]


@pytest.mark.parametrize("entry", BOOK.entries, ids=lambda e: f"T{e.tier}:{e.long}")
def test_decode_inverts_encode_for_the_entry_at_every_tier_and_position(entry: Entry) -> None:
    for tier in range(entry.tier, 4):
        for context in CONTEXTS:
            for long in written_forms(entry):
                text = context.format(long)
                assert decode(encode(text, tier)) == text, (tier, text, encode(text, tier))


@pytest.mark.parametrize("entry", BOOK.entries, ids=lambda e: e.short)
def test_the_short_form_is_used_from_its_tier_on(entry: Entry) -> None:
    assert entry.short in encode(entry.long, entry.tier)
    assert encode(entry.long, 0) == entry.long
    if entry.tier > 1:
        assert entry.short not in encode(entry.long, entry.tier - 1).split()


def test_short_forms_already_in_the_text_are_escaped_and_come_back() -> None:
    text = "Set config & db near env, e.g. via fn or \\n, then w/ u vs them;"
    for tier in (1, 2, 3):
        assert decode(encode(text, tier)) == text
    assert "\\config" in encode(text, 1)
    assert "\\\\n" in encode(text, 1)


def test_code_links_and_urls_are_left_alone() -> None:
    text = (
        "Use the `configuration and the database` flag.\n```\nthe function and the memory\n```\n"
        "See https://example.com/the/configuration and [[2027-01-01-the-memory-ab12]]."
    )
    encoded = encode(text, 3)
    assert "`configuration and the database`" in encoded
    assert "```\nthe function and the memory\n```" in encoded
    assert "https://example.com/the/configuration & [[2027-01-01-the-memory-ab12]]" in encoded
    assert decode(encoded) == text.replace("Use the", "Use").replace("flag.", "flag")


def test_dropped_words_never_join_lines() -> None:
    text = "- keep the\n- list the items\nThe end"
    assert encode(text, 1) == "- keep\n- list items\nend"


@given(
    st.lists(
        st.sampled_from(
            [e.long for e in BOOK.entries] + ["fixtures", "Postgres", "(note)", "x;", "pytest,"]
        ),
        min_size=1,
        max_size=12,
    ),
    st.sampled_from([1, 2, 3]),
)
def test_any_sentence_of_entries_and_plain_words_round_trips(words: list[str], tier: int) -> None:
    text = " ".join(words)
    assert decode(encode(text, tier)) == text


def test_an_ambiguous_dictionary_is_refused() -> None:
    bad = Dictionary("x", "0", (Entry("alpha", "a1", 1), Entry("beta", "a1", 2)), {})
    with pytest.raises(ValueError, match="ambiguous"):
        _check(bad)
    with pytest.raises(ValueError, match="one chunk"):
        _check(Dictionary("x", "0", (Entry("alpha", "a b", 1),), {}))


def test_savings_grow_with_the_tier_on_real_text() -> None:
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    rows = analyze(text, lambda t: len(t.split()))
    assert [r.tier for r in rows] == [0, 1, 2, 3]
    assert rows[0].char_savings == 0
    assert rows[0].token_savings == 0
    assert 0 < rows[1].char_savings < rows[2].char_savings < rows[3].char_savings
    assert rows[3].token_savings is not None
    assert rows[3].token_savings > 0.1
    with pytest.raises(ValueError, match="tier"):
        encode(text, 4)
