"""Association: links written at encoding, mirrored, swept, and used by recall."""

from __future__ import annotations

from datetime import timedelta

import pytest

from memory.recall.ranking import RecallOptions
from memory.service import MemoryService
from tests.conftest import FakeClock, ServiceFactory
from vault.layout import Vault
from vault.links import link_targets

pytestmark = pytest.mark.model

RELATED = (
    "Use pytest fixtures instead of unittest setUp/tearDown in this codebase; sharing "
    "setup across test files was painful with TestCase classes.",
    "Shared test fixtures live in tests/conftest.py so every test module can request "
    "the temporary database without importing helpers.",
    "A session-scoped pytest fixture loads the embedding model once; per-test loading "
    "made the suite take twelve minutes.",
)
UNRELATED = (
    "Production Postgres ran out of connections; we put PgBouncer in transaction "
    "pooling mode in front of it.",
    "Use CSS grid for the dashboard layout and flexbox only inside cards.",
)
POSTGRES_TOO = (
    "Keep the SQLAlchemy pool size at 5 per worker; twenty workers times the default "
    "pool exhausted Postgres max_connections."
)


def links(service: MemoryService, memory_id: str) -> set[str]:
    record, _ = service.show(memory_id)
    return set(link_targets(record.links))


def jot_all(service: MemoryService, texts: tuple[str, ...]) -> list[str]:
    return [service.jot(text).id for text in texts]


def test_related_memories_link_both_ways_and_unrelated_ones_do_not(
    service: MemoryService,
) -> None:
    related = jot_all(service, RELATED)
    unrelated = jot_all(service, UNRELATED)
    for memory_id in related:
        assert links(service, memory_id) == set(related) - {memory_id}
    for memory_id in unrelated:
        assert links(service, memory_id) == set()
    text = service.show(related[0])[0].path.read_text()
    assert f'links: ["[[{related[1]}]]", "[[{related[2]}]]"]' in text or (
        f'links: ["[[{related[2]}]]", "[[{related[1]}]]"]' in text
    )


def test_links_survive_a_full_rebuild_and_a_sweep_changes_nothing(
    service: MemoryService,
) -> None:
    related = jot_all(service, RELATED)
    jot_all(service, UNRELATED)
    before = {m: links(service, m) for m in related}
    service.index.rebuild()
    assert {m: set(link_targets(service.index.row(m).links)) for m in related} == before  # type: ignore[union-attr]
    report = service.sweep_links()
    assert report.changed == []
    assert report.edges == 3


def test_editing_a_body_in_an_editor_then_sweeping_updates_its_links(
    service: MemoryService,
) -> None:
    related = jot_all(service, RELATED)
    postgres = service.jot(UNRELATED[0]).id
    assert links(service, postgres) == set()
    # The person rewrites the third testing memory into a Postgres one.
    path = service.show(related[2])[0].path
    head, body = path.read_text().rsplit("---\n", 1)
    assert body.strip() == RELATED[2]
    path.write_text(head + "---\n" + POSTGRES_TOO + "\n")

    report = service.sweep_links()

    assert related[2] in report.changed
    assert links(service, related[2]) == {postgres}
    assert links(service, postgres) == {related[2]}
    assert links(service, related[0]) == {related[1]}  # the stale reciprocal link is gone
    assert path.read_text().endswith(POSTGRES_TOO + "\n")  # the body is left as written


def test_sweep_drops_links_to_purged_memories_and_keeps_archived_ones(
    service: MemoryService,
) -> None:
    first, second, third = jot_all(service, RELATED)
    service.forget(second)  # archived: still a note Obsidian resolves
    service.purge(third)
    service.sweep_links()
    assert links(service, first) == {second}
    assert links(service, second) == {first}
    archived = service.show(second)[0]
    assert archived.archived


def test_recall_brings_linked_memories_as_see_also_below_their_hit(
    make_service: ServiceFactory,
) -> None:
    # shared words alone admit a direct match here, so the linked memories (close in
    # meaning, few shared words) can only come in as see-also
    service = make_service(VAULT_MIN_COSINE="1")
    related = jot_all(service, RELATED)
    jot_all(service, UNRELATED)
    hits = service.recall("which pytest fixture loads the embedding model once?")
    assert hits[0].id == related[2]
    assert not hits[0].via
    see_also = [h for h in hits if h.via]
    assert {h.id for h in see_also} <= set(related[:2])
    assert see_also, "a linked memory should come in as see-also"
    for hit in see_also:
        parent = next(h for h in hits if h.id == hit.via)
        assert hit.score < parent.score
        assert hit.recall_tier == "see-also"
        assert "linked from" in hit.reason
        assert not hit.reinforced
        assert service.show(hit.id)[0].recalls == 0
    assert hits[0].reinforced


def test_see_also_is_off_when_the_spread_is_zero(make_service: object) -> None:
    service = make_service(VAULT_LINK_SPREAD="0")  # type: ignore[operator]
    jot_all(service, RELATED)
    hits = service.recall("which pytest fixture loads the embedding model once?", RecallOptions())
    assert all(not h.via for h in hits)


