"""A change supersedes only a memory about the same thing (issue 24), on real
files, the real model and index: the same attribute of different services,
clusters or batch jobs stays; the README's own change examples supersede; a
change keeps the newer value."""

from __future__ import annotations

import pytest

from memory.service import MemoryService
from tests.conftest import FakeClock
from vault.links import link_targets

pytestmark = pytest.mark.model


def jot_days(service: MemoryService, clock: FakeClock, texts: list[str]) -> list[str]:
    ids = []
    for day, text in enumerate(texts):
        clock.at_day(day * 3)
        ids.append(service.jot(text, project="github.com/acme/api", kind="fact").id)
    clock.at_day(60)
    service.sync()
    return ids


def active_bodies(service: MemoryService) -> list[str]:
    return sorted(p.read_text().split("---\n", 2)[2].strip() for p in
                  service.vault.memories_dir.glob("*.md"))  # fmt: skip


def test_the_same_attribute_of_different_things_is_kept(
    service: MemoryService, clock: FakeClock
) -> None:
    texts = [
        "The orders service listens on port 8001.",
        "The payments service listens on port 8002.",
        "The EU cluster runs Kubernetes 1.29.",
        "The US cluster runs Kubernetes 1.31.",
        "Batch job 17 writes parquet files to the data lake every hour.",
        "Batch job 18 writes parquet files to the data lake every hour.",
        "The orders database backup runs at 02:00 UTC.",
        "The payments database backup runs at 04:30 UTC.",
    ]
    jot_days(service, clock, texts)
    report = service.consolidate()
    assert report.counts["supersede"] == 0
    assert report.counts["merge"] == 0
    assert active_bodies(service) == sorted(texts)


@pytest.mark.parametrize(
    ("older", "newer"),
    [
        ("The nightly backup runs at 02:00 UTC.",
         "The nightly backup moved from 02:00 to 04:30 UTC."),
        ("Sam is the code owner for src/billing in the api repo.",
         "Dana is the code owner for src/billing in the api repo now."),
        ("The api repo targets Python 3.11.", "The api repo targets Python 3.12."),
        ("The API is deployed to Heroku with git push heroku main.",
         "We moved the API off Heroku to Fly.io."),
        ("In production the API binds to port 8000.", "Production API now binds to port 8080."),
    ],
)  # fmt: skip
def test_the_readmes_change_examples_supersede(
    service: MemoryService, clock: FakeClock, older: str, newer: str
) -> None:
    old_id, new_id = jot_days(service, clock, [older, newer])
    report = service.consolidate()
    assert [(a["older"], a["newer"]) for a in report.actions] == [(old_id, new_id)]
    assert link_targets(service.show(old_id)[0].superseded_by) == [new_id]
    assert active_bodies(service) == [newer]


@pytest.mark.parametrize(
    ("texts", "current"),
    [
        (["Release branches are cut on Thursdays.",
          "Release branches are now cut on Tuesdays."], "Tuesdays"),
        (["The API listens on port 8080, moved from 8000.",
          "The API listens on port 9000, moved from 8080."], "9000"),
    ],
)  # fmt: skip
def test_a_change_keeps_the_newer_value(
    service: MemoryService, clock: FakeClock, texts: list[str], current: str
) -> None:
    jot_days(service, clock, texts)
    report = service.consolidate()
    assert report.counts["merge"] == 0
    [body] = active_bodies(service)
    assert current in body
