"""The undo journal as a person meets it: `vault consolidate --list` and `--undo`
after runs that finished, were killed at any line, or were journaled by an
earlier version (each test kills mutants of memory/consolidation/journal.py)."""

from __future__ import annotations

import json
import re
import stat

import pytest

from memory.consolidation.journal import Journal, list_runs, runs_dir, undo
from memory.errors import ConsolidationError
from tests.conftest import T0
from vault.layout import Vault

RUN = "20260101T090000Z-a1b2"


def started(vault: Vault, run: str = RUN) -> Journal:
    journal = Journal(vault, run, "2026-01-01T09:00:00Z")
    journal.begin()
    return journal


def test_the_journal_that_holds_earlier_texts_is_private(vault: Vault) -> None:
    journal = started(vault)
    assert stat.S_IMODE(journal.path.stat().st_mode) == 0o600


def test_a_file_noted_again_keeps_its_first_state_and_those_after_it_are_noted(
    vault: Vault,
) -> None:
    first, second = vault.memories_dir / "first.md", vault.memories_dir / "second.md"
    first.write_text("first before\n")
    second.write_text("second before\n")
    journal = started(vault)
    journal.remember([first])
    journal.intend({first: b"first after\n"})
    first.write_text("first after\n")
    journal.remember([first, second])  # a later action touches both
    journal.intend({second: b"second after\n"})
    second.write_text("second after\n")
    journal.finish("2026-01-01T09:01:00Z")
    assert sorted(undo(vault, RUN, T0).restored) == ["memories/first.md", "memories/second.md"]
    assert (first.read_text(), second.read_text()) == ("first before\n", "second before\n")


def test_a_run_killed_right_after_it_began_is_listed_and_undoes_nothing(vault: Vault) -> None:
    started(vault)  # only the header line: killed before its first record
    [run] = list_runs(vault)
    assert (run["run"], run["finished"], run["actions"], run["files"]) == (RUN, None, 0, 0)
    report = undo(vault, RUN, T0)
    assert (report.restored, report.removed) == ([], [])


def test_only_a_torn_last_line_is_forgiven(vault: Vault) -> None:
    """A kill can tear only the line being appended; a damaged earlier line is a
    damaged journal, named by its line, and nothing is undone from it."""
    note = vault.memories_dir / "note.md"
    note.write_text("before\n")
    journal = started(vault)
    journal.remember([note])
    journal.intend({note: b"after\n"})
    note.write_text("after\n")
    with journal.path.open("ab") as handle:
        handle.write(b'{"action": {"kind": "mer')  # torn by the kill
    assert undo(vault, RUN, T0).restored == ["memories/note.md"]
    assert note.read_text() == "before\n"

    note.write_text("after\n")
    lines = journal.path.read_bytes().splitlines(keepends=True)
    lines[-2] = b'{"intend": {"memories/no\n'  # the line before the last one
    journal.path.write_bytes(b"".join(lines))
    with pytest.raises(
        ConsolidationError, match=rf"{RUN}.jsonl is not a readable journal \(line 3\)"
    ):
        undo(vault, RUN, T0)
    assert note.read_text() == "after\n"


def test_a_run_killed_between_two_writes_of_one_file_is_undone_without_force(
    vault: Vault,
) -> None:
    note = vault.memories_dir / "note.md"
    note.write_text("before\n")
    journal = started(vault)
    journal.remember([note])
    journal.intend({note: b"merged once\n"})
    note.write_text("merged once\n")
    journal.intend({note: b"merged twice\n"})  # killed before this write
    assert undo(vault, RUN, T0).forced == []
    assert note.read_text() == "before\n"


def test_runs_are_listed_newest_first(vault: Vault) -> None:
    for run in ("20260101T090000Z-aaaa", "20260103T090000Z-cccc", "20260102T090000Z-bbbb"):
        started(vault, run)
    assert [run["run"] for run in list_runs(vault)] == [
        "20260103T090000Z-cccc", "20260102T090000Z-bbbb", "20260101T090000Z-aaaa",
    ]  # fmt: skip


