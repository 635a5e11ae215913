"""Periodic notes synthesized from the level below with the real service, real
files and an injected clock: a week of daily logs into a weekly note, four weeks
into a monthly one, and re-synthesis that keeps what a person wrote."""

from __future__ import annotations

from datetime import timedelta

import pytest

from memory.notes.periodic import SummaryUnavailable, synthesize_note, template
from memory.notes.recent import daily_load, linked_from_notes, periodic_load
from memory.service import MemoryService
from tests.conftest import FakeClock
from vault.clock import parse_time
from vault.daily import append_daily
from vault.note_blocks import blocks, outside_blocks, split_source
from vault.periodic import note_path, parse_period, write_note

pytestmark = pytest.mark.model
MONDAY = parse_time("2027-01-25T09:00:00Z")  # ISO week 2027-W04
API, WEB = "github.com/acme/api", "github.com/acme/web"


def live_a_week(service: MemoryService, clock: FakeClock, monday_offset: int = 0) -> dict[str, str]:
    """Seven days of logs and memories as capture and a person leave them."""
    clock.now = MONDAY + timedelta(weeks=monday_offset)
    tag = f"w{monday_offset}"
    ids = {}
    for day in range(7):
        append_daily(service.vault, clock.now, f"## 10:00 session {tag}{day} in {API}")
        if day == 1:
            append_daily(service.vault, clock.now, f"- we decided to run migrations by hand {tag}")
        if day == 3:
            append_daily(service.vault, clock.now, f"- TODO: measure the cold start {tag}")
            append_daily(service.vault, clock.now, f"- [x] closed the flaky test ticket {tag}")
        clock.advance(1)
    clock.now = MONDAY + timedelta(weeks=monday_offset, days=2)
    ids["decision"] = service.jot(f"we decided to keep Postgres for events ({tag})",
                                  kind="decision", project=API).id  # fmt: skip
    ids["preference"] = service.jot(f"prefer pytest fixtures over setUp ({tag})",
                                    kind="preference", project=WEB).id  # fmt: skip
    ids["fact"] = service.jot(f"the staging cluster has four nodes ({tag})", project=API).id
    ids["used"] = service.jot(f"the cache warms in ninety seconds ({tag})", project=API).id
    clock.advance(1)
    service.reinforce(ids["used"])
    return ids


def test_a_week_of_daily_logs_becomes_a_weekly_note(service: MemoryService, clock: FakeClock):
    ids = live_a_week(service, clock)
    clock.now = MONDAY + timedelta(days=6, hours=12)
    report = synthesize_note(service, parse_period("weekly", "2027-W04"))
    text = note_path(service.vault, parse_period("weekly", "2027-W04")).read_text()
    sections = {b.name: b.content for b in blocks(text)}
    assert report.sources == [f"2027-01-{d}" for d in range(25, 32)]
    assert set(report.linked) == set(ids.values())
    assert f"[[{ids['decision']}]]" in sections["decisions"]
    assert "we decided to run migrations by hand w0 (2027-01-26)" in sections["decisions"]
    assert f"[[{ids['preference']}]]" in sections["preferences"]
    assert f"**{API}**: 3 memories" in sections["worked-on"]
    assert f"**{WEB}**: 1 memories" in sections["worked-on"] or f"**{WEB}**: 1 memory" in text
    assert "TODO: measure the cold start w0 (2027-01-28)" in sections["open-threads"]
    assert "flaky test" not in sections["open-threads"]  # done
    assert sections["summary"].startswith("4 memories captured (1 decision, 1 preference")
    assert "session w03" in split_source(text)[1]  # the raw logs below the separator
    assert report.missing == []
    assert report.kept_edited == []


