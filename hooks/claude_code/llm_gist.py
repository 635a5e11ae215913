"""Optional gists of old episodes written by `claude -p` (off by default:
`llm_gist = true`), for consolidation's `WriteGists`. One call per run for all
the memories due, each redacted first (a memory edited by hand may hold what
capture would have masked), the answer redacted too; the same guarded child
as extraction (llm_extract.run_child), killed after `llm_gist_seconds`. Any
failure leaves every gist to the rule-based wording (memory/consolidation/gist.py).
"""

from __future__ import annotations

import json
import logging
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from hooks.claude_code.llm_extract import ExtractionFailed, command, default_workdir, run_child
from memory.consolidation.gist import WriteGists
from memory.encode.redact import redact
from vault.config import Settings

log = logging.getLogger(__name__)
PROMPT = (
    "Each numbered note was remembered about a developer's work weeks ago. For each, write "
    "its gist: the decision, preference or fact worth keeping, in one sentence, shorter "
    "than the note, in the note's own terms (names, numbers, paths kept exactly). Drop the "
    "story around it. Use only what the note says. Answer every number once."
)
SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {
        "gists": {
            "type": "array",
            "items": {
                "type": "object",
                "properties": {"n": {"type": "integer"}, "gist": {"type": "string"}},
                "required": ["n", "gist"],
            },
        }
    },
    "required": ["gists"],
}
MAX_NOTES = 40  # per call; more wait for the next run's rule-based gists
MAX_NOTE_CHARS = 2000


def gist_writer(
    settings: Settings, state_dir: Path, environ: Mapping[str, str]
) -> WriteGists | None:
    """A `WriteGists` when `llm_gist` is on, else None (rule-based gists only)."""
    if not settings.llm_gist:
        return None
    args = command(str(settings.llm_model), float(settings.llm_budget_usd), PROMPT, SCHEMA)
    timeout = float(settings.llm_gist_seconds)

    def write_gists(texts: list[str]) -> list[str | None]:
        asked = texts[:MAX_NOTES]
        notes = [{"n": n, "note": redact(" ".join(t.split()))[:MAX_NOTE_CHARS]}
                 for n, t in enumerate(asked, 1)]  # fmt: skip
        try:
            result = run_child(args, json.dumps(notes, ensure_ascii=False),
                               default_workdir(state_dir), environ, timeout)  # fmt: skip
        except ExtractionFailed as exc:
            log.warning("%s; using the rule-based gists", exc)
            return [None] * len(texts)
        found: dict[int, str] = {}
        items = (result.get("structured_output") or {}).get("gists")
        for item in items if isinstance(items, list) else []:
            if isinstance(item, dict) and isinstance(item.get("n"), int):
                gist = item.get("gist")
                if isinstance(gist, str) and gist.strip():
                    found[item["n"]] = redact(gist.strip())
        log.info("claude -p wrote %d of %d gists", len(found), len(asked))
        return [found.get(n) for n in range(1, len(texts) + 1)]

    return write_gists
