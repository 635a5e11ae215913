"""Optional pattern wording with `claude -p`, under the same switch, model and
budget as LLM extraction (`llm_extraction = true`) and the same guarded child
(llm_extract.run_child). Consolidation asks through memory's `Generalise`
callable; any failure falls back to the template wording.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping
from pathlib import Path

from hooks.claude_code.llm_extract import ExtractionFailed, command, run_child
from memory.consolidation.patterns import Generalise
from vault.config import Settings

log = logging.getLogger(__name__)
PROMPT = (
    "These notes were remembered about one developer. Write the one general tendency they "
    "share, as one sentence about the developer (e.g. 'Prefers explicit, typed configuration "
    "that fails fast.'). Use only what the notes say."
)
SCHEMA = {
    "type": "object",
    "properties": {"pattern": {"type": "string"}},
    "required": ["pattern"],
}


def generaliser(
    settings: Settings, state_dir: Path, environ: Mapping[str, str]
) -> Generalise | None:
    """A `Generalise` when LLM extraction is switched on, else None."""
    if not settings.llm_extraction:
        return None
    args = command(settings.llm_model, settings.llm_budget_usd, PROMPT, SCHEMA)

    def generalise(texts: list[str]) -> str | None:
        notes = "\n".join(f"- {' '.join(text.split())}" for text in texts)
        try:
            result = run_child(args, notes, state_dir / "extract", environ)
        except ExtractionFailed as exc:
            log.warning("%s; using the template wording", exc)
            return None
        pattern = (result.get("structured_output") or {}).get("pattern")
        return pattern.strip() if isinstance(pattern, str) and pattern.strip() else None

    return generalise
