"""The words said around a memory: its session's order (created, then seq), the
context column kept in step with the session, and what search makes of it."""

from __future__ import annotations

import pytest

from indexer.keywords import match_expression, query_phrases
from indexer.session_context import blend, window_texts
from memory.service import MemoryService
from tests.conftest import FakeClock

QUESTION = "Why did the nightly export job fail again?"
ANSWER = "The disk on the batch host filled up; we added log rotation."


def test_window_texts_take_two_either_side_within_the_session() -> None:
    assert window_texts(["a", "b", "c", "d", "e"]) == [
        "b c",
        "a c d",
        "a b d e",
        "b c e",
        "c d",
    ]
    assert window_texts(["only"]) == [""]
    assert window_texts(["y", "x" * 1500]) == ["x" * 1000, "y"]  # a long one adds its opening


def test_a_neighbour_closes_part_of_the_cosine_gap_and_never_lowers_it() -> None:
    assert blend(0.2, 0.6, 0.5) == pytest.approx(0.4)
    assert blend(0.6, 0.2, 0.5) == 0.6
    assert blend(0.3, 0.9, 0.0) == 0.3


def test_word_pairs_become_phrases_of_adjacent_content_words() -> None:
    query = "When did Caroline go to the LGBTQ support group, and the support group?"
    assert query_phrases(query) == ["caroline go", "lgbtq support", "support group"]
    assert query_phrases(query, ["support", "group"]) == ["support group"]
    assert query_phrases("group group") == []
    assert match_expression("support group") == '"support" OR "group" OR "support group"'


@pytest.mark.model
def test_an_answer_is_found_by_the_question_said_before_it(service: MemoryService) -> None:
    question = service.jot(QUESTION, session="s1", seq=1)
    answer = service.jot(ANSWER, session="s1", seq=2)
    found = {c.row.id: c for c in service.index.search("nightly export job failure")}
    assert found[answer.id].keyword > 0  # by its context: its own body has none of these
    assert found[question.id].similarity > found[answer.id].similarity
    assert service.index.body(answer.id).strip() == ANSWER
    assert service.show(answer.id)[0].body.strip() == ANSWER


@pytest.mark.model
def test_order_within_a_session_is_created_then_seq_and_context_follows_it(
    service: MemoryService, clock: FakeClock
) -> None:
    said = clock.now
    third = service.jot("Third: the fix shipped on Friday.", session="s1", seq=3, created=said)
    first = service.jot("First: exports stopped on Monday.", session="s1", seq=1, created=said)
    catalog = service.index.catalog
    assert catalog.session_ids("s1") == [first.id, third.id]  # D1:2 before D1:19, not as text
    second = service.jot("Second: the batch disk was full.", session="s1", seq=2, created=said)
    assert catalog.session_ids("s1") == [first.id, second.id, third.id]
    assert catalog.session_order([second.id]) == {second.id: (first.id, third.id)}
    rows = service.index.rows_for([first.id, second.id])
    assert service.index.session_neighbours(rows.values(), 2) == {  # what see-also walks
        first.id: [(second.id, 1), (third.id, 2)],
        second.id: [(first.id, -1), (third.id, 1)],
    }
    contexts = {m: context for m, _, context in catalog.session_texts("s1")}
    assert (
        contexts[first.id] == "Second: the batch disk was full. Third: the fix shipped on Friday."
    )
    service.purge(second.id)
    assert catalog.session_order([first.id]) == {first.id: ("", third.id)}
    assert catalog.session_texts("s1")[0][2] == "Third: the fix shipped on Friday."


@pytest.mark.model
def test_a_memory_without_a_session_has_no_context(service: MemoryService) -> None:
    alone = service.jot("Billing amounts are stored as integer cents.")
    service.jot("Unrelated: the office moves to the third floor.")
    assert service.index.catalog.session_order([alone.id]) == {}
    found = {c.row.id: c for c in service.index.search("office third floor")}
    assert found.get(alone.id) is None or found[alone.id].keyword == 0


@pytest.mark.model
def test_an_index_update_counts_the_sessions_it_refreshes_after_paths_and_embedding(
    service: MemoryService,
) -> None:
    """A consolidation's or prune's "Indexing" bar keeps moving while the words said
    around each touched memory are refreshed (minutes on a big vault), one count
    that only grows: 2 paths, 2 memories embedded, then 2 sessions."""
    first = service.jot("The export job writes to the batch host.", session="s1", seq=1)
    service.jot("Its logs rotate nightly now.", session="s1", seq=2)
    other = service.jot("The staging cache holds a day of pages.", session="s2", seq=1)
    for record in (first, other):
        with record.path.open("a", encoding="utf-8") as handle:
            handle.write("\nChecked again this week.\n")
    heard: list[tuple[int, int]] = []
    service.index.apply([first.path, other.path], progress=lambda d, t: heard.append((d, t)))
    assert heard[-2:] == [(5, 6), (6, 6)]  # the two sessions, after 2 paths and 2 embedded
    assert [d for d, _ in heard] == sorted(d for d, _ in heard)
