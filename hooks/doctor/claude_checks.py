"""Claude Code's wiring: our hooks in settings.json or the memory-vault plugin (one,
not both), every hook command resolvable to an executable `vault-hook`, and the MCP
server registered with a command that exists. Reads Claude Code's files only."""

from __future__ import annotations

import json
import os
import shlex
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from hooks.claude_code.config_dir import claude_dir, user_config_file
from hooks.claude_code.install import EVENTS, MARKER, PLUGIN_ID
from hooks.doctor.report import Check, failed, passed

INSTALL = "run `vault install` (or install the plugin, not both)"


def _json(path: Path) -> dict[str, Any]:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        return {}
    return data if isinstance(data, dict) else {}


def hook_commands(settings: dict[str, Any]) -> dict[str, list[str]]:
    """Our hook commands in settings.json, by Claude Code event."""
    found: dict[str, list[str]] = {}
    hooks = settings.get("hooks")
    for event, groups in (hooks if isinstance(hooks, dict) else {}).items():
        for group in groups if isinstance(groups, list) else []:
            handlers = group.get("hooks", []) if isinstance(group, dict) else []
            for handler in handlers if isinstance(handlers, list) else []:
                command = str(handler.get("command", "")) if isinstance(handler, dict) else ""
                if MARKER in command:
                    found.setdefault(str(event), []).append(command)
    return found


def plugin_enabled(settings: dict[str, Any]) -> bool:
    plugins = settings.get("enabledPlugins")
    return isinstance(plugins, dict) and any(
        str(key).startswith(PLUGIN_ID) and value for key, value in plugins.items()
    )


def unrunnable(command: str) -> str | None:
    """Why the shell Claude Code starts cannot run `command`'s program, or None."""
    try:
        program = shlex.split(command)[0]
    except (ValueError, IndexError):
        return f"cannot parse the command {command!r}"
    if not os.path.isfile(program):
        return f"{program} does not exist"
    if not os.access(program, os.X_OK):
        return f"{program} is not executable"
    with open(program, "rb") as file:
        first = file.readline()
    if first.startswith(b"#!"):
        interpreter = first[2:].strip().split(b" ")[0].decode(errors="replace")
        if not os.path.exists(interpreter):
            return f"{program} names the missing interpreter {interpreter}"
    return None


def hooks_check(environ: Mapping[str, str]) -> Check:
    path = claude_dir(environ) / "settings.json"
    settings = _json(path)
    commands = hook_commands(settings)
    plugin = plugin_enabled(settings)
    if commands and plugin:
        return failed(
            "hooks",
            f"wired twice: hooks in {path} and the memory-vault plugin",
            "use one: `vault uninstall`, or `claude plugin uninstall memory-vault`",
        )
    if plugin:
        return passed("hooks", "from the memory-vault plugin")
    if not commands:
        return failed("hooks", f"no memory-vault hooks in {path}", INSTALL)
    missing = [event for event in EVENTS if event not in commands]
    doubled = [event for event, found in commands.items() if len(found) > 1]
    problems = [f"{event} not wired" for event in missing]
    problems += [f"{event} wired {len(commands[event])} times" for event in doubled]
    problems += sorted(
        {why for found in commands.values() for c in found if (why := unrunnable(c)) is not None}
    )
    if problems:
        return failed("hooks", "; ".join(problems), "run `vault install` again")
    program = shlex.split(next(iter(commands.values()))[0])[0]
    return passed("hooks", f"{len(commands)} events in {path} run {program}")


def mcp_check(environ: Mapping[str, str]) -> Check:
    settings = _json(claude_dir(environ) / "settings.json")
    config = user_config_file(environ)
    servers = _json(config).get("mcpServers")
    entry = servers.get("vault") if isinstance(servers, dict) else None
    plugin = plugin_enabled(settings)
    if isinstance(entry, dict) and plugin:
        return failed(
            "mcp",
            f'a "vault" server in {config} and the plugin\'s',
            "`claude mcp remove vault --scope user` (the plugin brings its own)",
        )
    if plugin:
        return passed("mcp", "from the memory-vault plugin")
    if not isinstance(entry, dict):
        return failed("mcp", f'no MCP server "vault" in {config}', INSTALL)
    args = entry.get("args")
    words = [str(entry.get("command", "")), *(map(str, args) if isinstance(args, list) else [])]
    command = shlex.join(words)
    why = unrunnable(command)
    if why is not None:
        return failed(
            "mcp",
            f"the registered server cannot start: {why}",
            "`claude mcp remove vault --scope user`, then `vault install`",
        )
    return passed("mcp", f"registered: {command}")
