"""What the prompt hook recalls for a prompt in the warm process, and which of
it it shows: recall without see-also, the prompt cut to the query limit, then
only memories with evidence of their own (memory/recall/evidence.py), never one
already shown in the session nor a near-duplicate of one. The daemon's prompt
op answers with it, and `vault bench retrieval --path hook` measures it.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Collection
from dataclasses import replace

from hooks.claude_code.context_text import render_recall
from hooks.client.protocol import MAX_PROMPT_CHARS
from memory.recall.cold_cues import with_cold_cues
from memory.recall.evidence import worth_showing
from memory.recall.ranking import RecallOptions
from memory.results import Associative
from memory.service import MemoryService

PROMPT_OPTIONS = RecallOptions(limit=5, see_also=False, reinforce=False)
NEAR_DUPLICATE = 0.9  # cosine between two memories' vectors that say the same thing
_SESSIONS = 200  # sessions whose shown memories the daemon keeps in mind
_PER_SESSION = 200
# (vault, session id) -> the ids shown to it (the warm daemon's memory; a restart
# forgets); keyed by vault too, so a process serving several vaults never mixes them
_shown: OrderedDict[tuple[str, str], list[str]] = OrderedDict()


def prompt_options(project: str | None, decay: bool = True) -> RecallOptions:
    """Recall as the prompt hook asks for it; reinforcement happens after the reply."""
    return replace(PROMPT_OPTIONS, project=project, decay=decay)


def prompt_query(prompt: str) -> str:
    return prompt[:MAX_PROMPT_CHARS]


def prompt_tiers(
    service: MemoryService, prompt: str, project: str | None, session: str = ""
) -> Associative:
    """What the hook shows for `prompt`: recall (and a faded or archived memory a
    specific cue brings back, hedged), then evidence, minus what the session has
    already been shown (remembered for its next prompts)."""
    found = service.recall_associative(prompt_query(prompt), prompt_options(project))
    found = with_cold_cues(service, prompt_query(prompt), found)
    chosen = shown_tiers(service, found, already_shown(service, session, found))
    if session:
        key = (str(service.vault.root), session)
        ids = _shown.pop(key, [])
        ids += [hit.id for hit in chosen.confident + chosen.activated]
        _shown[key] = ids[-_PER_SESSION:]
        while len(_shown) > _SESSIONS:
            _shown.popitem(last=False)
    return chosen


def shown_tiers(
    service: MemoryService, tiers: Associative, seen: Collection[str] = ()
) -> Associative:
    settings = service.settings
    return worth_showing(tiers, service.config, int(settings.hook_confident_max),
                         int(settings.hook_hedged_max), seen)  # fmt: skip


def already_shown(service: MemoryService, session: str, tiers: Associative) -> set[str]:
    """The recalled ids this session has seen: the same memories, and memories
    whose vectors nearly coincide with one it was shown (a restatement)."""
    before = _shown.get((str(service.vault.root), session), []) if session else []
    if not before:
        return set()
    recalled = [hit.id for hit in tiers.confident + tiers.activated]
    seen = {memory_id for memory_id in recalled if memory_id in before}
    vectors = service.index.memory_vectors([*recalled, *before])
    shown = [vectors[m] for m in before if m in vectors]
    for memory_id in recalled:
        vector = vectors.get(memory_id)
        if vector is not None and any(float(vector @ old) >= NEAR_DUPLICATE for old in shown):
            seen.add(memory_id)
    return seen


def injected(service: MemoryService, tiers: Associative, max_chars: int) -> tuple[str, list[str]]:
    """The text the hook injects for these tiers, and the ids that fit in it."""
    return render_recall(shown_tiers(service, tiers).to_dict(), max_chars)
