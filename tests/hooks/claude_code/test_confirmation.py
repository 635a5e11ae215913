"""The hedged ids shown to a session, kept for its next prompt's "yes"."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from hooks.claude_code.confirmation import affirms, remember_shown, take_shown


def test_shown_ids_are_taken_once_by_their_session(tmp_path: Path) -> None:
    remember_shown(tmp_path, "s1", ["a", "b"])
    remember_shown(tmp_path, "s2", ["c"])
    assert take_shown(tmp_path, "s1") == ["a", "b"]
    assert take_shown(tmp_path, "s1") == []  # consumed
    assert take_shown(tmp_path, "s2") == ["c"]
    assert affirms("yeah, still applies")
    assert not affirms("no, that's outdated")


def test_the_oldest_sessions_make_room_not_the_first_in_sorted_order(tmp_path: Path) -> None:
    # names that sort against their age: "z..." recorded first, "a..." last
    names = [f"{chr(ord('z') - n // 10)}{n:03d}" for n in range(200)]
    for name in names:
        remember_shown(tmp_path, name, [name])
    remember_shown(tmp_path, "newest", ["x"])
    kept = json.loads((tmp_path / ".state" / "shown.json").read_text(encoding="utf-8"))
    assert len(kept) == 200
    assert names[0] not in kept  # the oldest went
    assert names[-1] in kept
    assert "newest" in kept


def test_an_entry_written_by_an_older_version_is_still_read(tmp_path: Path) -> None:
    state = tmp_path / ".state"
    state.mkdir()
    (state / "shown.json").write_text(json.dumps({"s1": ["a"]}), encoding="utf-8")
    remember_shown(tmp_path, "s2", ["b"])
    assert take_shown(tmp_path, "s1") == ["a"]
    assert take_shown(tmp_path, "s2") == ["b"]


@pytest.mark.parametrize(
    ("reply", "confirms"),
    [
        ("yeah, still applies", True),
        ("Yes.", True),
        ("that's right", True),
        ("good call", True),
        ("no, that's outdated", False),
        ("yeah, but that's not true any more", False),
        ("yes it doesn't apply to this repo", False),
        ("right, we don't do that now", False),
        ("correct me if I'm wrong, but", False),
        ("how do I rename a git branch?", False),
        ("", False),
        ("yesterday's deploy failed", False),
    ],
)
def test_only_a_clear_yes_without_a_negation_affirms(reply: str, confirms: bool) -> None:
    assert affirms(reply) is confirms
