"""Cue-dependent recall from the archive for the prompt hook (seed 000's cold
recall): a faded fact that prune archived comes back, hedged among the
"might be related" memories, when a prompt is a specific cue for it (similarity
>= the cold bar). Never one with a newer home: a memory that was superseded,
merged into another or replaced by its gist stays in the archive; nor a status
(a statement bounded to now: it was true then, not now). Reads the archive
only; it neither revives nor reinforces.
"""

from __future__ import annotations

from dataclasses import replace

from memory.context import ServiceContext
from memory.recall.ranking import recall_cold
from memory.results import Associative, Hit
from vault.frontmatter import FrontmatterError, parse
from vault.schema import STATUS_KIND

COLD_SHOWN = 2  # archived memories one prompt may bring back
REPLACED = ("superseded_by", "merged_into", "gist_of")  # keys naming a newer home


def with_cold_cues(service: ServiceContext, query: str, found: Associative) -> Associative:
    """`found` plus at most COLD_SHOWN archived memories the query is a specific
    cue for, appended to the activated (hedged) tier."""
    shown = {hit.id for hit in found.confident + found.activated}
    cold = [
        replace(hit, recall_tier="activated")
        for hit in recall_cold(service, query, limit=COLD_SHOWN + len(REPLACED))
        if hit.id not in shown and _current(service, hit)
    ]
    if not cold:
        return found
    return replace(found, activated=found.activated + cold[:COLD_SHOWN])


def _current(service: ServiceContext, hit: Hit) -> bool:
    """Whether an archived memory is still its own latest version, and was not
    said to hold only for then."""
    try:
        meta = parse((service.vault.root / hit.path).read_text(encoding="utf-8")).meta
    except (OSError, UnicodeDecodeError, FrontmatterError):
        return False
    return meta.get("kind") != STATUS_KIND and not any(meta.get(key) for key in REPLACED)
