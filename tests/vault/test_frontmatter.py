from __future__ import annotations

from datetime import timedelta

import pytest
from hypothesis import given, strategies as st

from vault import frontmatter
from vault.clock import parse_time
from vault.frontmatter import FrontmatterError

HAND_WRITTEN = """---
id: note
# a person's comment stays
aliases: [Fixtures, "setUp vs fixtures"]
custom_block:
  nested: {a: 1, b: [x, y]}   # trailing comment
stability: 7.0
tags:
  - testing
  - pytest
last_access: 2026-01-01T09:00:00Z
recalls: 0
cssclass: wide
---
# Heading

Body with   odd  spacing,\ttabs and trailing spaces   

- a list
"""


def _without_owned(text: str, owned: set[str]) -> list[str]:
    keep = []
    for line in text.splitlines():
        key = line.split(":", 1)[0]
        if key not in owned and not line.startswith("  - "):
            keep.append(line)
    return keep


def test_update_keeps_unknown_keys_comments_and_body_byte_identical() -> None:
    text = HAND_WRITTEN
    moment = parse_time("2026-01-01T09:00:00Z")
    for n in range(100):
        text = frontmatter.update(
            text,
            {"stability": 7.0 * 1.01**n, "last_access": moment + timedelta(days=n), "recalls": n},
        )
    owned = {"stability", "last_access", "recalls", "tags"}
    assert _without_owned(text, owned) == _without_owned(HAND_WRITTEN, owned)
    assert frontmatter.parse(text).body == frontmatter.parse(HAND_WRITTEN).body
    meta = frontmatter.parse(text).meta
    assert meta["recalls"] == 99
    assert meta["custom_block"] == {"nested": {"a": 1, "b": ["x", "y"]}}
    assert meta["tags"] == ["testing", "pytest"]


def test_update_replaces_block_lists_and_appends_new_keys() -> None:
    text = frontmatter.update(HAND_WRITTEN, {"tags": ["a b", "c"], "links": ["[[x]]"]})
    meta = frontmatter.parse(text).meta
    assert meta["tags"] == ["a b", "c"]
    assert meta["links"] == ["[[x]]"]
    assert "  - testing" not in text


def test_file_without_frontmatter_gets_one_and_keeps_body() -> None:
    text = frontmatter.update("just a note\n", {"tier": "curated"})
    parsed = frontmatter.parse(text)
    assert parsed.meta == {"tier": "curated"}
    assert parsed.body == "just a note\n"


@pytest.mark.parametrize(
    "text",
    [
        "---\nid: [unclosed\n---\nbody\n",
        "---\nid: x\nbody without closing\n",
        "---\n- just\n- a list\n---\nbody\n",
    ],
)
def test_broken_frontmatter_raises(text: str) -> None:
    with pytest.raises(FrontmatterError):
        frontmatter.parse(text)


@given(st.text(min_size=0, max_size=60), st.floats(0.01, 1e6), st.integers(0, 10**6))
def test_rendered_values_load_back(topic: str, stability: float, recalls: int) -> None:
    text = frontmatter.render({"id": "x", "topic": "t"}, "body\n")
    updated = frontmatter.update(text, {"topic": topic, "stability": stability, "recalls": recalls})
    meta = frontmatter.parse(updated).meta
    assert meta["topic"] == topic
    assert meta["stability"] == pytest.approx(stability, rel=1e-5)
    assert meta["recalls"] == recalls


def test_a_file_with_a_one_line_frontmatter_takes_a_new_key() -> None:
    text = "---\nid: x\n---\nbody\n"
    assert frontmatter.update(text, {"recalls": 1}) == "---\nid: x\nrecalls: 1\n---\nbody\n"


def test_a_blank_line_a_person_left_after_a_key_stays_when_it_is_rewritten() -> None:
    text = "---\nid: x\ntopic: a\n\nrecalls: 0\n---\nbody\n"
    assert frontmatter.update(text, {"topic": "b"}) == text.replace("topic: a", "topic: b")


def test_plain_words_are_written_without_quotes() -> None:
    """What a person sees in the file: `topic: testing`, quotes only where YAML
    would read the text as something else."""
    text = frontmatter.render({"id": "x", "topic": "testing", "kind": "yes"}, "body\n")
    assert text == '---\nid: x\ntopic: testing\nkind: "yes"\n---\nbody\n'


def test_a_memory_marked_evergreen_stays_evergreen_when_rewritten() -> None:
    text = frontmatter.render({"id": "x", "evergreen": True, "draft": False}, "body\n")
    assert "evergreen: true\n" in text
    meta = frontmatter.parse(frontmatter.update(text, {"recalls": 1})).meta
    assert (meta["evergreen"], meta["draft"]) == (True, False)


@pytest.mark.parametrize("value", [0.01171875, 1e-9, 2.5e20, -3.0e-7, 12.3456789])
def test_a_float_loads_back_as_a_float_within_seven_digits(value: float) -> None:
    loaded = frontmatter.load_scalar(frontmatter.render_value(value))
    assert isinstance(loaded, float)
    assert loaded == pytest.approx(value, rel=1e-6)


def test_yaml_that_does_not_parse_is_named_by_its_line_in_the_file() -> None:
    """The line a person's editor shows: the opening `---` is line 1."""
    text = "---\nid: note\nkind: fact\ntitle: a: b\n---\nbody\n"
    with pytest.raises(FrontmatterError, match=r"^YAML does not parse \(line 4\)$"):
        frontmatter.parse(text)


def test_a_quick_scan_reads_the_block_and_the_body_without_parsing_them() -> None:
    """What the sync's path scan and the importers read: the raw YAML block (even
    one that does not parse) and the body; nothing for a file without a block or
    one that never closes."""
    text = "---\nid: note\ntitle: a: b\n---\nbody\n"
    assert frontmatter.split(text) == ("id: note\ntitle: a: b\n", "body\n")
    assert frontmatter.split("just a body\n") is None
    assert frontmatter.split("---\nid: note\nbody\n") is None
