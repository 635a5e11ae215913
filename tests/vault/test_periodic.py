"""Periodic note names, dates and levels; generated blocks that never touch what a
person wrote."""

from __future__ import annotations

from datetime import date, timedelta
from pathlib import Path

import pytest
from hypothesis import given, strategies as st

from vault.errors import VaultError
from vault.layout import Vault
from vault.note_blocks import block, blocks, merge, outside_blocks, readable, split_source
from vault.periodic import (
    LEVELS,
    append_to_note,
    containing,
    create_note,
    list_notes,
    note_path,
    parse_period,
    read_note,
)


@pytest.mark.parametrize(
    ("level", "day", "key", "start", "end"),
    [
        ("weekly", date(2027, 1, 27), "2027-W04", date(2027, 1, 25), date(2027, 1, 31)),
        ("weekly", date(2027, 1, 1), "2026-W53", date(2026, 12, 28), date(2027, 1, 3)),
        ("weekly", date(2025, 12, 29), "2026-W01", date(2025, 12, 29), date(2026, 1, 4)),
        ("monthly", date(2028, 2, 10), "2028-02", date(2028, 2, 1), date(2028, 2, 29)),
        ("quarterly", date(2027, 5, 31), "2027-Q2", date(2027, 4, 1), date(2027, 6, 30)),
        ("yearly", date(2027, 7, 4), "2027", date(2027, 1, 1), date(2027, 12, 31)),
    ],
)
def test_names_follow_obsidian_periodic_notes(
    level: str, day: date, key: str, start: date, end: date
) -> None:
    period = containing(level, day)
    assert (period.key, period.start, period.end) == (key, start, end)
    assert parse_period(level, key) == period
    assert note_path(Vault(Path("/v")), period) == Path(f"/v/periodic/{level}/{key}.md")


@given(st.dates(min_value=date(2000, 1, 1), max_value=date(2100, 12, 31)))
def test_every_day_lies_in_exactly_one_period_of_each_level(day: date) -> None:
    for level in LEVELS:
        period = containing(level, day)
        assert period.contains(day)
        assert parse_period(level, period.key) == period
        assert not containing(level, period.start - timedelta(days=1)).contains(day)


@pytest.mark.parametrize("key", ["2027-05", "2027-08", "2026-12", "2027-01"])
def test_a_month_is_made_of_the_weeks_whose_thursday_falls_in_it(key: str) -> None:
    month = parse_period("monthly", key)
    weeks = month.children()
    assert all(month.contains(w.start + timedelta(days=3)) for w in weeks)
    assert len(weeks) in (4, 5)
    neighbours = [containing("weekly", weeks[0].start - timedelta(days=7)),
                  containing("weekly", weeks[-1].end + timedelta(days=1))]  # fmt: skip
    assert not any(month.contains(w.start + timedelta(days=3)) for w in neighbours)


def test_levels_nest_down_to_days() -> None:
    year = parse_period("yearly", "2027")
    assert [q.key for q in year.children()] == ["2027-Q1", "2027-Q2", "2027-Q3", "2027-Q4"]
    assert [m.key for m in year.children()[0].children()] == ["2027-01", "2027-02", "2027-03"]
    days = parse_period("weekly", "2027-W04").children()
    assert [d.key for d in days][0::6] == ["2027-01-25", "2027-01-31"]


BAD_NAMES = [("weekly", "2027-W54"), ("monthly", "2027-13"), ("quarterly", "2027-Q5"),
             ("yearly", "27")]  # fmt: skip


@pytest.mark.parametrize(("level", "key"), BAD_NAMES)
def test_bad_period_names_are_refused(level: str, key: str) -> None:
    with pytest.raises(VaultError, match=key):
        parse_period(level, key)


def test_notes_are_created_once_appended_above_the_source_and_listed(vault: Vault) -> None:
    week = parse_period("weekly", "2027-W04")
    path, created = create_note(vault, week, "# W04\n\n## Notes\n")
    assert created
    assert path == vault.root / "periodic" / "weekly" / "2027-W04.md"
    assert create_note(vault, week, "other") == (path, False)
    merged = merge(read_note(vault, week) or "", {}, "raw source")
    path.write_text(merged.text)
    append_to_note(vault, week, "- shipped the auth flow", "unused")
    head, source = split_source(path.read_text())
    assert head.endswith("## Notes\n- shipped the auth flow")
    assert "raw source" in source
    (vault.note_dir("weekly") / "notes-about-weeks.md").write_text("not a period")
    assert [p.key for p in list_notes(vault, "weekly")] == ["2027-W04"]


NOTE = (
    "# Week\n\n## Decisions\n" + block("decisions", "- old\n") + "\nMy own line, kept.\n\n"
    "## Preferences\n" + block("preferences", "") + "\n\n## Notes\nhand  written\ttext\n"
)


def test_merge_refills_blocks_and_keeps_every_other_byte() -> None:
    merged = merge(NOTE, {"decisions": "- new\n", "preferences": "- tea"}, "## raw\nsource")
    assert merged.updated == ["decisions", "preferences"]
    assert outside_blocks(merged.text) == outside_blocks(NOTE)
    assert [b.content for b in blocks(merged.text)] == ["- new\n", "- tea\n"]
    again = merge(merged.text, {"decisions": "- newer\n"}, "other source")
    assert split_source(again.text)[1].endswith("other source\n")
    assert "source\n" not in split_source(again.text)[1].replace("other source\n", "")


def test_a_block_the_person_edited_is_left_alone() -> None:
    first = merge(NOTE, {"decisions": "- generated\n"}, "src").text
    edited = first.replace("- generated\n", "- generated, and I disagree\n")
    merged = merge(edited, {"decisions": "- regenerated\n"}, "src")
    assert merged.kept_edited == ["decisions"]
    assert "- generated, and I disagree\n" in merged.text
    assert "regenerated" not in merged.text


def test_a_removed_block_stays_removed_and_readable_drops_markers() -> None:
    without = NOTE.replace(block("preferences", ""), "I removed the block.")
    merged = merge(without, {"preferences": "- back?\n"}, "src")
    assert "back?" not in merged.text
    assert "<!--" not in readable(merged.text)
    assert "src" not in readable(merged.text)