def test_associative_recall_lists_see_also_separately(service: MemoryService) -> None:
    related = jot_all(service, RELATED)
    found = service.recall_associative(
        "which pytest fixture loads the embedding model once?", RecallOptions(reinforce=False)
    )
    shown = {h.id for h in found.confident + found.activated}
    assert found.see_also
    assert all(h.via in shown for h in found.see_also)
    assert all(h.id not in shown for h in found.see_also)
    assert {h.id for h in found.see_also} <= set(related)


def test_what_came_next_in_the_session_comes_along(
    make_service: ServiceFactory, clock: FakeClock
) -> None:
    """Temporal association: the memory said right after a hit in the same session
    joins as see-also, even though it shares no words with the query (the words
    said around a memory are switched off here, or it would match by them)."""
    service = make_service(VAULT_CONTEXT_WEIGHT="0", VAULT_SESSION_COSINE="0")
    said = clock.now + timedelta(minutes=1)  # captured later, said a minute after
    question = service.jot("Why did the nightly export job fail again?", session="s1")
    clock.advance(minutes=5)
    answer_text = "The disk on the batch host filled up; we added log rotation."
    answer = service.jot(answer_text, session="s1", created=said)
    other = service.jot("Unrelated: the office moves to the third floor.", session="s2")
    assert service.show(answer.id)[0].created == said
    hits = service.recall("nightly export job failure", RecallOptions(reinforce=False))
    by_id = {h.id: h for h in hits}
    assert hits[0].id == question.id
    assert by_id[answer.id].via == question.id
    assert "same session as" in by_id[answer.id].reason
    assert by_id[answer.id].score == pytest.approx(0.8 * hits[0].score)
    assert other.id not in by_id
    off = service.recall(
        "nightly export job failure", RecallOptions(reinforce=False, see_also=False)
    )
    assert answer.id not in {h.id for h in off}


def test_captured_memories_are_dated_when_they_were_said(
    service: MemoryService, clock: FakeClock
) -> None:
    from memory.encode.capture import capture
    from memory.encode.extract import extract
    from vault.clock import parse_time

    turns = [
        ("user", "We decided to use Postgres for the billing service."),
        ("user", "From now on, always run the database migrations with Alembic."),
        ("user", "I prefer tabs over spaces in every Makefile, always."),
    ]
    stamps = ["2026-01-01T08:00:00Z", "2026-01-01T08:05:00Z", "2031-01-01T00:00:00Z"]
    report = capture(service, extract(turns, stamps), session="s9")
    assert len(report.created) == 3
    created = [service.show(m)[0].created for m in report.created]
    assert created == [parse_time(stamps[0]), parse_time(stamps[1]), clock.now]  # never later
    assert service.index.catalog.session_ids("s9") == report.created  # the order they were said
    assert all(service.show(m)[0].last_access == clock.now for m in report.created)


def test_see_also_reads_on_past_memories_it_cannot_bring(make_service: ServiceFactory) -> None:
    """The best see-also candidate is archived: the next one in the session comes
    instead, even with room for only one (rows are read best share first)."""
    service = make_service(
        VAULT_CONTEXT_WEIGHT="0", VAULT_SESSION_COSINE="0", VAULT_SESSION_WINDOW="2"
    )
    question = service.jot("Why did the nightly export job fail again?", session="s1", seq=1)
    right_after = service.jot("Lunch is at the Thai place on Friday.", session="s1", seq=2)
    two_after = service.jot("The office moves to the third floor in May.", session="s1", seq=3)
    service.forget(right_after.id)
    found = service.recall_associative(
        "nightly export job failure", RecallOptions(limit=1, reinforce=False)
    )
    assert [h.id for h in found.confident + found.activated] == [question.id]
    assert [h.id for h in found.see_also] == [two_after.id]
    assert found.see_also[0].text == "The office moves to the third floor in May."


def test_an_edit_in_a_subfolder_links_without_walking_the_vault(
    service: MemoryService, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The watcher's path on a vault filed in folders: linking writes each neighbour
    where the index saw it (a walk of every folder per neighbour took 10 s at 200,000
    memories, 63 s for one edit)."""
    folder = service.vault.memories_dir / "work" / "testing"
    folder.mkdir(parents=True)
    filed = []
    for memory_id in jot_all(service, RELATED[:2]):
        path = service.show(memory_id)[0].path
        path.rename(folder / path.name)
        filed.append(memory_id)
    service.sync()

    def walked(_: object) -> None:
        raise AssertionError("the vault's folders were walked to find a memory")

    monkeypatch.setattr(Vault, "_walk", staticmethod(walked))
    dropped = folder / "fixtures-session-scope.md"
    dropped.write_text(f"---\nid: fixtures-session-scope\n---\n{RELATED[2]}\n")
    service.on_files_changed([dropped])
    assert set(link_targets(service.index.row("fixtures-session-scope").links)) == set(filed)  # type: ignore[union-attr]
    for memory_id in filed:
        assert "fixtures-session-scope" in (folder / f"{memory_id}.md").read_text()
