"""`vault install` / `vault uninstall`: wire memory-vault into Claude Code.

Adds our hook entries to <claude dir>/settings.json (absolute path to this
environment's `vault-hook`; other hooks untouched; a backup written),
registers the MCP server at user scope with `claude mcp add` (a "vault" server
that is not ours is left alone), and adds a marked block to CLAUDE.md.
Idempotent; `uninstall` removes exactly what was added, byte for byte when
nothing else changed. The claude dir is $CLAUDE_CONFIG_DIR or ~/.claude.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from hooks.claude_code.config_dir import claude_dir, user_config_file
from vault.atomic import atomic_write

MARKER = "vault-hook"
PLUGIN_ID = "memory-vault@"
EVENTS = {  # Claude Code event: (our event name, timeout in seconds)
    "SessionStart": ("session-start", 15),
    # covers hook_cold_wait_seconds (12) for a daemon that is starting, plus the fallback
    "UserPromptSubmit": ("user-prompt-submit", 20),
    "PreToolUse": ("pre-tool-use", 5),
    "PostToolUseFailure": ("post-tool-use-failure", 5),
    "Stop": ("stop", 30),
    "PreCompact": ("pre-compact", 30),
    "SubagentStop": ("subagent-stop", 30),
    "SessionEnd": ("session-end", 5),
}
# `push_on_success`: after a successful edit or write too (off by default: a hook
# process per edit; README "Measured figures" has its cost per call)
ON_SUCCESS = {"PostToolUse": ("post-tool-use", 5)}
MATCHERS = {  # the push channels: edits and commands only (never our own MCP tools)
    "PreToolUse": "Edit|Write|MultiEdit|NotebookEdit|Bash",
    "PostToolUseFailure": "Bash",
    "PostToolUse": "Edit|Write|MultiEdit|NotebookEdit",
}
START = "<!-- memory-vault:start -->"
END = "<!-- memory-vault:end -->"
GUIDE = f"""{START}
## Long-term memory (memory-vault)
A local memory of past sessions is attached to prompts as "memory-vault" notes.
- "Remembered (confident)" notes are the user's own earlier decisions and preferences.
- "Might be related" notes are weak matches: mention them tentatively and ask whether they
  still apply; when the user confirms, call the `confirm` tool of the `vault` MCP server.
- Tools of the `vault` MCP server: `recall` (search memory), `remember` (save a durable
  decision or preference), `confirm`, `forget`, `status`. Save decisions, not chatter.
