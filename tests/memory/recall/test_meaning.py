"""Recall by meaning when the question shares no word with the memory (real model)."""

from __future__ import annotations

import pytest

from memory.recall.ranking import RecallOptions
from memory.service import MemoryService

pytestmark = pytest.mark.model

SHIP = "how to ship to production: run make release, then approve the rollout in Argo CD"
OTHERS = [
    "The sourdough starter is fed at 8am with equal weights of rye flour and water.",
    "Piano lessons moved to Thursdays at 5pm with Mrs. Alvarez.",
    "Use pytest fixtures instead of setUp and tearDown in this codebase.",
]


def test_a_question_in_other_words_finds_its_memory(service: MemoryService) -> None:
    """`vault recall "deployment process"`: cosine 0.42 and no shared word put the
    fused similarity under min_similarity; its meaning alone now keeps it."""
    for text in [SHIP, *OTHERS]:
        service.jot(text)
    hits = service.recall("deployment process", RecallOptions(limit=5, reinforce=False))
    assert hits
    assert hits[0].text == SHIP
    assert all("sourdough" not in hit.text for hit in hits)
