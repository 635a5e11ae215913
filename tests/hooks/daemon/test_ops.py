"""The daemon's operations: which errors are the request's fault and which are
bugs, and the request's clock (a view of the service, never a swapped clock)."""

from __future__ import annotations

import logging

import pytest

from hooks.daemon.server import Daemon
from hooks.ops import table as ops
from memory.service import MemoryService
from tests.conftest import FakeClock
from vault.config import load_settings
from vault.layout import Vault


def explode(service: MemoryService, args: ops.Args) -> ops.Reply:
    """An operation with a bug in it."""
    return ops.Reply({}["missing"])


@pytest.fixture
def daemon(vault: Vault) -> Daemon:
    return Daemon(vault, load_settings(vault.config_path, {}))


def test_a_bug_is_logged_with_its_traceback_and_answered_as_internal(
    daemon: Daemon, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    monkeypatch.setitem(ops.OPS, "explode", explode)
    with caplog.at_level(logging.INFO, logger="memory_vault.daemon"):
        reply, steps = daemon._answer({"op": "explode", "args": {}})
    assert reply == {"ok": False, "error": "internal error: 'missing'", "kind": "internal"}
    assert steps == ()
    [record] = [r for r in caplog.records if "explode" in r.getMessage()]
    assert record.levelno == logging.ERROR
    assert record.exc_info is not None


@pytest.mark.parametrize(
    ("message", "kind", "error"),
    [
        ({"op": "show", "args": {"id": "../../etc/passwd"}}, "InvalidIdError", "path separators"),
        ({"op": "jot", "args": {"text": "a note", "tags": 5}}, "InvalidRequest", "list of strings"),
        ({"op": "jot", "args": {"text": "a note", "topic": 7}}, "InvalidRequest", "topic must be"),
        ({"op": "show", "args": {"id": "x", "now": "soon"}}, "InvalidRequest", "ISO 8601"),
        ({"op": "no-such-op", "args": {}}, "protocol", "unknown operation"),
    ],
)
def test_bad_requests_are_answered_as_the_callers_fault_without_a_traceback(
    daemon: Daemon,
    caplog: pytest.LogCaptureFixture,
    message: dict[str, object],
    kind: str,
    error: str,
) -> None:
    with caplog.at_level(logging.INFO, logger="memory_vault.daemon"):
        reply, _ = daemon._answer(message)
    assert reply["ok"] is False
    assert reply["kind"] == kind
    assert error in reply["error"]
    assert all(r.levelno == logging.INFO and r.exc_info is None for r in caplog.records)


@pytest.mark.model
def test_a_request_runs_on_its_own_clock_and_its_follow_up_work_too(
    service: MemoryService, clock: FakeClock
) -> None:
    shared = service.clock
    made = ops.dispatch(service, "jot", {"text": "Deploys go out on Tuesdays after standup."})
    assert made["created"] == "2026-01-01T09:00:00+00:00"  # the service's own clock
    reply = ops.dispatch_reply(
        service, "recall", {"query": "when do deploys go out?", "now": "2026-01-03T12:00:00Z"}
    )
    assert [hit["id"] for hit in reply.result] == [made["id"]]
    clock.advance(days=400)  # the shared clock moves on; the queued work keeps the request's
    for step in reply.steps:
        step()
    record, _ = service.show(made["id"])
    assert record.last_access.isoformat() == "2026-01-03T12:00:00+00:00"
    assert record.recalls == 1
    assert service.clock is shared
