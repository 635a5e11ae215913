"""Consolidation on real files, the real model and index, with an injected clock:
merge, supersede, gist and undo byte for byte; interference at encoding;
salience at capture; confidence in ranking; the automatic run."""

from __future__ import annotations

from pathlib import Path

import pytest

from hooks.claude_code.context_text import recall_context
from hooks.ops.table import dispatch
from memory.encode.capture import capture
from memory.encode.extract import Statement
from memory.errors import ConsolidationError
from memory.lifecycle.confidence import confidence_factor
from memory.recall.ranking import RecallOptions
from memory.service import MemoryService
from tests.conftest import FakeClock, ServiceFactory
from vault.layout import Vault
from vault.links import link_targets, wikilink

pytestmark = pytest.mark.model
PEEK = RecallOptions(reinforce=False, see_also=False)
FIXTURES = (  # one preference, said five times (merge maturity)
    "Use pytest fixtures rather than unittest setUp/tearDown in this codebase; sharing setup "
    "between test files was painful with TestCase classes on a previous project.",
    "Prefers pytest fixtures to setUp/tearDown methods for test setup.",
    "Don't write unittest.TestCase classes with setUp; the user wants plain pytest test "
    "functions with fixtures, and shared fixtures go in conftest.py.",
    "Test setup belongs in fixtures, not in setUp/tearDown. The user said this again while "
    "reviewing the worker tests.",
    "Reminder from the user: pytest-style fixtures, with yield for the teardown part, instead of "
    "TestCase setUp and tearDown.",
)
OLD_PORT = "In production the API's uvicorn process binds to port 8000."
NEW_PORT = (
    "Production API now binds to port 8080; the Helm chart's probes and the ALB target group "
    "point at 8080."
)
EPISODE = (
    "The 14:00 deploy dropped the invoices.legacy_ref column while pods on the previous version "
    "were still running, and those pods threw errors until the rollout finished. About 300 "
    "webhook calls failed and had to be replayed. The migration had passed review because it "
    "looked like routine cleanup. Agreed to do schema changes as expand/contract: add the new "
    "column, deploy code that uses it, and drop the old column only in a later release."
)
DECISION = "Agreed to do schema changes as expand/contract"


def files(vault: Vault) -> dict[str, bytes]:
    return {vault.relative(p): p.read_bytes() for p in vault.memory_files()}


def build(service: MemoryService, clock: FakeClock) -> dict[str, str]:
    ids = {}
    for day, text in enumerate(FIXTURES):
        clock.at_day(day)
        ids[f"fixture{day}"] = service.jot(text, kind="preference", topic="testing").id
    clock.at_day(1)
    ids["old_port"] = service.jot(OLD_PORT, project="api", topic="deployment").id
    ids["episode"] = service.jot(EPISODE, kind="episode", project="api", topic="database").id
    ids["linker"] = service.jot("The worker tests share a Postgres container.", topic="ci").id
    service.store.update(ids["linker"], lambda _: {"links": [wikilink(ids["fixture1"])]})
    clock.at_day(20)
    ids["new_port"] = service.jot(NEW_PORT, project="api", topic="deployment").id
    service.sync()
    return ids


def test_consolidate_merges_supersedes_gists_and_undo_restores_every_byte(
    service: MemoryService, clock: FakeClock
) -> None:
    ids = build(service, clock)
    before = files(service.vault)
    report = service.consolidate()
    assert report.counts == {"supersede": 1, "merge": 1, "gist": 1, "pattern": 0}
    [merge] = [a for a in report.actions if a["action"] == "merge"]
    merged = service.show(merge["into"])[0]
    assert set(link_targets(merged.merged_from)) == {ids[f"fixture{n}"] for n in range(5)}
    assert ("conftest.py" in merged.body, "yield" in merged.body) == (True, True)
    assert merged.confidence == 0.9
    source = service.show(ids["fixture1"])[0]
    assert (source.archived, link_targets(source.merged_into)) == (True, [merged.id])
    assert link_targets(service.show(ids["linker"])[0].links) == [merged.id]
    old = service.show(ids["old_port"])[0]
    assert (old.archived, link_targets(old.superseded_by)) == (True, [ids["new_port"]])
    assert link_targets(service.show(ids["new_port"])[0].supersedes) == [ids["old_port"]]
    gist = service.show(ids["episode"])[0]
    assert gist.body.startswith(DECISION)
    full = service.show(link_targets(gist.gist_of)[0])[0]
    assert (full.archived, full.body.strip(), link_targets(full.gist)) == (
        True, EPISODE, [ids["episode"]]
    )  # fmt: skip
    # The older fact leaves ordinary recall; cold recall still finds it.
    found = service.recall_associative("What port does the production API listen on?", PEEK)
    shown = [h.id for h in found.confident + found.activated]
    assert ids["new_port"] in shown
    assert ids["old_port"] not in shown
    assert ids["old_port"] in [h.id for h in service.recall_cold(OLD_PORT)]

    undone = service.undo_consolidation(report.run or "")
    assert files(service.vault) == before
    assert undone.forced == []
    with pytest.raises(ConsolidationError, match=f"run {report.run} was already undone"):
        service.undo_consolidation(report.run or "")


