"""What a memory's wording states, and the rules built on it: which newer fact
supersedes which older one, and what keeps two memories from being one fact."""

from __future__ import annotations

import pytest

from memory.consolidation.gist import decision_gist, gist_sentences
from memory.consolidation.relations import Item, supersedes, why_not_one_fact
from memory.consolidation.text import analyse, keyed_numbers, negated_terms

BAR = 0.4


def item(memory_id: str, text: str, created: str, project: str = "api", kind: str = "fact",
         topic: str = "") -> Item:  # fmt: skip
    return Item(memory_id, project, kind, topic, created, text, analyse(text))


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Production API now binds to port 8080.", [("port", "8080")]),
        ("Production API port is 8000 (uvicorn).", [("port", "8000")]),
        ("The nightly job runs at 04:30 UTC.", [("time", "04:30")]),
        ("The api repo targets Python 3.10.", [("version", "3.10")]),
        ("The client uses a 30 second HTTP timeout.", [("second", "30")]),
        ("Worker concurrency raised to 8 processes per pod.", [("process", "8")]),
        ("Prod EKS lives in AWS region eu-west-1 (Ireland).", []),
        ("Dates look like 2025-10-23T09:35:00Z.", []),
    ],
)
def test_numbers_are_keyed_by_what_they_measure(text: str, expected: list) -> None:
    assert keyed_numbers(text) == expected


def test_a_negation_covers_its_phrase_not_the_rest_of_the_sentence() -> None:
    assert negated_terms("No third-party modules in logslice.") == {"third-party", "third",
                                                                   "party", "modul"}  # fmt: skip
    assert negated_terms("Stored as NUMERIC(18,8), not as integer cents, because of decimals") \
        == {"integer", "cent"}  # fmt: skip


def test_facts_name_people_products_environments_and_changes() -> None:
    owner = analyse("Marco's data team owns the worker service; contact them for incidents.")
    assert owner.names == {"marco"}
    moved = analyse("We moved off Poetry to uv: `uv sync` and a uv.lock in every Python repo.")
    assert moved.change
    assert "poetry" in moved.replaced
    staging = analyse("On staging the API binds to port 8081.")
    assert staging.environments == {"staging"}
    assert analyse("Release branches are the exception: they get a merge commit.").exception


@pytest.mark.parametrize(
    ("older", "newer", "cosine", "why"),
    [
        ("In production the API binds to port 8000.",
         "Production API now binds to port 8080.", 0.52, "port 8000 -> 8080"),
        ("The API is deployed to Heroku with git push heroku main.",
         "We moved the API off Heroku to Fly.io.", 0.45, "says heroku was replaced"),
        ("Sam is the code owner for src/billing in the api repo.",
         "Dana is the code owner for src/billing in the api repo.", 0.7,
         "Dana where it said Sam"),
        # one person in place of another for the same role, said as a change
        ("Releases are signed by Dana.", "Release signing is Omar's job now.", 0.5,
         "omar where it said dana"),
        # a denial of what the older chose, with what replaces it
        ("Deploys run from main.", "Deploys run from the release branch, not main.", 0.8,
         "takes branch, release instead of main"),
        ("CI runs on Travis.", "CI has left Travis; the pipelines run on Buildkite.", 0.75,
         "says travi was replaced"),
        ("For HTTP calls we settled on requests.", "We're dropping requests for HTTP calls; "
         "niquests replaces it.", 0.55, "says request was replaced"),
        ("Ravi owns the deploy scripts; ask him first.",
         "Lucia has taken over the deploy scripts from Ravi.", 0.65, "says ravi was replaced"),
        # the newer names the older's value as the one before, in other words
        ("We keep gunicorn pinned at 21.2, because its later releases leak connections under our "
         "retry wrapper.", "gunicorn goes from 21.2 up to 22.0 now that upstream merged the patch.",
         0.8, "version 21.2 -> 22.0, naming it the former"),
    ],
)  # fmt: skip
def test_a_newer_fact_supersedes_the_older_one(older, newer, cosine, why) -> None:
    first, second = (
        item("a", older, "2025-08-01T00:00:00Z"),
        item("b", newer, "2026-01-01T00:00:00Z"),
    )
    assert supersedes(first, second, cosine, BAR) == why
    assert supersedes(second, first, cosine, BAR) is None  # the older never wins


