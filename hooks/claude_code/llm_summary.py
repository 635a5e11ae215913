"""Optional prose summaries of periodic notes with `claude -p`, under the same
switch (`llm_extraction`), model and spend cap as LLM extraction and the same
child-process rules (hooks/claude_code/llm_extract.py). Off: no summariser.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from typing import Any

from hooks.claude_code.llm_extract import ExtractionFailed, command, default_workdir, run_child
from memory.notes.periodic import Summariser, SummaryUnavailable
from vault.config import Settings
from vault.layout import Vault

PROMPT = (
    "You summarise a developer's notes for one period (a week, month, quarter or year) "
    "for their own later reading: what was decided, what was worked on and what is still "
    "open, in at most 120 words of plain prose. Use only what the notes say. Keep [[id]] "
    "links you mention exactly as written."
)
SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {"summary": {"type": "string"}},
    "required": ["summary"],
}
MAX_INPUT = 40_000


def summariser(
    vault: Vault, settings: Settings, environ: Mapping[str, str] = os.environ
) -> Summariser | None:
    """A summariser when LLM extraction is switched on, else None (extractive only)."""
    if not settings.llm_extraction:
        return None
    model, budget = str(settings.llm_model), float(settings.llm_budget_usd)

    def summarise(title: str, material: str) -> str:
        text = f"Notes for {title}:\n\n{material}"[:MAX_INPUT]
        try:
            result = run_child(command(model, budget, PROMPT, SCHEMA), text,
                               default_workdir(vault.state_dir), environ)  # fmt: skip
        except ExtractionFailed as exc:
            raise SummaryUnavailable(str(exc)) from exc
        summary = (result.get("structured_output") or {}).get("summary")
        if not isinstance(summary, str):
            raise SummaryUnavailable("claude -p returned no summary")
        return summary.strip()

    return summarise
