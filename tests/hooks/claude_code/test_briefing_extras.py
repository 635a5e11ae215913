"""The SessionStart briefing with this week's and month's notes and, when asked,
memories in CCL so that more of them fit under the same cap: in-process and
through the real hook subprocess."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from datetime import timedelta

import pytest

from hooks.claude_code.briefing_extras import compressed, fitting, session_briefing
from hooks.client.control import stop
from memory.notes.briefing import strongest
from memory.notes.periodic import synthesize_note
from memory.service import MemoryService
from tests.conftest import FakeClock
from vault.clock import parse_time
from vault.config import load_settings
from vault.daily import append_daily
from vault.periodic import parse_period

pytestmark = pytest.mark.model
MONDAY = parse_time("2027-01-25T09:00:00Z")
LONG = (
    "For the {n} service the team decided that the configuration of the database and the "
    "environment is always read from the repository, because the deployment is simpler that way."
)


@pytest.fixture
def busy_week(service: MemoryService, clock: FakeClock) -> MemoryService:
    clock.now = MONDAY
    append_daily(service.vault, clock.now, "- we decided to freeze the API on Fridays")
    for n in range(16):
        service.jot(LONG.format(n=f"number {n}"), kind="decision")
    clock.now = MONDAY + timedelta(days=2)
    synthesize_note(service, parse_period("weekly", "2027-W04"))
    return service


def test_the_briefing_carries_the_weeks_note_within_its_share(busy_week, clock) -> None:
    vault = busy_week.vault
    text = session_briefing(vault, clock.now, load_settings(vault.config_path, {}), None, 2000)
    assert "This week and month (periodic notes):" in text
    assert "freeze the API on Fridays" in text
    assert len(text) <= 2000
    none = load_settings(vault.config_path, {"VAULT_BRIEFING_PERIODIC_SHARE": "0"})
    assert "periodic notes" not in session_briefing(vault, clock.now, none, None, 2000)


def test_ccl_fits_more_memories_under_the_same_cap(busy_week, clock) -> None:
    config = busy_week.config
    items = strongest(busy_week.vault.root, clock.now, config, None, 16)
    plain = fitting(items, 1500)
    shorter, legend = compressed(items, 3, 1500)
    assert legend.startswith("(CCL v1.0 T3:")
    assert len(shorter) > len(plain)
    assert "config" in shorter[0].text
    assert " the " not in shorter[0].text
    assert compressed(items, 0, 1500) == (plain, "")


def test_the_hook_compresses_when_the_setting_says_so(busy_week, clock) -> None:
    env = {**os.environ, "VAULT_NOW": clock.now.isoformat(), "VAULT_BRIEFING_CCL_TIER": "3",
           "VAULT_DAEMON_IDLE_SECONDS": "1"}  # fmt: skip
    payload = json.dumps({"hook_event_name": "SessionStart", "source": "startup",
                          "session_id": "s1", "cwd": str(busy_week.vault.root)})  # fmt: skip
    result = subprocess.run([sys.executable, "-m", "hooks.claude_code.entry", "session-start"],
                            input=payload, capture_output=True, text=True, env=env,
                            timeout=120)  # fmt: skip
    stop(busy_week.vault)  # the hook asked a daemon for a sweep
    assert result.returncode == 0, result.stderr
    context = json.loads(result.stdout)["hookSpecificOutput"]["additionalContext"]
    assert "Strongest memories: (CCL v1.0 T3:" in context
    assert "config db & env always read repo, bc" in context


def test_the_briefing_lists_as_many_memories_as_the_setting_allows(busy_week, clock) -> None:
    vault = busy_week.vault
    quiet = {"VAULT_BRIEFING_PERIODIC_SHARE": "0"}
    default = session_briefing(
        vault, clock.now, load_settings(vault.config_path, quiet), None, 9000
    )
    few = load_settings(vault.config_path, {**quiet, "VAULT_BRIEFING_MAX_MEMORIES": "3"})
    assert default.count("For the number") == 12
    assert session_briefing(vault, clock.now, few, None, 9000).count("For the number") == 3
