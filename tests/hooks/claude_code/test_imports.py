"""What the hooks load when no daemon answers: the standard library only, so a
prompt or a session start never waits for numpy, FAISS, the model or click."""

from __future__ import annotations

import subprocess
import sys

WITHOUT_DAEMON = [
    "hooks.claude_code.entry",
    "hooks.claude_code.prompt",
    "hooks.claude_code.tool_hook",
    "hooks.claude_code.prompt_answer",
    "hooks.claude_code.confirmation",
    "hooks.claude_code.session",
    "hooks.claude_code.briefing_extras",
    "hooks.claude_code.project",
    "memory.recall.keyword_fallback",
    "memory.notes.briefing",
    "memory.notes.ccl",
    "memory.notes.recent",
    "vault.daily",
    "vault.state",
]


def test_the_no_daemon_hook_paths_import_only_the_standard_library() -> None:
    code = (
        "import importlib, sys\n"
        "before = {m.split('.')[0] for m in sys.modules}\n"
        f"for name in {WITHOUT_DAEMON!r}:\n"
        "    importlib.import_module(name)\n"
        "ours = {'hooks', 'memory', 'vault', 'indexer'}\n"
        "loaded = {m.split('.')[0] for m in sys.modules}\n"
        "print(sorted(loaded - before - set(sys.stdlib_module_names) - ours))\n"
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "[]"
