"""The merge rule for memory fields, and the driver that applies it before
git's own merge of everything else."""

from __future__ import annotations

import subprocess
from datetime import datetime
from pathlib import Path

from hypothesis import given, strategies as st

from vault.clock import parse_time
from vault.frontmatter import parse
from vault.merge_driver import merge_file, merge_texts
from vault.merge_rule import merge_rule_fields

BASE = {
    "last_access": parse_time("2026-01-01T09:00:00Z"),
    "stability": 7.0,
    "recalls": 2,
    "confirmations": 0,
    "links": ["[[a]]", "[[b]]"],
    "tier": "episodic",
}


def test_each_field_follows_its_rule() -> None:
    ours = {**BASE, "last_access": parse_time("2026-01-03T00:00:00Z"), "stability": 15.75,
            "recalls": 4, "links": ["[[a]]", "[[b]]", "[[c]]"]}  # fmt: skip
    theirs = {**BASE, "last_access": parse_time("2026-01-02T00:00:00Z"), "stability": 90.0,
              "recalls": 3, "confirmations": 1, "links": ["[[a]]", "[[d]]"],
              "tier": "semantic"}  # fmt: skip
    merged = merge_rule_fields(BASE, ours, theirs)
    assert merged == {
        "last_access": parse_time("2026-01-03T00:00:00Z"),  # the later
        "stability": 90.0,  # the larger
        "recalls": 5,  # 4 + 3 - 2: each side's new recalls once
        "confirmations": 1,
        "links": ["[[a]]", "[[c]]", "[[d]]"],  # both sides' new links; theirs dropped b
        "tier": "semantic",  # the more consolidated
    }


def test_equal_changes_on_both_sides_still_add_up() -> None:
    """Both machines recalled it once: two recalls, not one."""
    one_more = {**BASE, "recalls": 3}
    assert merge_rule_fields(BASE, one_more, one_more)["recalls"] == 4


def test_without_an_ancestor_counters_take_the_larger_side() -> None:
    merged = merge_rule_fields(None, {**BASE, "recalls": 2}, {**BASE, "recalls": 5})
    assert merged["recalls"] == 5


def test_fields_on_one_side_only_are_kept_and_absent_ones_not_invented() -> None:
    merged = merge_rule_fields({}, {"recalls": 1}, {"stability": 9.0})
    assert merged == {"recalls": 1, "stability": 9.0}


@given(
    base=st.integers(0, 50),
    mine=st.integers(0, 50),
    other=st.integers(0, 50),
)
def test_the_sum_counts_every_new_event_once(base: int, mine: int, other: int) -> None:
    merged = merge_rule_fields({"recalls": base}, {"recalls": mine}, {"recalls": other})
    assert merged["recalls"] == max(mine + other - base, 0)
    assert merged == merge_rule_fields({"recalls": base}, {"recalls": other}, {"recalls": mine})


@given(st.lists(st.datetimes(timezones=st.just(parse_time("2026-01-01").tzinfo)), min_size=2,
                max_size=2))  # fmt: skip
def test_last_access_is_the_later_whichever_side(moments: list[datetime]) -> None:
    first, second = moments
    merged = merge_rule_fields(None, {"last_access": first}, {"last_access": second})
    assert merged["last_access"] == max(first, second)


MEMORY = """---
id: m
last_access: 2026-01-01T09:00:00Z
stability: 7.0
topic: testing
recalls: 2
links: ["[[a]]"]
---
Prefer pytest fixtures.
"""


def test_the_driver_merges_counters_and_leaves_the_rest_to_git(tmp_path: Path) -> None:
    ours = MEMORY.replace("recalls: 2", "recalls: 3").replace("stability: 7.0", "stability: 10.5")
    theirs = MEMORY.replace("recalls: 2", "recalls: 4").replace(
        "Prefer pytest fixtures.", "Prefer pytest fixtures over setUp."
    )
    paths = _write(tmp_path, MEMORY, ours, theirs)
    assert merge_file(*paths, name="memories/m.md")
    merged = parse(paths[1].read_text())
    assert merged.meta["recalls"] == 5
    assert merged.meta["stability"] == 10.5
    assert merged.body == "Prefer pytest fixtures over setUp.\n"


