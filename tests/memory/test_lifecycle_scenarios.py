"""Each of seed 001's factors changes a ranking as the README documents, on real
files and the real model, through the daemon's operations, with an injected clock:
evergreen (kind, path, frontmatter), salience from a path pattern, retrieval
strengthening (appearances within 7 days) and the consolidation bonus."""

from __future__ import annotations

import json
import shutil
from typing import Any

import pytest
from click.testing import CliRunner

from hooks.cli.main import main
from hooks.ops.table import dispatch
from memory.service import MemoryService
from tests.conftest import FakeClock, ServiceFactory
from vault import periodic

pytestmark = pytest.mark.model
QUEUE = "which message queue carries the order events?"
DECISION = "We decided that RabbitMQ carries the order events between services."
INCIDENT = "The order events queue in RabbitMQ stalled on Tuesday after a restart."
DEPLOY = "how do we deploy the web app?"
ACTIONS = "We deploy the web app with a GitHub Actions workflow on every tag."
DOCKER = "Deploying the web app means pushing a Docker image to the registry."
NO_KINDS = {"VAULT_EVERGREEN_KINDS": ""}  # decisions fade like any jot here (default: never)


def ranked(service: MemoryService, query: str, **args: Any) -> list[str]:
    hits = dispatch(service, "recall", {"query": query, "reinforce": False, **args})
    return [hit["id"] for hit in hits if not hit.get("via")]


def scores(service: MemoryService, query: str) -> dict[str, float]:
    args = {"query": query, "reinforce": False, "no_decay": True, "limit": 10}
    return {hit["id"]: hit["score"] for hit in dispatch(service, "recall", args)}


def _decision_and_incident(service: MemoryService, clock: FakeClock) -> tuple[str, str]:
    decision = service.jot(DECISION, kind="decision").id
    clock.at_day(20)
    incident = service.jot(INCIDENT).id
    clock.at_day(30)  # the decision is 30 days old: exp(-30/7) = 0.014, under every floor
    return decision, incident


@pytest.mark.parametrize("how", ["kind", "path", "frontmatter"])
def test_evergreen_memories_never_fade_and_are_never_pruned(
    make_service: ServiceFactory, clock: FakeClock, how: str
) -> None:
    plain = make_service(**NO_KINDS)
    decision, incident = _decision_and_incident(plain, clock)
    assert ranked(plain, QUEUE) == [incident]  # the faded decision is hidden
    env = {"VAULT_EVERGREEN_KINDS": "decision"} if how == "kind" else NO_KINDS
    if how == "path":  # the default glob memories/decisions/**
        path = plain.vault.locate(decision)
        target = plain.vault.memories_dir / "decisions" / path.name
        target.parent.mkdir()
        shutil.move(path, target)
    if how == "frontmatter":
        path = plain.vault.locate(decision)
        text = path.read_text(encoding="utf-8")
        path.write_text(text.replace("\nkind:", "\nevergreen: true\nkind:", 1), "utf-8")
    evergreen = make_service(**env)
    evergreen.sync()
    assert ranked(evergreen, QUEUE)[0] == decision  # strength 1.0 beats the newer incident
    clock.at_day(400)
    pruned = {item["id"] for item in dispatch(evergreen, "prune", {"dry_run": False})["archived"]}
    assert pruned == {incident}
    assert ranked(evergreen, QUEUE) == [decision]


def test_salience_from_a_path_pattern_slows_decay(
    make_service: ServiceFactory, clock: FakeClock
) -> None:
    plain = make_service(**NO_KINDS)
    decision, incident = _decision_and_incident(plain, clock)
    path = plain.vault.locate(decision)
    target = plain.vault.memories_dir / "core" / path.name
    target.parent.mkdir()
    shutil.move(path, target)
    plain.sync()
    assert ranked(plain, QUEUE) == [incident]
    salient = make_service(VAULT_SALIENCE_PATHS="memories/core/**=5", **NO_KINDS)
    found = dispatch(salient, "recall", {"query": QUEUE, "reinforce": False})
    strengths = {hit["id"]: hit["strength"] for hit in found}
    assert strengths[decision] == pytest.approx(0.424, abs=0.001)  # exp(-(30 / 5) / 7)
    assert [hit["id"] for hit in found][0] == decision


def _near_tie(service: MemoryService) -> tuple[str, str]:
    """Two deploy memories, the first ahead by less than x1.3 (checked)."""
    first, second = service.jot(ACTIONS).id, service.jot(DOCKER).id
    before = scores(service, DEPLOY)
    if before[first] < before[second]:
        first, second = second, first
    assert 1.0 < before[first] / before[second] < 1.3
    return first, second


def test_appearances_within_the_window_lift_a_memory(
    service: MemoryService, clock: FakeClock
) -> None:
    first, second = _near_tie(service)
    file_before = service.vault.locate(second).read_bytes()
    cue = service.index.body(second)
    for _ in range(6):  # six recalls in a week, each showing only `second`
        clock.advance(1)
        assert dispatch(service, "recall", {"query": cue, "limit": 1, "reinforce": True})
    stats = {row["id"]: row for row in dispatch(service, "access_stats", {})}
    assert stats[second]["appearances_in_window"] == 6
    assert stats[second]["retrieval_boost"] == pytest.approx(0.3)
    assert first not in stats
    assert ranked(service, DEPLOY, no_decay=True)[:2] == [second, first]
    clock.advance(7)  # every appearance left the 7-day window
    assert ranked(service, DEPLOY, no_decay=True)[:2] == [first, second]
    assert b"appear" not in service.vault.locate(second).read_bytes()
    assert file_before != service.vault.locate(second).read_bytes()  # reinforced, not counted


def test_a_prompt_counts_what_it_injected_and_a_look_counts_nothing(
    service: MemoryService, clock: FakeClock
) -> None:
    memory = service.jot(ACTIONS).id
    dispatch(service, "recall", {"query": DEPLOY, "reinforce": False})
    assert dispatch(service, "access_stats", {}) == []
    event = {"prompt": DEPLOY, "session_id": "s1", "cwd": str(service.vault.root)}
    output = dispatch(service, "prompt_event", {"event": event})["output"]
    assert memory in output
    [row] = dispatch(service, "access_stats", {})
    assert (row["id"], row["appearances_in_window"]) == (memory, 1)


def test_links_from_periodic_notes_lift_a_memory(service: MemoryService, clock: FakeClock) -> None:
    first, second = _near_tie(service)
    for level in ("weekly", "monthly"):
        period = periodic.containing(level, clock())
        periodic.write_note(service.vault, period, f"# {period.key}\n- [[{second}]]\n")
    assert ranked(service, DEPLOY, no_decay=True)[:2] == [second, first]  # x1.3
    result = CliRunner().invoke(main, ["access-stats", "--json"])
    assert result.exit_code == 0, result.stderr
    [row] = json.loads(result.stdout)
    assert (row["id"], row["periodic_levels"]) == (second, ["weekly", "monthly"])
    assert row["consolidation_bonus"] == pytest.approx(0.3)
    text = CliRunner().invoke(main, ["access-stats"]).stdout
    assert "weekly,monthly" in text
    assert second in text
    weekly = periodic.containing("weekly", clock())
    periodic.write_note(service.vault, weekly, "# the link is gone\n")
    monthly = periodic.containing("monthly", clock())
    periodic.write_note(service.vault, monthly, "# and here too\n")
    assert ranked(service, DEPLOY, no_decay=True)[:2] == [first, second]
