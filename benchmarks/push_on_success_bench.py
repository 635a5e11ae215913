"""What `push_on_success` costs per tool call: the whole `vault-hook post-tool-use`
process for a successful Edit, as Claude Code runs it after the edit lands, with
a warm daemon over N memories (the real model), each call in a new session so
nothing is skipped as already shown; and the same hook with the option off
(registered by an earlier install: it reads the settings and returns).

    .venv/bin/python -m benchmarks.push_on_success_bench [--n 500] [--runs 40]
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from benchmarks.hook_bench import start_daemon, summary
from benchmarks.index_bench import texts, write_vault
from hooks.client.control import stop
from indexer.index import VaultIndex
from vault.config import load_settings

HOOK = [str(Path(sys.executable).with_name("vault-hook")), "post-tool-use"]
FILE = "The billing service retries invoices since sprint 12; ticket 4242 has details.\n" * 20


def event(session: str) -> str:
    return json.dumps({
        "session_id": session, "cwd": "/", "hook_event_name": "PostToolUse", "tool_name": "Edit",
        "tool_input": {"file_path": "/src/billing/retry.py", "old_string": "import os",
                       "new_string": "import sys"},
        "tool_response": {"filePath": "/src/billing/retry.py", "originalFile": FILE},
    })  # fmt: skip


def run_hook(root: Path, session: str, **extra: str) -> tuple[float, str]:
    env = {**os.environ, "VAULT_HOME": str(root), "VAULT_NOW": "2026-01-02T00:00:00Z", **extra}
    start = time.perf_counter()
    done = subprocess.run(HOOK, input=event(session), capture_output=True, text=True, env=env,
                          check=True)  # fmt: skip
    return (time.perf_counter() - start) * 1000, done.stdout


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--n", type=int, default=500)
    parser.add_argument("--runs", type=int, default=40)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="push-bench-") as folder:
        root = Path(folder) / "vault"
        vault = write_vault(root, texts(args.n))
        VaultIndex(vault, load_settings(None, {})).sync()  # the daemon's embedder
        start_daemon(root)
        try:
            run_hook(root, "warm-up", VAULT_PUSH_ON_SUCCESS="true")
            on = [run_hook(root, f"s{i}", VAULT_PUSH_ON_SUCCESS="true") for i in range(args.runs)]
            off = [run_hook(root, f"t{i}") for i in range(args.runs)]
        finally:
            stop(vault)
    pushed = sum(bool(out) for _, out in on)
    print(f"{args.n} memories, warm daemon; load average {os.getloadavg()[0]:.2f}")
    summary("push_on_success on (PostToolUse Edit, whole process)", [ms for ms, _ in on])
    summary("push_on_success off (the hook reads settings, returns)", [ms for ms, _ in off])
    print(f"calls that pushed a memory: {pushed}/{len(on)}")


if __name__ == "__main__":
    main()
