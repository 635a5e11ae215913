"""The prompt hook says less: nothing when nothing in the vault is relevant, and
not the same memory twice in a session (real model, real daemon, real hook)."""

from __future__ import annotations

import json

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
    settle(vault)
    for number, prompt in enumerate(PROMPTS):
        result = hook("user-prompt-submit", prompt_event(f"s{number}", prompt), env)
        assert (result.returncode, result.stdout) == (0, ""), prompt


def test_a_memory_shown_in_the_session_is_not_shown_again_nor_its_restatement(
    filled: Vault, live: tuple[Vault, dict[str, str]]
) -> None:
    vault, env = live
    settle(vault)
    first = hook("user-prompt-submit", prompt_event("s1", "what's our deployment process?"), env)
    context = json.loads(first.stdout)["hookSpecificOutput"]["additionalContext"]
    assert "Argo CD" in context
    again = hook("user-prompt-submit", prompt_event("s1", "so how do we deploy again?"), env)
    assert (again.returncode, again.stdout) == (0, "")  # neither it nor its restatement
    other = hook("user-prompt-submit", prompt_event("s2", "so how do we deploy again?"), env)
    assert "Argo CD" in json.loads(other.stdout)["hookSpecificOutput"]["additionalContext"]
