"""Recall's search surface: kind, topic and project filters (the project filter is
not the project boost), one signal alone (vector or keyword) and no decay, on
real files and the real model, through the daemon's operation as the CLI sends it;
then the flags once through the real CLI."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from typing import Any

import pytest

from hooks.ops.table import dispatch
from memory.errors import RecallError
from memory.recall.ranking import RecallOptions
from memory.service import MemoryService
from tests.conftest import FakeClock

pytestmark = pytest.mark.model
API, WEB = "github.com/acme/api", "github.com/acme/web"


@pytest.fixture
def memories(service: MemoryService) -> dict[str, str]:
    jot = service.jot
    return {
        "decision": jot("We decided to keep the order events in PostgreSQL, not Kafka.",
                        kind="decision", project=API, topic="storage").id,
        "preference": jot("I prefer PostgreSQL over MySQL for every new service.",
                          kind="preference", project=WEB, topic="storage").id,
        "fact": jot("The PostgreSQL replica lags about two seconds behind the primary.",
                    project=API, topic="operations").id,
        "semantic": jot("Our relational database for orders is backed up every night.",
                        project=API, topic="operations").id,
    }  # fmt: skip


def recall(service: MemoryService, query: str, **args: Any) -> list[dict[str, Any]]:
    return list(dispatch(service, "recall", {"query": query, "reinforce": False, **args}))


def test_kind_topic_and_project_filter(service: MemoryService, memories: dict[str, str]) -> None:
    query = "where do we keep the order events, PostgreSQL or Kafka?"
    assert len(recall(service, query, limit=10)) > 1
    assert [h["id"] for h in recall(service, query, kind="decision")] == [memories["decision"]]
    operations = recall(service, "PostgreSQL replica lag and nightly backups", topic="operations")
    assert {h["id"] for h in operations} <= {memories["fact"], memories["semantic"]}
    assert memories["fact"] in {h["id"] for h in operations}
    query = "which database do we prefer for a new service?"
    only_web = recall(service, query, project_filter=WEB)
    assert [h["id"] for h in only_web] == [memories["preference"]]
    boosted = recall(service, query, project=WEB, limit=10)  # a boost keeps the others
    assert len(boosted) > 1
    assert boosted[0]["id"] == memories["preference"]


def test_one_signal_alone(service: MemoryService, memories: dict[str, str]) -> None:
    keyword = recall(service, "Kafka", signal="keyword", limit=10)
    assert [h["id"] for h in keyword] == [memories["decision"]]  # the only text with the word
    assert keyword[0]["similarity"] == pytest.approx(keyword[0]["keyword"])
    query = "relational database backups for orders"
    vector = recall(service, query, signal="vector", limit=10)
    assert vector[0]["id"] == memories["semantic"]
    assert all(
        h["similarity"] == pytest.approx(max(0.0, h["cosine"])) for h in vector if not h["via"]
    )
    hybrid = recall(service, query, limit=10)
    assert any(h["similarity"] != pytest.approx(h["cosine"]) for h in hybrid)
    with pytest.raises(RecallError, match="signal"):
        service.recall("Kafka", RecallOptions(signal="telepathy"))


def test_no_decay_finds_what_has_faded(
    service: MemoryService, clock: FakeClock, memories: dict[str, str]
) -> None:
    clock.at_day(60)  # every unreinforced jot is far under the retrieval floor by now
    assert recall(service, "PostgreSQL replica lag") == []
    found = recall(service, "PostgreSQL replica lag", no_decay=True)
    assert found[0]["id"] == memories["fact"]
    assert found[0]["strength"] == 1.0


def test_the_cli_flags_reach_recall(service: MemoryService, memories: dict[str, str]) -> None:
    command = [sys.executable, "-m", "hooks.cli", "recall", "MySQL", "--kind", "preference",
               "--keyword-only", "--no-decay", "--no-reinforce", "--json"]  # fmt: skip
    result = subprocess.run(command, capture_output=True, text=True, timeout=300,
                            env={**os.environ, "HF_HUB_OFFLINE": "1"})  # fmt: skip
    assert result.returncode == 0, result.stderr
    [hit] = json.loads(result.stdout)
    assert hit["id"] == memories["preference"]
    assert hit["similarity"] == pytest.approx(hit["keyword"])
    refused = subprocess.run([*command[:5], "--associative", "--no-decay"], capture_output=True,
                             text=True, timeout=60)  # fmt: skip
    assert refused.returncode == 2
    assert "--no-decay works with ordinary recall" in refused.stderr