@pytest.mark.parametrize(
    ("older", "newer", "cosine", "kw"),
    [
        # an exception next to its rule, not an update of it
        ("The public API allows 300 requests per minute per key.",
         "Enterprise API keys are exempt from the standard rate limit and get 1000 requests per "
         "minute.", 0.88, {}),
        # different environments
        ("Production API binds to port 8080.", "The staging API binds to port 8081.", 0.8, {}),
        # different attributes of one subject
        ("The production cluster runs in eu-west-1.",
         "The production cluster runs Kubernetes 1.27.", 0.81, {}),
        # different projects
        ("The API runs on Python 3.12.", "The worker stays on Python 3.11.", 0.8,
         {"project": "worker"}),
        # the same attribute of another thing, named where the sentence starts or after "in"
        ("Avatars can be up to 2 MB.", "Documents can be up to 20 MB.", 0.8, {}),
        ("The cluster in Frankfurt has 3 nodes.", "The cluster in Tokyo has 5 nodes.", 0.85, {}),
        # another person named, with no change said: both can hold
        ("Releases are signed by Dana.", "Release notes are written by Omar.", 0.6, {}),
        # says again, with no change said, the value the older named as the one before
        ("The index rebuild moved from 03:00 to 05:00 UTC.",
         "Our index rebuild starts at 03:00 UTC.", 0.75, {}),
        # same subject but not similar enough
        ("In production the API binds to port 8000.", "Production API now binds to port 8080.",
         0.3, {}),
    ],
)  # fmt: skip
def test_no_supersession_between_facts_that_can_both_hold(older, newer, cosine, kw) -> None:
    first = item("a", older, "2025-08-01T00:00:00Z")
    second = item("b", newer, "2026-01-01T00:00:00Z", **kw)
    assert supersedes(first, second, cosine, BAR) is None


def test_what_keeps_two_memories_from_being_one_fact() -> None:
    region = item("a", "The production cluster runs in eu-west-1.", "2025-08-01T00:00:00Z")
    version = item("b", "The production cluster runs Kubernetes 1.27.", "2025-08-02T00:00:00Z")
    assert why_not_one_fact(region, version) == "different details"
    fixtures = item(
        "c", "Prefer pytest fixtures to setUp.", "2025-08-01T00:00:00Z", topic="testing"
    )
    again = item("d", "Use fixtures, not setUp.", "2025-09-01T00:00:00Z", topic="testing")
    assert why_not_one_fact(fixtures, again) is None
    assert why_not_one_fact(fixtures, item("e", again.text, again.created, kind="decision",
                                           topic="testing")) == "different kinds"  # fmt: skip
    assert why_not_one_fact(fixtures, item("f", again.text, again.created, topic="git")) \
        == "different topics"  # fmt: skip
    go = item("g", "The orders service is written in Go.", "2025-08-01T00:00:00Z")
    kubernetes = item("h", "The orders service is deployed on Kubernetes.", "2025-08-02T00:00:00Z")
    assert why_not_one_fact(go, kubernetes) == "names go and kubernet"
    vite = item("i", "The frontend is bundled with Vite.", "2025-08-01T00:00:00Z")
    assert why_not_one_fact(vite, item("j", "Vite bundles the frontend.", "2025-09-01")) is None


EPISODE = (
    "Spent the afternoon on the Heroku bill and on dyno restarts. The router timeout also cut "
    "off the PDF batch endpoint twice this week. Compared Fly.io and Render; Fly gives us "
    "machines close to the database. We moved the API off Heroku to Fly.io, and deploys are now "
    "`fly deploy` from CI."
)


def test_the_gist_keeps_the_decision_and_drops_the_context() -> None:
    gist = decision_gist(EPISODE)
    assert (
        gist == "We moved the API off Heroku to Fly.io, and deploys are now `fly deploy` from CI."
    )
    assert gist_sentences("Short memory. Two sentences.") == []
    story = (
        "We looked at the logs from the night before the outage. The disk on the build machine "
        "was full of old images and core dumps. Nobody had checked it for months, and the alert "
        "for it had been muted during the migration."
    )
    assert decision_gist(story) is None  # nothing carries a decision: keep it whole
    chat = EPISODE.rsplit(". ", 1)[0] + ". Want to hear how the first deploy went?"
    assert "?" not in (decision_gist(chat) or "")  # a question is never the gist
    assert decision_gist("Short one. Really short. We moved to uv.") is None  # under 40 words


def test_who_said_it_and_who_is_addressed_are_not_facts_that_change() -> None:
    first = item("a", "Caroline: Thanks, Melanie! Your kind words mean a lot.", "2023-05-01")
    second = item("b", "Melanie: Thanks, Caroline! Your kind words mean a lot.", "2023-06-01")
    assert why_not_one_fact(first, second) == "said by different people"
    assert supersedes(first, second, 0.9, BAR) is None
    assert analyse("Definitely, Gina! Let's dance next Fri at the studio.").names == frozenset()
