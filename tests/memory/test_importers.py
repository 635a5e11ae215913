"""Imports write memory files idempotently (created, updated, skipped, duplicates),
whatever the format: JSONL (both ways), claude-engram banks, claude-memory-hx."""

from __future__ import annotations

import json
import os
from pathlib import Path
from zoneinfo import ZoneInfo

import pytest

from memory.config import MemoryConfig
from memory.importers import engram, hx, jsonl
from memory.importers.core import Importer, ImportItem, ImportReport
from tests.conftest import FakeClock
from vault.clock import parse_time
from vault.layout import Vault
from vault.store import MemoryStore


def _run(
    vault: Vault, clock: FakeClock, items: list[ImportItem], dry: bool = False
) -> ImportReport:
    clock.now = parse_time("2026-12-02T12:00:00Z")  # after everything the sources say
    return Importer(vault, MemoryConfig.default(), clock).run(items, dry_run=dry)


def _records(vault: Vault) -> dict[str, object]:
    store = MemoryStore(vault)
    return {p.stem: store.read_path(p) for p in vault.memory_files()}


LINES = "\n".join(
    [
        '{"text": "Prefer pytest fixtures over setUp.", "created": "2026-11-29T19:36:00Z",'
        ' "tags": ["#Pytest", "testing"], "project": "github.com/acme/api", "kind": "preference"}',
        '{"text": "Release freeze from Dec 18.", "created": "2026-12-01", "source": "chatgpt",'
        ' "id": "conv-8812#3", "extra": {"turn": 3}}',
        "// a comment line, then a blank one",
        "",
        '{"text": "The daughter is in 3rd grade."}',
    ]
)


def test_jsonl_import_then_a_second_run_changes_nothing(vault: Vault, clock: FakeClock) -> None:
    items, errors = jsonl.read_lines(LINES)
    assert errors == []
    first = _run(vault, clock, items)
    assert (len(first.created), first.updated, first.skipped) == (3, [], [])
    before = {p: p.read_bytes() for p in vault.memory_files()}
    second = _run(vault, clock, jsonl.read_lines(LINES)[0])
    assert (second.created, second.updated, len(second.skipped)) == ([], [], 3)
    assert {p: p.read_bytes() for p in vault.memory_files()} == before
    record = MemoryStore(vault).read(first.created[0])
    assert record.tags == ("pytest", "testing")
    assert (record.kind, record.project, record.tier) == (
        "preference",
        "github.com/acme/api",
        "episodic",
    )
    assert record.created == parse_time("2026-11-29T19:36:00Z")
    freeze = MemoryStore(vault).read(first.created[1])
    assert freeze.extra["import_key"] == "chatgpt:conv-8812#3"
    assert freeze.extra["import_extra"] == {"turn": 3}


def test_a_changed_source_updates_its_memory_and_keeps_what_the_vault_learned(
    vault: Vault, clock: FakeClock
) -> None:
    line = '{"text": "Release freeze from Dec 18.", "source": "chatgpt", "id": "c1"}'
    [memory_id] = _run(vault, clock, jsonl.read_lines(line)[0]).created
    MemoryStore(vault).update(memory_id, lambda r: {"recalls": 4, "stability": 20.0})
    edited = line.replace("Dec 18", "Dec 19").replace('"id"', '"kind": "decision", "id"')
    report = _run(vault, clock, jsonl.read_lines(edited)[0])
    assert report.updated == [memory_id]
    record = MemoryStore(vault).read(memory_id)
    assert record.body == "Release freeze from Dec 19.\n"
    assert (record.kind, record.recalls, record.stability) == ("decision", 4, 20.0)


def test_duplicates_are_reported_not_written(vault: Vault, clock: FakeClock) -> None:
    lines = (
        '{"text": "Use uv for Python."}\n{"text": "use  UV for python.", "created": "2026-01-02"}'
    )
    report = _run(vault, clock, jsonl.read_lines(lines)[0])
    assert len(report.created) == 1
    assert report.duplicates == [(report.duplicates[0][0], report.created[0])]
    assert "1 duplicates" in report.summary()


