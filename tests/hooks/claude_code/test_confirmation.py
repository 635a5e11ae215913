"""The hedged ids shown to a session, kept for its next prompt's "yes"."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from hooks.claude_code.confirmation import Shown, affirms, previous, settle

NOTHING = Shown([], -1.0, True)  # a prompt that took nothing


def remember(root: Path, session: str, ids: list[str], at: float) -> None:
    settle(root, session, NOTHING, ids, at)


def test_shown_ids_are_taken_once_by_their_session(tmp_path: Path) -> None:
    remember(tmp_path, "s1", ["a", "b"], 1.0)
    remember(tmp_path, "s2", ["c"], 2.0)
    before = previous(tmp_path, "s1")
    assert before.ids == ["a", "b"]
    assert settle(tmp_path, "s1", before, [], 3.0) == ["a", "b"]
    assert previous(tmp_path, "s1").ids == []  # consumed
    assert settle(tmp_path, "s1", before, [], 4.0) == []  # a second look takes nothing
    assert settle(tmp_path, "s2", previous(tmp_path, "s2"), [], 5.0) == ["c"]
    assert affirms("yeah, still applies")
    assert not affirms("no, that's outdated")


def test_a_late_write_never_undoes_a_later_prompt(tmp_path: Path) -> None:
    remember(tmp_path, "s1", [], 2.0)  # the second prompt's state, written first
    remember(tmp_path, "s1", ["a"], 1.0)  # the first prompt's, late
    assert previous(tmp_path, "s1").ids == []


def test_the_oldest_sessions_make_room_not_the_first_in_sorted_order(tmp_path: Path) -> None:
    # names that sort against their age: "z..." recorded first, "a..." last
    names = [f"{chr(ord('z') - n // 10)}{n:03d}" for n in range(200)]
    for at, name in enumerate(names, 1):
        remember(tmp_path, name, [name], float(at))
    remember(tmp_path, "newest", ["x"], 1000.0)
    kept = json.loads((tmp_path / ".state" / "shown.json").read_text(encoding="utf-8"))
    assert len(kept) == 200
    assert names[0] not in kept  # the oldest went
    assert names[-1] in kept
    assert "newest" in kept


def test_an_entry_written_by_an_older_version_is_still_read(tmp_path: Path) -> None:
    state = tmp_path / ".state"
    state.mkdir()
    (state / "shown.json").write_text(json.dumps({"s1": ["a"]}), encoding="utf-8")
    remember(tmp_path, "s2", ["b"], 1.0)
    assert settle(tmp_path, "s1", previous(tmp_path, "s1"), [], 2.0) == ["a"]
    assert settle(tmp_path, "s2", previous(tmp_path, "s2"), [], 3.0) == ["b"]


def test_only_the_hedges_that_fit_the_injected_text_are_remembered(tmp_path: Path) -> None:
    """Five hedged memories, room for one: a later "yes" confirms only that one."""
    from hooks.claude_code.prompt_answer import answer_prompt

    long_text = "The staging database is refreshed from production every night. " * 8
    activated = [
        {"id": f"hedge-{n}", "text": long_text, "tier": "episodic", "age_days": 19.0}
        for n in range(5)
    ]
    confirmed: list[str] = []
    answer = answer_prompt(
        tmp_path, "how is staging refreshed?", "s1",
        lambda: {"confident": [], "activated": activated}, confirmed.extend, 700,
    )  # fmt: skip
    injected = json.loads(answer.line)["hookSpecificOutput"]["additionalContext"]
    visible = [hit["id"] for hit in activated if f"id {hit['id']}]" in injected]
    assert visible == ["hedge-0"]
    assert not (tmp_path / ".state").exists()  # nothing written before the line is out
    for step in answer.later:
        step()
    assert previous(tmp_path, "s1").ids == ["hedge-0"]
    yes = answer_prompt(
        tmp_path, "yeah, still applies", "s1",
        lambda: {"confident": [], "activated": []}, confirmed.extend, 700,
    )  # fmt: skip
    assert confirmed == []  # confirming waits for the line too
    for step in yes.later:
        step()
    assert confirmed == ["hedge-0"]


# previous + settle from real processes (the hook answering on its own, no daemon):
# each waits at a barrier inside JsonState.update (the lock's way in), so every
# process has done its unlocked look before any takes.
TAKER = """
import json, os, sys, time
from pathlib import Path
import vault.state
from hooks.claude_code.confirmation import previous, settle

root, barrier, parties = Path(sys.argv[1]), Path(sys.argv[2]), int(sys.argv[3])
original = vault.state.JsonState.update

def at_the_barrier(self, change):
    (barrier / str(os.getpid())).touch()
    deadline = time.monotonic() + 60
    while len(list(barrier.iterdir())) < parties and time.monotonic() < deadline:
        time.sleep(0.01)
    return original(self, change)

vault.state.JsonState.update = at_the_barrier
before = previous(root, "s1")
print(json.dumps(settle(root, "s1", before, [], time.time())))
"""


def test_two_prompts_at_once_never_both_take_the_hedges(tmp_path: Path) -> None:
    import subprocess
    import sys

    remember(tmp_path, "s1", ["hedge-a"], 1.0)
    barrier = tmp_path / "barrier"
    barrier.mkdir()
    takers = [
        subprocess.Popen(
            [sys.executable, "-c", TAKER, str(tmp_path), str(barrier), "4"],
            stdout=subprocess.PIPE,
            text=True,
        )
        for _ in range(4)
    ]
    taken = [json.loads(p.communicate(timeout=120)[0]) for p in takers]
    assert sorted(taken) == [[], [], [], ["hedge-a"]]  # a "yes" confirms once, not 4 times


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