def test_the_gist_of_a_ten_day_old_episode_keeps_its_decision(
    service: MemoryService, clock: FakeClock
) -> None:
    memory = service.jot(EPISODE, kind="episode", project="api")
    clock.at_day(5)
    assert service.consolidate(dry_run=True).counts["gist"] == 0  # not yet 7 days old
    clock.at_day(10)
    assert service.consolidate().counts["gist"] == 1
    record = service.show(memory.id)[0]
    assert DECISION in record.body
    assert "webhook calls" not in record.body
    assert (record.tier, record.stability) == ("semantic", 7.0)  # its strength is unchanged


def test_an_update_damps_the_older_memory_at_once_and_only_once(
    service: MemoryService, clock: FakeClock
) -> None:
    old = service.jot(OLD_PORT, project="api")
    unrelated = service.jot("Invoices are rendered with WeasyPrint.", project="api")
    clock.advance(days=3)
    service.jot(NEW_PORT, project="api")
    assert service.show(old.id)[0].salience == pytest.approx(0.7)
    assert service.show(unrelated.id)[0].salience == 1.0
    service.index.rebuild()
    service.sync()  # every memory is "added" again: no second damping
    assert service.show(old.id)[0].salience == pytest.approx(0.7)


def test_salience_at_capture_and_weights_learned_from_signals(
    make_service: ServiceFactory, clock: FakeClock
) -> None:
    service = make_service(VAULT_SALIENCE_LEARN_AFTER="2")
    first = capture(service, [Statement(OLD_PORT, "fact", "user")], project="api")
    record = service.show(first.created[0])[0]
    assert set(record.salience_dims) == {"novelty", "relevance", "emotion", "prediction_error"}
    assert record.salience_dims["prediction_error"] == 0.0
    clock.advance(days=2)
    second = capture(service, [Statement(NEW_PORT, "fact", "assistant")], project="api")
    update = service.show(second.created[0])[0]
    assert update.salience_dims["prediction_error"] == 1.0
    assert service.show(record.id)[0].salience == pytest.approx(record.salience * 0.7)
    service.reinforce(update.id)
    service.forget(record.id)
    learned = service.status().consolidation["salience"]
    assert learned["signals"] == 2
    assert learned["weights"]["prediction_error"] == 1.5  # reinforced when surprising


def test_confidence_multiplies_the_score_and_shows_in_the_context_line(
    service: MemoryService,
) -> None:
    memory = service.jot("Deploy the billing service with helm upgrade from the infra repo.")
    query = "How do I deploy the billing service?"
    before = service.recall(query, PEEK)[0]
    for _ in range(3):
        service.validate(memory.id, up=True)
    after = service.recall(query, PEEK)[0]
    assert after.confidence == pytest.approx(0.8)
    assert after.score == pytest.approx(before.score * confidence_factor(0.8, 0.5))
    tiers = service.recall_associative(query, PEEK).to_dict()
    assert f"confidence 0.80, id {memory.id}]" in recall_context(tiers, 2000)


def test_automatic_consolidation_runs_on_the_first_sweep_after_the_interval(
    make_service: ServiceFactory, clock: FakeClock, tmp_path: Path
) -> None:
    service = make_service(VAULT_CONSOLIDATE_MIN_MEMORIES="2")
    for text in FIXTURES[:3]:
        service.jot(text, kind="preference", topic="testing")
    sweep = {"claude_config_dir": str(tmp_path / "claude")}
    assert dispatch(service, "sweep", {**sweep, "now": "2026-01-02T09:00:00Z"})["consolidating"]
    assert len(service.consolidation_runs()) == 1
    for day in ("2026-01-03T09:00:00Z", "2026-01-05T08:00:00Z"):  # within three days
        assert not dispatch(service, "sweep", {**sweep, "now": day})["consolidating"]
    assert dispatch(service, "sweep", {**sweep, "now": "2026-01-05T10:00:00Z"})["consolidating"]
    assert len(service.consolidation_runs()) == 2