def test_resynthesis_keeps_hand_written_text_byte_for_byte(
    service: MemoryService, clock: FakeClock
):
    live_a_week(service, clock)
    week = parse_period("weekly", "2027-W04")
    synthesize_note(service, week)
    path = note_path(service.vault, week)
    first = path.read_text()
    preferences = next(b for b in blocks(first) if b.name == "preferences")
    edited = (
        first.replace("## Decisions\n", "## Decisions\nWe argued about this  for an hour.\n")
        .replace(preferences.content, preferences.content + "- and tabs, never spaces\n")
        .replace("## Notes\n", "## Notes\n* a note of mine\n\n  with odd   spacing\t\n")
    )
    path.write_text(edited)
    clock.advance(1)
    late = service.jot("we decided to freeze the API on Friday", kind="decision", project=API)
    report = synthesize_note(service, week)
    again = path.read_text()
    assert outside_blocks(again) == outside_blocks(edited)
    assert report.kept_edited == ["preferences"]
    assert "- and tabs, never spaces\n" in again
    assert f"[[{late.id}]]" in next(b.content for b in blocks(again) if b.name == "decisions")
    synthesize_note(service, week)
    assert path.read_text() == again  # nothing new: the same bytes


def test_four_weeks_make_a_month_that_keeps_what_earned_its_place(
    service: MemoryService, clock: FakeClock
):
    weeks = [live_a_week(service, clock, offset) for offset in range(1, 5)]  # 2027-W05..W08
    clock.now = parse_time("2027-03-01T08:00:00Z")
    for offset in range(1, 5):
        synthesize_note(service, parse_period("weekly", f"2027-W{4 + offset:02d}"))
    february = parse_period("monthly", "2027-02")
    report = synthesize_note(service, february)
    text = note_path(service.vault, february).read_text()
    sections = {b.name: b.content for b in blocks(text)}
    assert report.sources == ["2027-W05", "2027-W06", "2027-W07", "2027-W08"]
    kept = {w[k] for w in weeks for k in ("decision", "preference", "used")}
    assert set(report.linked) == kept  # plain facts nobody used again stay weekly
    assert all(f"[[{w['fact']}]]" not in split_source(text)[0] for w in weeks)
    assert "we decided to run migrations by hand w1 (2027-02-02)" in sections["decisions"]
    assert "TODO: measure the cold start w4 (2027-02-25)" in sections["open-threads"]
    assert sections["summary"].startswith("16 memories captured (4 decisions, 4 preferences")
    assert "from 4 weekly notes" in sections["summary"]
    links = linked_from_notes(service.vault)
    assert links[weeks[0]["decision"]] == ["weekly", "monthly"]
    assert links[weeks[0]["fact"]] == ["weekly"]


def test_a_month_without_weekly_notes_says_which_are_missing(service: MemoryService, clock):
    clock.now = parse_time("2027-03-01T08:00:00Z")
    report = synthesize_note(service, parse_period("monthly", "2027-02"))
    assert report.missing == ["2027-W05", "2027-W06", "2027-W07", "2027-W08"]
    assert report.linked == []


def test_a_summariser_fills_the_summary_and_its_failure_falls_back(service, clock) -> None:
    live_a_week(service, clock)
    week = parse_period("weekly", "2027-W04")
    seen: list[str] = []

    def summarise(title: str, material: str) -> str:
        seen.append(material)
        return f"A calm week ({title})."

    report = synthesize_note(service, week, summarise)
    summary = next(b.content for b in blocks(note_path(service.vault, week).read_text()))
    assert report.summary_by == "claude -p"
    assert summary.startswith("A calm week (2027-W04")
    assert "run migrations by hand" in seen[0]

    def broken(title: str, material: str) -> str:
        raise SummaryUnavailable("claude -p failed: budget")

    write_note(service.vault, week, template(week))
    report = synthesize_note(service, week, broken)
    assert report.summary_by == "extractive (claude -p failed: budget)"


def test_loading_recent_logs_and_notes_for_a_briefing(service: MemoryService, clock) -> None:
    live_a_week(service, clock)
    clock.now = MONDAY + timedelta(days=6, hours=12)
    assert [d["date"] for d in daily_load(service.vault, clock.now)] == ["2027-01-30", "2027-01-31"]
    synthesize_note(service, parse_period("weekly", "2027-W04"))
    synthesize_note(service, parse_period("monthly", "2027-01"))
    loaded = periodic_load(service.vault, clock.now + timedelta(days=1), 10_000)  # next Monday
    assert loaded.startswith("# 2027-W04")
    assert "# 2027-01 (January 2027)" in loaded
    assert "<!--" not in loaded
    assert "session w03" not in loaded
    assert len(periodic_load(service.vault, clock.now, 300)) == 300
