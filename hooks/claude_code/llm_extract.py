"""Optional extraction with `claude -p` (off by default: `llm_extraction = true`).

The child runs with every hook disabled, our own MEMORY_VAULT_CHILD guard set,
no tools, no MCP, no session persistence, a neutral working folder and a spend
cap, so it can never trigger our hooks or capture itself. `extractor` hands it
to the capture pipeline (memory/encode/capture.py) as its `Extract`; any
failure falls back to the rule-based extraction.
"""

from __future__ import annotations

import json
import logging
import shutil
import subprocess
from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

from memory.encode.extract import Statement

if TYPE_CHECKING:
    from memory.encode.capture import Extract
    from vault.config import Settings

log = logging.getLogger(__name__)
KINDS = ("preference", "decision", "correction", "fact", "procedure")
SCHEMA = {
    "type": "object",
    "properties": {
        "memories": {
            "type": "array",
            "items": {
                "type": "object",
                "properties": {
                    "text": {"type": "string"},
                    "kind": {"type": "string", "enum": list(KINDS)},
                },
                "required": ["text", "kind"],
            },
        }
    },
    "required": ["memories"],
}
PROMPT = (
    "From this conversation between a developer and a coding assistant, extract the durable "
    "statements worth remembering across projects for months: the developer's preferences, "
    "decisions, corrections of the assistant, conventions and project facts. One or two "
    "sentences each, self-contained. Leave out chatter, questions, code and secrets. "
    "Return an empty list when there is nothing durable."
)
MAX_INPUT = 60_000


class ExtractionFailed(Exception):
    """`claude -p` was missing, failed, or returned something unusable."""


def command(
    model: str, budget_usd: float, prompt: str = PROMPT, schema: dict[str, Any] | None = None
) -> list[str]:
    return [
        "claude", "-p", "--output-format", "json", "--model", model, "--max-turns", "3",
        "--max-budget-usd", str(budget_usd), "--no-session-persistence", "--tools", "",
        "--strict-mcp-config", "--settings", json.dumps({"disableAllHooks": True}),
        "--system-prompt", prompt, "--json-schema", json.dumps(schema),
    ]  # fmt: skip


def extractor(settings: Settings, state_dir: Path, environ: Mapping[str, str]) -> Extract | None:
    """The capture pipeline's extractor when LLM extraction is switched on, else
    None; it answers None (the rules then decide) when `claude -p` fails."""
    if not settings.llm_extraction:
        return None

    def extract(turns: list[tuple[str, str]]) -> list[Statement] | None:
        workdir = default_workdir(state_dir)
        try:
            return extract_with_claude(
                turns, workdir, environ, settings.llm_model, settings.llm_budget_usd
            )
        except ExtractionFailed as exc:
            log.warning("%s; using the rule-based extraction", exc)
            return None

    return extract


def extract_with_claude(
    turns: list[tuple[str, str]], workdir: Path, environ: Mapping[str, str], model: str,
    budget_usd: float,
) -> list[Statement]:  # fmt: skip
    text = "\n\n".join(f"{role.upper()}: {body}" for role, body in turns)[-MAX_INPUT:]
    result = run_child(command(model, budget_usd), text, workdir, environ)
    items = (result.get("structured_output") or {}).get("memories", [])
    statements = []
    for item in items if isinstance(items, list) else []:
        if isinstance(item, dict) and isinstance(item.get("text"), str) and item["text"].strip():
            kind = item.get("kind") if item.get("kind") in KINDS else "fact"
            statements.append(Statement(item["text"].strip(), str(kind), "user"))
    log.info("claude -p extracted %d memories (cost %s USD)", len(statements),
             result.get("total_cost_usd"))  # fmt: skip
    return statements


def run_child(
    cmd: list[str], text: str, workdir: Path, environ: Mapping[str, str], timeout: float = 300.0
) -> dict[str, Any]:
    """Run a `claude -p` command under the child rules above, for at most
    `timeout` seconds (then it is killed); its result object."""
    claude = shutil.which("claude", path=environ.get("PATH"))
    if claude is None:
        raise ExtractionFailed("`claude` is not on PATH")
    env = {k: v for k, v in environ.items() if k not in ("CLAUDECODE", "CLAUDE_CODE_ENTRYPOINT")}
    env["MEMORY_VAULT_CHILD"] = "1"
    workdir.mkdir(parents=True, exist_ok=True)
    try:
        done = subprocess.run([claude, *cmd[1:]], input=text, capture_output=True, text=True,
                              cwd=workdir, env=env, timeout=timeout)  # fmt: skip
        result = json.loads(done.stdout)
    except (OSError, subprocess.TimeoutExpired, ValueError) as exc:
        raise ExtractionFailed(f"claude -p failed: {exc}") from exc
    if not isinstance(result, dict) or result.get("is_error") or result.get("subtype") != "success":
        message = result.get("result") if isinstance(result, dict) else done.stderr
        raise ExtractionFailed(f"claude -p failed: {str(message)[:200]}")
    return result


def default_workdir(state_dir: Path) -> Path:
    """A neutral folder: no project CLAUDE.md or settings apply to the child."""
    return state_dir / "extract"
