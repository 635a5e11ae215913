"""What lasts on the shipped defaults, through the daemon's prompt operation with
an injected clock: a durable kind never fades; a faded fact that prune archived
comes back hedged when a prompt is a specific cue for it, never when it was
superseded, and never for a prompt that is no cue for it."""

from __future__ import annotations

import pytest

from hooks.ops.table import dispatch
from memory.service import MemoryService
from tests.conftest import FakeClock

pytestmark = pytest.mark.model
BILLING = "The billing service listens on port 8003."
SEARCH = "The search service listens on port 8040."
BILLING_CUE = "which port do I point at to reach billing?"
SEARCH_CUE = "which port do I point at to reach search?"
HEDGED = "Might be related"
# Other memories, so the keywords of a cue are as selective as in a lived-in vault.
OTHERS = [
    f"The {name} worker retries failed jobs three times before giving up."
    for name in ("mailer", "thumbnail", "webhook", "ledger", "import", "export", "audit", "cache")
] + [
    f"Reviews of the {area} code need a second approver from the platform team."
    for area in ("auth", "checkout", "reporting", "mobile", "admin", "pricing", "catalog", "cart")
]


def prompt(service: MemoryService, text: str) -> str:
    event = {"prompt": text, "session_id": "s1", "cwd": ""}
    return str(dispatch(service, "prompt_event", {"event": event})["output"])


def _archived_facts(service: MemoryService, clock: FakeClock) -> tuple[str, str]:
    billing = service.jot(BILLING).id
    search = service.jot(SEARCH).id
    for text in OTHERS:
        service.jot(text)
    clock.at_day(60)  # exp(-60/7): far under the archive floor
    archived = {item["id"] for item in dispatch(service, "prune", {"dry_run": False})["archived"]}
    assert {billing, search} <= archived
    return billing, search


def test_a_specific_cue_brings_an_archived_fact_back_hedged(
    service: MemoryService, clock: FakeClock
) -> None:
    billing, _ = _archived_facts(service, clock)
    output = prompt(service, BILLING_CUE)
    assert billing in output
    assert output.index(HEDGED) < output.index(billing)  # hedged, never stated as current


def test_a_superseded_fact_stays_in_the_archive(service: MemoryService, clock: FakeClock) -> None:
    _, search = _archived_facts(service, clock)
    path = service.vault.locate(search)
    text = path.read_text(encoding="utf-8")
    path.write_text(text.replace("\nkind:", '\nsuperseded_by: "[[newer]]"\nkind:', 1), "utf-8")
    service.sync()
    assert search not in prompt(service, SEARCH_CUE)


def test_a_prompt_that_is_no_cue_brings_nothing_back(
    service: MemoryService, clock: FakeClock
) -> None:
    _archived_facts(service, clock)
    assert prompt(service, "can you tidy up the README wording before lunch?") == ""


def test_durable_kinds_never_fade_on_the_shipped_defaults(
    service: MemoryService, clock: FakeClock
) -> None:
    rule = service.jot("Never log raw card numbers; compliance flagged it.", kind="prohibition")
    chatter = service.jot("The staging deploy is slow this morning, retrying it.")
    clock.at_day(400)
    archived = {item["id"] for item in dispatch(service, "prune", {"dry_run": False})["archived"]}
    assert archived == {chatter.id}
    assert rule.id in prompt(service, "is it ok to print card numbers while debugging?")