@pytest.mark.parametrize(
    ("line", "message"),
    [
        ('{"text": "  "}', "text: required"),
        ('{"text": "x", "created": 1796000000}', "created: must be RFC 3339"),
        ('{"text": "x", "created": "2026-11-29T19:36:00"}', "created: must be RFC 3339"),
        ('{"text": "x", "tags": "a,b"}', "tags: must be a list"),
        ('{"text": "x", "colour": "red"}', "unknown field 'colour'"),
        ('{"text": "x", "kind": "Big Idea"}', "kind: a lower-case word"),
        ("[1, 2]", "each line must be a JSON object"),
        ("{nope", "not JSON"),
    ],
)
def test_bad_jsonl_lines_are_named_and_the_rest_imports(line: str, message: str) -> None:
    items, errors = jsonl.read_lines(f'{{"text": "fine"}}\n{line}')
    assert len(items) == 1
    assert errors[0].startswith("line 2: ")
    assert message in errors[0]


def test_export_imports_back_into_the_same_memories(
    vault: Vault, clock: FakeClock, tmp_path: Path
) -> None:
    _run(vault, clock, jsonl.read_lines(LINES)[0])
    store = MemoryStore(vault)
    first = sorted(vault.memory_files())[0].stem
    store.update(first, lambda r: {"recalls": 2, "links": ["[[x]]"], "filed": "auto"})
    path = vault.memories_dir / f"{sorted(vault.memory_files())[1].stem}.md"
    path.write_text(path.read_text().replace("---\n", "---\naliases: [freeze]\n", 1))
    store.move(path.stem, to_archive=True)
    exported = list(jsonl.export_lines(vault))
    assert len(exported) == 3
    assert json.loads(exported[-1])["vault"]["archived"] is True
    other = Vault(tmp_path / "other")
    other.create_folders()
    report = _run(other, clock, jsonl.read_lines("\n".join(exported))[0])
    assert len(report.created) == 3
    assert list(jsonl.export_lines(other)) == exported
    assert len(_run(vault, clock, jsonl.read_lines("\n".join(exported))[0]).skipped) == 3


V4_BANK = [
    {"id": "m_1796040960000_k3f9", "content": "User prefers pytest fixtures over setUp.",
     "scope": "global", "memory_type": "episodic", "tags": ["preference", "technical"],
     "salience": {"novelty": 0.6, "relevance": 0.8, "emotional": 0.2, "predictive": 0.6},
     "access_count": 3, "last_accessed": "2026-11-30T08:02:11.512Z",
     "created_at": "2026-11-29T19:36:00.000Z", "consolidated": False,
     "source_session": "5f0c", "updated_from": None},
]  # fmt: skip
PROJECT_BANK = [
    {"id": "m_1796136000000_a1b2", "content": "acme-api pins dateutil below 3.0.",
     "scope": "project", "memory_type": "semantic", "tags": ["project"], "access_count": 0,
     "last_accessed": None, "created_at": "2026-12-01T09:20:00.000Z", "consolidated": True},
]  # fmt: skip
V1_BACKUP = {
    "memories": [
        {"id": "lzq3k9x0ab12", "content": "Emma (8) is learning multiplication tables.",
         "salience": {"novelty": 0.6, "relevance": 0.7, "emotional": 0.8, "predictive": 0.4},
         "tags": ["personal"], "accessCount": 2, "lastAccessed": 1795900000000,
         "createdAt": 1795000000000, "consolidated": True},
        {"id": "dup1", "content": "User prefers pytest fixtures over setUp.", "tags": [],
         "createdAt": 1795000000000},
    ],
    "version": "v3",
}  # fmt: skip


