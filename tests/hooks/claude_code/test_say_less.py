"""The prompt hook says less: nothing when nothing in the vault is relevant, and
not the same memory twice in a session (real model, real daemon, real hook)."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

from memory.service import MemoryService
from tests.hooks.claude_code.test_end_to_end import hook, live, settle
from vault.config import load_settings
from vault.layout import Vault

pytestmark = pytest.mark.model
__all__ = ["live"]  # the daemon fixture, used by name

UNRELATED = [  # a vault about other things entirely
    "The sourdough starter is fed at 8am with equal weights of rye flour and water.",
    "Tomatoes in the back garden bed get watered every second evening in July.",
    "Grandma's birthday dinner is at the Italian place on Elm Street, booked for six.",
    "The bike's rear derailleur was adjusted in March; the chain is a KMC X11.",
    "Piano lessons moved to Thursdays at 5pm with Mrs. Alvarez.",
    "The car's winter tyres are stored at the garage on Bridge Road.",
    "Book club is reading The Left Hand of Darkness for the October meeting.",
    "The cat needs her flea treatment on the first of every month.",
]
PROMPTS = [
    "How should I configure retries for the Kafka consumer in the payments service?",
    "Which index should I add so the Postgres query on orders stops scanning the table?",
    "Can you refactor this React component to use a reducer instead of useState?",
]
# the daemon answers by meaning even on a busy machine (no keyword-only fallback)
PATIENT = {"VAULT_HOOK_COLD_WAIT_SECONDS": "90"}
DEPLOY = "How to ship to production: run make release, then approve the rollout in Argo CD."


def prompt_event(session: str, prompt: str) -> dict[str, str]:
    return {"session_id": session, "cwd": "/tmp", "hook_event_name": "UserPromptSubmit",
            "prompt": prompt}  # fmt: skip


@pytest.fixture
def filled(vault: Vault) -> Vault:
    service = MemoryService(vault, load_settings(None, {}))
    for text in UNRELATED + [DEPLOY, "Releases go out with make release and a rollout approval "
                             "in Argo CD."]:  # fmt: skip
        service.jot(text)
    service.index.close()
    return vault


def test_nothing_is_injected_when_nothing_in_the_vault_is_relevant(
    filled: Vault, live: tuple[Vault, dict[str, str]]
) -> None:
    vault, env = live
    env = {**env, **PATIENT}
    settle(vault)
    for number, prompt in enumerate(PROMPTS):
        result = hook("user-prompt-submit", prompt_event(f"s{number}", prompt), env)
        assert (result.returncode, result.stdout) == (0, ""), prompt


def test_a_memory_shown_in_the_session_is_not_shown_again_nor_its_restatement(
    filled: Vault, live: tuple[Vault, dict[str, str]]
) -> None:
    vault, env = live
    env = {**env, **PATIENT}
    settle(vault)
    asked = "how do I ship a new release to production?"
    first = hook("user-prompt-submit", prompt_event("s1", asked), env)
    assert "Argo CD" in json.loads(first.stdout)["hookSpecificOutput"]["additionalContext"]
    restated = DEPLOY.replace("make release", "`make release`")  # a near-duplicate, new id
    jot = [sys.executable, "-m", "hooks.cli", "--vault", str(vault.root), "jot", restated]
    assert subprocess.run(jot, capture_output=True, env={**os.environ, **env}).returncode == 0
    settle(vault)
    again = hook("user-prompt-submit", prompt_event("s1", asked), env)
    assert (again.returncode, again.stdout) == (0, "")  # neither it nor its restatement
    other = hook("user-prompt-submit", prompt_event("s2", asked), env)
    assert "Argo CD" in json.loads(other.stdout)["hookSpecificOutput"]["additionalContext"]
