"""Pattern wording with `claude -p` (a stand-in script: Claude Code cannot run
here): only under the LLM switch, as the same guarded child as extraction."""

from __future__ import annotations

import os
from pathlib import Path

from hooks.claude_code.llm_generalise import generaliser
from vault.config import load_settings

FAKE_CLAUDE_P = """#!/bin/sh
printf '%s\\n' "$@" > "$FAKE_LOG"
cat > "$FAKE_LOG.stdin"
[ "$MEMORY_VAULT_CHILD" = "1" ] || { echo '{"is_error":true,"result":"guard"}'; exit 0; }
echo '{"type":"result","subtype":"success","is_error":false,'\\
'"structured_output":{"pattern":"Prefers explicit, typed configuration."}}'
"""


def test_the_generaliser_asks_claude_p_only_when_switched_on(tmp_path: Path) -> None:
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    (bin_dir / "claude").write_text(FAKE_CLAUDE_P)
    (bin_dir / "claude").chmod(0o755)
    env = {**os.environ, "PATH": f"{bin_dir}{os.pathsep}{os.environ['PATH']}",
           "FAKE_LOG": str(tmp_path / "args.log"), "CLAUDECODE": "1"}  # fmt: skip
    assert generaliser(load_settings(None, {}), tmp_path, env) is None  # off by default
    settings = load_settings(None, {"VAULT_LLM_EXTRACTION": "true", "VAULT_LLM_BUDGET_USD": "0.02"})
    generalise = generaliser(settings, tmp_path, env)
    assert generalise is not None
    notes = ["Settings are parsed into typed objects.", "No silent defaults for settings."]
    assert generalise(notes) == "Prefers explicit, typed configuration."
    args = (tmp_path / "args.log").read_text().splitlines()
    assert args[args.index("--max-budget-usd") + 1] == "0.02"
    assert args[args.index("--settings") + 1] == '{"disableAllHooks": true}'
    assert "- No silent defaults for settings." in (tmp_path / "args.log.stdin").read_text()
    env["PATH"] = str(tmp_path / "nowhere")
    assert generaliser(settings, tmp_path, env)(notes) is None  # type: ignore[misc]