def test_engram_banks_both_formats(vault: Vault, clock: FakeClock, tmp_path: Path) -> None:
    data, repo = tmp_path / "engram", tmp_path / "acme-api"
    repo.mkdir()
    (data / "global").mkdir(parents=True)
    (data / "global" / "memories.json").write_text(json.dumps(V4_BANK))
    bank = data / "projects" / engram.project_hash(repo)
    bank.mkdir(parents=True)
    (bank / "memories.json").write_text(json.dumps(PROJECT_BANK))
    found = engram.read_engram(data, [repo], lambda p: f"identity-of-{p.name}")
    items = found.items
    assert (found.notes, found.errors) == ([], [])
    report = _run(vault, clock, items)
    assert len(report.created) == 2
    records = {r.extra["import_extra"]["engram_id"]: r for r in _records(vault).values()}
    mine = records["m_1796040960000_k3f9"]
    assert (mine.recalls, mine.tier, mine.kind, mine.project) == (3, "episodic", "preference", "")
    assert mine.stability == pytest.approx(7 * 1.5**3)
    assert mine.salience == pytest.approx(0.55)
    assert mine.last_access == parse_time("2026-11-30T08:02:11Z")
    project = records["m_1796136000000_a1b2"]
    assert (project.tier, project.project) == ("semantic", "identity-of-acme-api")
    backup = tmp_path / "backup.json"
    backup.write_text(json.dumps(V1_BACKUP))
    second = _run(vault, clock, engram.read_engram(backup).items)
    assert len(second.created) == 1
    assert len(second.duplicates) == 1  # the same fact in the v4 bank
    emma = MemoryStore(vault).read(second.created[0])
    assert emma.created == parse_time("2026-11-18T11:06:40Z")  # from epoch milliseconds
    assert emma.extra["import_extra"]["engram_scope"] == "global"  # inferred from tags
    again = _run(vault, clock, items)
    assert (again.created, again.updated, len(again.skipped)) == ([], [], 2)


def test_an_unmatched_project_bank_is_imported_and_named(tmp_path: Path) -> None:
    bank = tmp_path / "projects" / "6689668a49dc"
    bank.mkdir(parents=True)
    (bank / "memories.json").write_text(json.dumps(PROJECT_BANK))
    found = engram.read_engram(tmp_path)
    items, notes = found.items, found.notes
    assert items[0].project == ""
    assert items[0].extra["engram_project"] == "6689668a49dc"
    assert "matches none of the project folders" in notes[0]


def test_hx_notes_keep_their_paths_as_topics_and_logs_become_moments(
    vault: Vault, clock: FakeClock, tmp_path: Path
) -> None:
    notes, home = tmp_path / "notes", tmp_path / "claude-memory"
    (notes / "decisions").mkdir(parents=True)
    (notes / "a" / "b" / "c").mkdir(parents=True)
    (notes / "decisions" / "testing.md").write_text(
        "---\ntags: [testing]\n---\n" + "Fixtures. " * 10
    )
    written = parse_time("2026-11-01T08:00:00Z").timestamp()
    os.utime(notes / "decisions" / "testing.md", (written, written))
    (notes / "a" / "b" / "c" / "too-deep.md").write_text("Deep. " * 20)
    (notes / "tiny.md").write_text("short")
    (home / "data" / "daily").mkdir(parents=True)
    config = {
        "index_paths": [{"path": str(notes), "depth": 3}],
        "evergreen_patterns": ["decisions/"],
        "salience_patterns": {"decisions/": 4.0},
    }
    (home / "config.json").write_text(json.dumps(config))
    (home / "data" / "access_log.json").write_text(
        json.dumps({str(notes / "decisions" / "testing.md"): ["2026-11-28T10:02:11.123456"]})
    )
    (home / "data" / "daily" / "2026-12-01.md").write_text(
        "---\ntitle: x\n---\n# Daily Log -- 2026-12-01\n\n**14:58** -- Decided: use uv\n"
    )
    found = hx.read_hx(home, ZoneInfo("Europe/Berlin"))
    items, skipped = found.items, found.notes
    assert skipped == []
    report = _run(vault, clock, items)
    assert len(report.created) == 2  # too deep and too small are left out, as hx does
    by_source = {r.source: r for r in _records(vault).values()}
    note = by_source["hx-note"]
    assert (note.topic, note.tier, note.recalls, note.tags) == (
        "notes/decisions", "curated", 1, ("testing",))  # fmt: skip
    assert note.created == parse_time("2026-11-01T08:00:00Z")  # the note's mtime
    assert note.last_access == parse_time("2026-11-28T09:02:11Z")  # Berlin time, in UTC
    assert note.extra["import_extra"] == {"hx_evergreen": True, "hx_salience": 4.0}
    logged = by_source["hx-log"]
    assert logged.created == parse_time("2026-12-01T13:58:00Z")
    assert logged.body == "Decided: use uv\n"
    assert _run(vault, clock, hx.read_hx(home, ZoneInfo("Europe/Berlin")).items).created == []


def test_a_dry_run_reports_and_writes_nothing(vault: Vault, clock: FakeClock) -> None:
    report = _run(vault, clock, jsonl.read_lines(LINES)[0], dry=True)
    assert len(report.created) == 3
    assert list(vault.memory_files()) == []
