"""What capture reads as holding only for now (kind `status`) and what it must
not: sentences written for this test, each as a developer might say it."""

from __future__ import annotations

import pytest

from memory.consolidation.relations import Item, judge
from memory.consolidation.text import analyse
from memory.encode.transient import bounded_to_now


@pytest.mark.parametrize(
    "text",
    [
        "The payments sandbox is offline for the rest of the day, use the mock instead.",
        "Heads up: uploads go through the backup bucket until the vendor patch lands.",
        "Don't merge anything till tomorrow morning, the release train is frozen.",
        "QA has the tablet lab only for today.",
        "For the next couple of hours the docs site points at the old build.",
        "As a temporary workaround, set RETRIES=0 in your shell.",
        "The wiki export is a stopgap; nobody should build on it.",
        "Right now the integration cluster is out of disk, so builds queue up.",
        "The Grafana box is being restarted at the moment.",
        "I'm pairing with Lena on the auth refactor this afternoon.",
        "Today I'm heads down on the invoice bug, ping me only if prod breaks.",
        "During this sprint only, the mobile team owns the on-call rota.",
    ],
)
def test_a_statement_bounded_to_now_is_a_status(text: str) -> None:
    assert bounded_to_now(text)


@pytest.mark.parametrize(
    "text",
    [
        "From today on, releases are cut on Tuesdays.",
        "Starting this week, the standup is at 09:30.",
        "As of Monday the staging database lives in eu-west-1.",
        "We decided today that the public API stays on REST.",
        "Right now we use Postgres 15 in production.",
        "The marts must be ready by 07:00 UTC for the morning revenue email.",
        "The flaky checkout test is always red on Mondays; ignore it.",
        "The nightly backup runs at 02:00 UTC.",
        "I'm the owner of the billing dashboard, ask me before changing it.",
        "Never deploy on Fridays, the on-call rota is thin.",
        "Keep numpy pinned until we drop the old CI image.",
    ],
)
def test_a_lasting_statement_is_not(text: str) -> None:
    assert bounded_to_now(text) is None


def _item(name: str, kind: str, created: str, text: str) -> Item:
    return Item(name, "github.com/acme/api", kind, "", created, text, analyse(text))


def test_a_status_neither_replaces_nor_restates_a_lasting_fact() -> None:
    lasting = _item("a", "fact", "2026-01-01T00:00:00Z", "The preview app runs on host-a.")
    status = _item(
        "b", "status", "2026-02-01T00:00:00Z", "The preview app runs on host-b until tonight."
    )
    assert judge(lasting, status, 0.9, 0.9, 0.4, 0.42).relation == "distinct"
    same = _item("c", "fact", "2026-02-01T00:00:00Z", "The preview app runs on host-b.")
    assert judge(lasting, same, 0.9, 0.9, 0.4, 0.42).relation == "change"  # the control