def test_a_real_conflict_is_left_with_markers(tmp_path: Path) -> None:
    ours = MEMORY.replace("Prefer pytest fixtures.", "Prefer fixtures.").replace(
        "recalls: 2", "recalls: 3"
    )
    theirs = MEMORY.replace("Prefer pytest fixtures.", "Prefer setUp.")
    paths = _write(tmp_path, MEMORY, ours, theirs)
    assert not merge_file(*paths, name="memories/m.md")
    text = paths[1].read_text()
    assert "<<<<<<< memories/m.md (this side)\nPrefer fixtures.\n=======\nPrefer setUp.\n" in text
    assert "recalls: 3" in text  # the rule fields are merged even so


def test_without_frontmatter_the_driver_is_plain_git(tmp_path: Path) -> None:
    base, ours, theirs = "a\nb\nc\n", "A\nb\nc\n", "a\nb\nC\n"
    paths = _write(tmp_path, base, ours, theirs)
    assert merge_file(*paths, name="note.md")
    assert paths[1].read_text() == "A\nb\nC\n"
    assert merge_texts(base, ours, theirs) == (base, ours, theirs)


def test_the_driver_agrees_with_git_when_only_counters_differ(tmp_path: Path) -> None:
    """Plain `git merge-file` conflicts on adjacent counter lines; the driver does not."""
    ours = MEMORY.replace("recalls: 2", "recalls: 3").replace("stability: 7.0", "stability: 10.5")
    theirs = MEMORY.replace("recalls: 2", "recalls: 3").replace("stability: 7.0", "stability: 9.0")
    paths = _write(tmp_path, MEMORY, ours, theirs)
    plain = subprocess.run(["git", "merge-file", "-p", str(paths[1]), str(paths[0]),
                            str(paths[2])], capture_output=True)  # fmt: skip
    assert plain.returncode == 1
    assert merge_file(*paths, name="m.md")
    assert "recalls: 4" in paths[1].read_text()


def _write(tmp_path: Path, base: str, ours: str, theirs: str) -> tuple[Path, Path, Path]:
    paths = tuple(tmp_path / name for name in ("base", "ours", "theirs"))
    for path, text in zip(paths, (base, ours, theirs), strict=True):
        path.write_text(text)
    return paths  # type: ignore[return-value]


def test_an_absent_ancestor_counts_as_empty(tmp_path: Path) -> None:
    """Both sides added the same file: git passes no ancestor."""
    paths = _write(tmp_path, MEMORY, MEMORY, MEMORY)
    paths[0].unlink()
    assert merge_file(*paths, name="m.md")
    assert paths[1].read_text() == MEMORY


def test_salience_is_damped_once_per_newer_memory_whichever_side_damped() -> None:
    base = {"salience": 1.0, "damped_by": []}
    by_a = {"salience": 0.7, "damped_by": ["[[a]]"]}
    by_b = {"salience": 0.7, "damped_by": ["[[b]]"]}
    by_ab = {"salience": 0.49, "damped_by": ["[[a]]", "[[b]]"]}
    assert merge_rule_fields(base, by_a, by_b)["salience"] == 0.49  # two newer memories
    assert merge_rule_fields(base, by_a, by_a)["salience"] == 0.7  # the same one, once
    assert merge_rule_fields(base, by_a, by_ab)["salience"] == 0.49
    assert merge_rule_fields(base, by_ab, by_a) == merge_rule_fields(base, by_a, by_ab)
    assert merge_rule_fields(base, by_a, base)["damped_by"] == ["[[a]]"]


def test_confidence_takes_both_sides_steps_within_the_range() -> None:
    assert merge_rule_fields({"confidence": 0.5}, {"confidence": 0.6},
                             {"confidence": 0.6})["confidence"] == 0.7  # fmt: skip
    assert merge_rule_fields({"confidence": 0.8}, {"confidence": 0.9},
                             {"confidence": 0.9})["confidence"] == 0.9  # fmt: skip