- The user can inspect and edit everything with the `vault` command and in the vault folder.
{END}
"""


def bin_dir() -> Path:
    return Path(sys.executable).parent


def our_events(push_on_success: bool = False) -> dict[str, tuple[str, int]]:
    return {**EVENTS, **(ON_SUCCESS if push_on_success else {})}


def our_groups(push_on_success: bool = False) -> dict[str, list[dict[str, Any]]]:
    hook = bin_dir() / "vault-hook"
    groups: dict[str, list[dict[str, Any]]] = {}
    for event, (name, timeout) in our_events(push_on_success).items():
        group: dict[str, Any] = {"matcher": MATCHERS[event]} if event in MATCHERS else {}
        group["hooks"] = [{"type": "command", "command": f'"{hook}" {name}', "timeout": timeout}]
        groups[event] = [group]
    return groups


def _ours(handler: Any) -> bool:
    return isinstance(handler, dict) and MARKER in str(handler.get("command", ""))


def without_ours(settings: dict[str, Any]) -> dict[str, Any]:
    result = dict(settings)
    hooks = dict(result.get("hooks", {}))
    for event in list(hooks):
        kept = []
        for group in hooks[event] if isinstance(hooks[event], list) else []:
            handlers = [h for h in group.get("hooks", []) if not _ours(h)]
            if handlers:
                kept.append({**group, "hooks": handlers})
            elif not group.get("hooks"):
                kept.append(group)
        if kept:
            hooks[event] = kept
        else:
            del hooks[event]
    if hooks:
        result["hooks"] = hooks
    else:
        result.pop("hooks", None)
    return result


def with_ours(settings: dict[str, Any], push_on_success: bool = False) -> dict[str, Any]:
    result = without_ours(settings)
    hooks = dict(result.get("hooks", {}))
    for event, groups in our_groups(push_on_success).items():
        hooks[event] = list(hooks.get(event, [])) + groups
    result["hooks"] = hooks
    return result


class Installer:
    def __init__(
        self, environ: Mapping[str, str], dry_run: bool = False, push_on_success: bool = False
    ) -> None:
        self.environ = environ
        self.dry_run = dry_run
        self.push_on_success = push_on_success
        self.root = claude_dir(environ)
        self.settings = self.root / "settings.json"
        self.guide = self.root / "CLAUDE.md"
        self.state_dir = self.root / ".memory-vault"
        self.actions: list[str] = []

    # settings.json --------------------------------------------------------------

    def _load(self) -> dict[str, Any]:
        if not self.settings.exists():
            return {}
        try:
            data = json.loads(self.settings.read_text(encoding="utf-8"))
        except ValueError as exc:
            raise ValueError(f"{self.settings} is not valid JSON ({exc}); fix it first") from exc
        if not isinstance(data, dict):
            raise ValueError(f"{self.settings} does not hold a JSON object; fix it first")
        return data

    def _write_settings(self, data: dict[str, Any]) -> None:
        atomic_write(self.settings, (json.dumps(data, indent=2) + "\n").encode())

    def install_hooks(self) -> None:
        current = self._load()
        plugins = current.get("enabledPlugins", {})
        if isinstance(plugins, dict) and any(
            k.startswith(PLUGIN_ID) and v for k, v in plugins.items()
        ):
            self.actions.append("hooks: the memory-vault plugin is enabled; not adding them twice")
            return
        wanted = with_ours(current, self.push_on_success)
        if wanted == current:
            self.actions.append(f"hooks: already in {self.settings}")
            return
        events = len(our_events(self.push_on_success))
        self.actions.append(f"hooks: add {events} events to {self.settings}")
        if self.dry_run:
            return
        self.state_dir.mkdir(parents=True, exist_ok=True)
        original = self.state_dir / "settings.json.orig"
        missing = self.state_dir / "settings.json.absent"
        if not original.exists() and not missing.exists():
            if self.settings.exists():
                shutil.copy2(self.settings, original)
            else:
                missing.touch()
        if self.settings.exists():
            shutil.copy2(self.settings, self.settings.with_suffix(".json.bak"))
        self._write_settings(wanted)

    def uninstall_hooks(self) -> None:
        current = self._load()
        remaining = without_ours(current)
        original = self.state_dir / "settings.json.orig"
        missing = self.state_dir / "settings.json.absent"
        if remaining == current and not (original.exists() or missing.exists()):
            self.actions.append("hooks: none of ours in settings.json")
            return
        self.actions.append(f"hooks: remove ours from {self.settings}")
        if self.dry_run:
            return
        if missing.exists() and not remaining:
            self.settings.unlink(missing_ok=True)
        elif original.exists() and json.loads(original.read_text(encoding="utf-8")) == remaining:
            shutil.copy2(original, self.settings)  # byte for byte as it was
        else:
            self._write_settings(remaining)
        original.unlink(missing_ok=True)
        missing.unlink(missing_ok=True)

    # CLAUDE.md ------------------------------------------------------------------

    def install_guide(self) -> None:
        text = self.guide.read_text(encoding="utf-8") if self.guide.exists() else None
        if text is not None and START in text:
            self.actions.append(f"CLAUDE.md: block already in {self.guide}")
            return
        self.actions.append(f"CLAUDE.md: add the memory-vault block to {self.guide}")
        if self.dry_run:
            return
        if text is None:
            self.state_dir.mkdir(parents=True, exist_ok=True)
            (self.state_dir / "CLAUDE.md.absent").touch()
        atomic_write(self.guide, ((text or "") + "\n" + GUIDE).encode())

    def uninstall_guide(self) -> None:
        if not self.guide.exists():
            return
        text = self.guide.read_text(encoding="utf-8")
        start, end = text.find("\n" + START), text.find(END)
        if start < 0 or end < 0:
            self.actions.append("CLAUDE.md: no memory-vault block")
            return
        self.actions.append(f"CLAUDE.md: remove the memory-vault block from {self.guide}")
        if self.dry_run:
            return
        rest = text[:start] + text[end + len(END) + 1 :]
        absent = self.state_dir / "CLAUDE.md.absent"
        if absent.exists() and not rest:
            self.guide.unlink()
        else:
            atomic_write(self.guide, rest.encode())
        absent.unlink(missing_ok=True)

    # MCP ------------------------------------------------------------------------

    def _claude(self, *args: str) -> None:
        claude = shutil.which("claude", path=self.environ.get("PATH"))
        command = ["claude", *args]
        if claude is None:
            self.actions.append(f"MCP: `claude` not found; run yourself: {' '.join(command)}")
            return
        self.actions.append(f"MCP: {' '.join(command)}")
        if self.dry_run:
            return
        env = {k: v for k, v in self.environ.items() if k not in ("CLAUDECODE",)}
        result = subprocess.run(
            [claude, *args], capture_output=True, text=True, env=env, timeout=60
        )
        if result.returncode != 0:
            self.actions.append(
                f"MCP: claude exited {result.returncode}: {result.stderr.strip()[:200]}"
            )

    def _registered(self) -> dict[str, Any] | None | str:
        """The user-scope MCP server named vault: its entry, None when there is
        none, or why we cannot tell."""
        path = user_config_file(self.environ)
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
        except FileNotFoundError:
            return None
        except (OSError, ValueError) as exc:
            return f"{path} cannot be read ({exc})"
        servers = data.get("mcpServers") if isinstance(data, dict) else None
        entry = servers.get("vault") if isinstance(servers, dict) else None
        return entry if isinstance(entry, dict) else None

    def _not_ours(self, entry: dict[str, Any] | str) -> str | None:
        """Why the registered server must be left alone, or None when it is ours."""
        if isinstance(entry, str):
            return f'cannot tell whether the MCP server "vault" is ours: {entry}'
        args = entry.get("args")
        command = [entry.get("command"), *(args if isinstance(args, list) else [])]
        if command == [str(bin_dir() / "vault"), "mcp"]:
            return None
        shown = " ".join(str(part) for part in command)
        return (
            f'an MCP server named "vault" runs `{shown}`, not this environment\'s; left as '
            "it is (remove it with `claude mcp remove vault --scope user`)"
        )

    def install_mcp(self) -> None:
        registered = self._registered()
        if registered is not None:
            reason = self._not_ours(registered)
            self.actions.append(f"MCP: {reason or 'already registered at user scope'}")
            return
        vault = str(bin_dir() / "vault")
        self._claude(
            "mcp", "add", "--scope", "user", "--transport", "stdio", "vault", "--", vault, "mcp"
        )

    def uninstall_mcp(self) -> None:
        registered = self._registered()
        if registered is None:
            self.actions.append("MCP: no server named vault at user scope")
            return
        reason = self._not_ours(registered)
        if reason is not None:
            self.actions.append(f"MCP: {reason}")
            return
        self._claude("mcp", "remove", "vault", "--scope", "user")

    # All ------------------------------------------------------------------------

    def install(self) -> list[str]:
        self.install_hooks()
        self.install_mcp()
        self.install_guide()
        return self.actions

    def uninstall(self) -> list[str]:
        self.uninstall_hooks()
        self.uninstall_mcp()
        self.uninstall_guide()
        if not self.dry_run and self.state_dir.is_dir() and not any(self.state_dir.iterdir()):
            self.state_dir.rmdir()
        return self.actions