@pytest.mark.parametrize(("changed", "shown"), [(5, "4, 3, 2, 1, 0"), (6, "5, 4, 3, 2, 1 ...")])
def test_the_refusal_names_at_most_five_changed_files(
    vault: Vault, changed: int, shown: str
) -> None:
    """The last written first, as undo goes; "..." when there are more."""
    notes = [vault.memories_dir / f"{n}.md" for n in range(changed)]
    for note in notes:
        note.write_text("before\n")
    journal = started(vault)
    journal.remember(notes)
    journal.intend(dict.fromkeys(notes, b"after\n"))
    for note in notes:
        note.write_text("edited by hand since\n")
    with pytest.raises(ConsolidationError) as refused:
        undo(vault, RUN, T0)
    names = re.sub(r"(\d)", r"memories/\1.md", shown)
    assert f"{changed} files changed since run {RUN} ({names});" in str(refused.value)
    assert all(note.read_text() == "edited by hand since\n" for note in notes)


def test_a_run_journaled_by_an_earlier_version_lists_and_undoes(vault: Vault) -> None:
    """RUN.json, one object, no hashes of what the run wrote: a memory it moved to
    the archive comes back without --force, and the journal records the undo."""
    note = vault.memories_dir / "note.md"
    twin = vault.archive_dir / "note.md"
    twin.write_text("---\nid: note\n---\narchived\n")
    old = {
        "run": RUN, "started": "2026-01-01T09:00:00Z", "finished": "2026-01-01T09:01:00Z",
        "undone": None, "actions": [{"kind": "prune", "id": "note"}],
        "files": [
            {"path": "memories/note.md", "before": "---\nid: note\n---\nkept\n"},
            {"path": "archive/note.md", "before": None},
        ],
    }  # fmt: skip
    path = runs_dir(vault) / f"{RUN}.json"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(old))
    assert [(run["run"], run["files"], run["undone"]) for run in list_runs(vault)] == [
        (RUN, 1, None)
    ]
    report = undo(vault, RUN, T0)
    assert (report.restored, report.removed) == (["memories/note.md"], ["archive/note.md"])
    assert note.read_text() == "---\nid: note\n---\nkept\n"
    assert not twin.exists()
    assert json.loads(path.read_text())["undone"] == "2026-01-01T09:00:00Z"
    assert list_runs(vault)[0]["undone"] == "2026-01-01T09:00:00Z"


def test_undo_puts_back_a_memory_whose_folders_were_removed_since(vault: Vault) -> None:
    note = vault.memories_dir / "work" / "billing" / "note.md"
    note.parent.mkdir(parents=True)
    note.write_text("before\n")
    journal = started(vault)
    journal.remember([note])
    journal.intend({note: None})
    note.unlink()
    (vault.memories_dir / "work" / "billing").rmdir()  # the person tidied up
    (vault.memories_dir / "work").rmdir()
    assert undo(vault, RUN, T0).restored == ["memories/work/billing/note.md"]
    assert note.read_text() == "before\n"


def test_a_file_written_down_but_never_changed_is_not_counted(vault: Vault) -> None:
    """A run writes down the archive twin of each memory it might move; one it
    did not move neither existed nor came to exist: the list counts one file."""
    note = vault.memories_dir / "note.md"
    note.write_text("before\n")
    journal = started(vault)
    journal.remember([note, vault.archive_dir / "note.md"])
    journal.intend({note: b"after\n"})
    note.write_text("after\n")
    journal.finish("2026-01-01T09:01:00Z")
    assert list_runs(vault)[0]["files"] == 1


def test_a_run_killed_before_it_wrote_what_it_intended_is_undone_without_force(
    vault: Vault,
) -> None:
    """Its intentions are on disk, its writes are not: the memory it would have
    changed and the one it would have created are as the run left them."""
    note, merged = vault.memories_dir / "note.md", vault.memories_dir / "merged.md"
    note.write_text("before\n")
    journal = started(vault)
    journal.remember([note, merged])
    journal.intend({note: b"after\n", merged: b"---\nid: merged\n---\nboth\n"})
    report = undo(vault, RUN, T0)  # killed here: nothing written
    assert (report.forced, report.removed) == ([], [])
    assert note.read_text() == "before\n"
    assert not merged.exists()


def test_undo_stops_at_a_memory_the_run_created_and_a_person_edited_since(
    vault: Vault,
) -> None:
    merged = vault.memories_dir / "merged.md"
    journal = started(vault)
    journal.remember([merged])
    journal.intend({merged: b"---\nid: merged\n---\nboth\n"})
    merged.write_bytes(b"---\nid: merged\n---\nboth\n")
    merged.write_text("---\nid: merged\n---\nboth, and a line the person added\n")
    with pytest.raises(ConsolidationError, match="1 files changed since run"):
        undo(vault, RUN, T0)
    assert merged.exists()
    assert undo(vault, RUN, T0, force=True).removed == ["memories/merged.md"]