def test_a_topic_a_person_chose_wins_over_the_classifier() -> None:
    base = {"topic": "", "filed": ""}
    auto = {"topic": "testing", "filed": "auto"}
    person = {"topic": "ci", "filed": ""}
    assert merge_rule_fields(base, auto, person) == {"topic": "ci", "filed": ""}
    assert merge_rule_fields(base, person, auto) == {"topic": "ci", "filed": ""}
    other_auto = {"topic": "pytest", "filed": "auto"}
    assert merge_rule_fields(base, auto, other_auto) == merge_rule_fields(base, other_auto, auto)
    assert "topic" not in merge_rule_fields(base, person, {"topic": "qa", "filed": ""})


def test_any_other_field_takes_the_side_that_changed_it() -> None:
    base = {"kind": "fact", "project": "api", "note": "x"}
    ours = {"kind": "decision", "project": "api", "note": "x"}
    theirs = {"kind": "fact", "project": "web", "note": "y"}
    assert merge_rule_fields(base, ours, theirs) == {
        "kind": "decision", "project": "web", "note": "y"}  # fmt: skip
    assert "kind" not in merge_rule_fields(base, ours, {**theirs, "kind": "procedure"})


def test_the_driver_merges_changes_on_neighbouring_lines(tmp_path: Path) -> None:
    """Plain git marks edits of adjacent lines; a field each side changed is no conflict."""
    base = MEMORY.replace("topic: testing", "kind: fact\ntopic: testing\nproject: api")
    ours = base.replace("kind: fact", "kind: decision")
    theirs = base.replace("topic: testing", "topic: ci").replace("project: api", "project: web")
    paths = _write(tmp_path, base, ours, theirs)
    assert merge_file(*paths, name="m.md")
    meta = parse(paths[1].read_text()).meta
    assert (meta["kind"], meta["topic"], meta["project"]) == ("decision", "ci", "web")


def test_per_machine_counts_keep_each_machines_larger_count() -> None:
    base = {"recalls_by_machine": {"laptop": 1}}
    ours = {"recalls_by_machine": {"laptop": 2}}
    theirs = {"recalls_by_machine": {"laptop": 1, "desktop": 1}}
    merged = merge_rule_fields(base, ours, theirs)["recalls_by_machine"]
    assert merged == {"laptop": 2, "desktop": 1}


def test_a_field_one_side_removed_is_left_to_git() -> None:
    """Ours deleted the recalls line, theirs counted one more: git marks it, the
    rule does not invent a sum."""
    ours = {key: value for key, value in BASE.items() if key != "recalls"}
    assert "recalls" not in merge_rule_fields(BASE, ours, {**BASE, "recalls": 3})


def test_an_unreadable_last_access_gives_way_to_the_readable_one() -> None:
    readable = parse_time("2026-01-02T00:00:00Z")
    for ours, theirs in (("yesterday", readable), (readable, "yesterday")):
        merged = merge_rule_fields(BASE, {**BASE, "last_access": ours},
                                   {**BASE, "last_access": theirs})  # fmt: skip
        assert merged["last_access"] == readable


def test_confidence_without_an_ancestor_takes_the_larger_side() -> None:
    assert merge_rule_fields(None, {"confidence": 0.6}, {"confidence": 0.7}) == {"confidence": 0.7}


def test_a_salience_someone_typed_as_text_gives_way_to_a_number() -> None:
    base = {"salience": 1.0}
    for ours, theirs in (({"salience": "high"}, {"salience": 0.7}),
                         ({"salience": 0.7}, {"salience": "high"})):  # fmt: skip
        assert merge_rule_fields(base, ours, theirs)["salience"] == 0.7


def test_a_salience_already_below_one_is_damped_by_the_other_side_s_share() -> None:
    """From 0.9, ours damped to 0.7 and theirs (another newer memory) to 0.6: ours
    times theirs' ratio (0.6 / 0.9), written with four decimals."""
    base = {"salience": 0.9, "damped_by": []}
    ours = {"salience": 0.7, "damped_by": ["[[a]]"]}
    theirs = {"salience": 0.6, "damped_by": ["[[b]]"]}
    assert merge_rule_fields(base, ours, theirs)["salience"] == 0.4667


def test_a_topic_only_one_side_filed_is_taken() -> None:
    assert merge_rule_fields({}, {}, {"topic": "ci", "filed": ""}) == {"topic": "ci", "filed": ""}
