"""`vault-hook EVENT`: the entry point Claude Code runs for every hook.

Whatever its input, it prints only hook JSON (or nothing) and exits 0: a
failure is logged to .state/hooks.log (rotated) and one line goes to stderr. Inside our
own `claude -p` child (MEMORY_VAULT_CHILD=1) it does nothing. Imports stay
inside the handlers, so the prompt path loads only the standard library.
"""

from __future__ import annotations

import os
import sys

# macOS: Accelerate's own thread pool beside FAISS's and ONNX Runtime's can hang a
# process that forks; one thread for it, set before numpy loads (Linux: no effect).
os.environ.setdefault("VECLIB_MAXIMUM_THREADS", "1")

TYPE_CHECKING = False  # not typing's: on the prompt hook path `import typing` adds ~23 ms
if TYPE_CHECKING:
    from collections.abc import Callable


def _user_prompt_submit() -> None:
    from hooks.claude_code import prompt

    prompt.run(sys.stdin, sys.stdout)


def _tool_use() -> None:
    from hooks.claude_code import tool_hook

    tool_hook.run(sys.stdin, sys.stdout)


def _session_start() -> None:
    from hooks.claude_code import session

    session.session_start()


def _capture(event: str) -> Callable[[], None]:
    def run() -> None:
        from hooks.claude_code import session

        session.capture(event)

    return run


HANDLERS: dict[str, Callable[[], None]] = {
    "user-prompt-submit": _user_prompt_submit,
    "session-start": _session_start,
    "pre-tool-use": _tool_use,
    "post-tool-use": _tool_use,
    "post-tool-use-failure": _tool_use,
    "stop": _capture("stop"),
    "pre-compact": _capture("pre-compact"),
    "subagent-stop": _capture("subagent-stop"),
    "session-end": _capture("session-end"),
}


def _log_failure(event: str) -> None:
    try:
        import traceback

        from hooks.claude_code import hook_log
        from vault.paths import vault_home

        hook_log.append(vault_home(None, os.environ), f"{event}\n{traceback.format_exc()}")
    except Exception:  # logging must never turn a hook failure into a broken session
        return


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    event = args[0] if args else ""
    if os.environ.get("MEMORY_VAULT_CHILD") == "1":
        return 0
    handler = HANDLERS.get(event)
    if handler is None:
        return 0
    try:
        handler()
    except BaseException as exc:  # a hook never breaks the user's session
        if isinstance(exc, KeyboardInterrupt):
            return 0
        _log_failure(event)
        print(f"memory-vault {event}: {type(exc).__name__}: {exc}"[:300], file=sys.stderr)
    return 0


def entry() -> None:
    sys.exit(main())


if __name__ == "__main__":
    entry()
