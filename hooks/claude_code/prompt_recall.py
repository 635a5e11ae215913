"""What the prompt hook recalls for a prompt in the warm process: at most five
memories per tier, no see-also, the prompt cut to the query limit. The daemon's
prompt op answers with it, and `vault bench retrieval --path hook` measures it.
"""

from __future__ import annotations

from dataclasses import replace

from hooks.claude_code.context_text import render_recall
from hooks.daemon.protocol import MAX_PROMPT_CHARS
from memory.recall.cold_cues import with_cold_cues
from memory.recall.ranking import RecallOptions
from memory.results import Associative
from memory.service import MemoryService

PROMPT_OPTIONS = RecallOptions(limit=5, see_also=False, reinforce=False)


def prompt_options(project: str | None, decay: bool = True) -> RecallOptions:
    """Recall as the prompt hook asks for it; reinforcement happens after the reply."""
    return replace(PROMPT_OPTIONS, project=project, decay=decay)


def prompt_query(prompt: str) -> str:
    return prompt[:MAX_PROMPT_CHARS]


def prompt_tiers(service: MemoryService, prompt: str, project: str | None) -> Associative:
    found = service.recall_associative(prompt_query(prompt), prompt_options(project))
    return with_cold_cues(service, prompt_query(prompt), found)


def injected(tiers: Associative, max_chars: int) -> tuple[str, list[str]]:
    """The text the hook injects for these tiers, and the ids that fit in it."""
    return render_recall(tiers.to_dict(), max_chars)
