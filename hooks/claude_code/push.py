"""Push channels: memories that bear on a tool call Claude is about to make.

Runs in the warm daemon for PreToolUse (an edit, a write, a command),
PostToolUseFailure (a failed command) and, with `push_on_success`, PostToolUse
(an edit or write that succeeded). The query is built from the tool input: the
file's path and its words, the edit's text, the command and, after a failure,
its error; after a successful edit, the start of the file it was made in. Our
own MCP tools are never answered. A memory is pushed at most once per session
(.state/pushed.json), at most MAX_PER_CALL per call, and never reinforced: a
file being edited is weaker evidence than a question.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from hooks.claude_code.context_text import recall_context
from memory.service import MemoryService
from vault.state import JsonState

PUSHED_TOOLS = ("Edit", "Write", "MultiEdit", "NotebookEdit", "Bash")
OUR_TOOLS = ("mcp__vault__", "mcp__plugin_memory-vault_")
MAX_PER_CALL = 3
MAX_QUERY_CHARS = 4000
LANDED_CHARS = 1500  # of the edited file, after a successful edit
SESSIONS_KEPT = 200
PATH_PARTS = 3  # the file's name and the folders nearest to it
WORD_BREAKS = re.compile(r"[\\/._\-\s]+")


def path_words(path: str) -> str:
    """`tests/test_api.py` -> `tests test api py`: the words a path is made of."""
    parts = [part for part in re.split(r"[\\/]+", path) if part][-PATH_PARTS:]
    return " ".join(word for word in WORD_BREAKS.split(" ".join(parts)) if word)


def _text(value: object, limit: int = 1500) -> str:
    return value[:limit] if isinstance(value, str) else ""


def tool_query(
    tool_name: str, tool_input: Mapping[str, Any], error: str = "", landed: str = ""
) -> str:
    """What a tool call is about, as a recall query; `landed`: after a successful
    edit, the file it was made in (PostToolUse), whose words the edit's own lack."""
    parts: list[str] = []
    path = tool_input.get("file_path") or tool_input.get("notebook_path") or ""
    if isinstance(path, str) and path:
        parts.append(path_words(path))
    if tool_name == "Edit":
        parts += [_text(tool_input.get("old_string")), _text(tool_input.get("new_string"))]
    elif tool_name == "Write":
        parts.append(_text(tool_input.get("content")))
    elif tool_name == "MultiEdit":
        edits = tool_input.get("edits")
        for edit in edits if isinstance(edits, list) else []:
            if isinstance(edit, dict):
                parts.append(_text(edit.get("new_string"), 600))
    elif tool_name == "NotebookEdit":
        parts.append(_text(tool_input.get("new_source")))
    elif tool_name == "Bash":
        parts += [_text(tool_input.get("command")), _text(tool_input.get("description"), 200)]
    if error:
        parts.append(error[-1000:])
    if landed:
        parts.append(landed[:LANDED_CHARS])
    return "\n".join(part for part in parts if part.strip())[:MAX_QUERY_CHARS]


def _pushed(service: MemoryService) -> JsonState:
    return JsonState(service.vault.state_dir / "pushed.json")


def answer_tool_event(service: MemoryService, event: object, project: str | None) -> str:
    """The hook's output line for a tool event, or "" when nothing new bears on it."""
    import json

    from memory.recall.ranking import RecallOptions

    if not isinstance(event, dict):
        return ""
    tool_name, tool_input = event.get("tool_name"), event.get("tool_input")
    if not isinstance(tool_name, str) or tool_name.startswith(OUR_TOOLS):
        return ""
    if tool_name not in PUSHED_TOOLS or not isinstance(tool_input, dict):
        return ""
    query = tool_query(tool_name, tool_input, _text(event.get("error"), 4000), _landed(event))
    if not query.strip():
        return ""
    options = RecallOptions(limit=5, project=project, see_also=False, reinforce=False)
    found = service.recall_associative(query, options)
    session = str(event.get("session_id") or "")
    shown = set(_pushed_ids(service, session))
    confident = [hit.to_dict() for hit in found.confident if hit.id not in shown]
    activated = [hit.to_dict() for hit in found.activated if hit.id not in shown]
    confident, activated = confident[:MAX_PER_CALL], activated[: MAX_PER_CALL - len(confident)]
    context = recall_context({"confident": confident, "activated": activated},
                             int(service.settings.hook_context_chars))  # fmt: skip
    if not context:
        return ""
    if session:
        _remember_pushed(service, session, [hit["id"] for hit in confident + activated])
    name = str(event.get("hook_event_name") or "PreToolUse")
    output = {"hookSpecificOutput": {"hookEventName": name, "additionalContext": context}}
    return json.dumps(output, ensure_ascii=False)


def _landed(event: Mapping[str, Any]) -> str:
    """The edited file's text a successful edit reports (PostToolUse, `push_on_success`)."""
    response = event.get("tool_response")
    if event.get("hook_event_name") != "PostToolUse" or not isinstance(response, dict):
        return ""
    return _text(response.get("originalFile"), LANDED_CHARS)


def _pushed_ids(service: MemoryService, session: str) -> list[str]:
    return _ids(_pushed(service).read().get(session)) if session else []


def _ids(entry: object) -> list[str]:
    ids = entry.get("ids") if isinstance(entry, dict) else None
    return [str(i) for i in ids] if isinstance(ids, list) else []


def _remember_pushed(service: MemoryService, session: str, ids: list[str]) -> None:
    from vault.clock import format_time

    def add(data: dict[str, Any]) -> None:
        known = _ids(data.get(session))
        entry = {"ids": [*known, *(i for i in ids if i not in known)]}
        data[session] = {**entry, "at": format_time(service.clock())}
        while len(data) > SESSIONS_KEPT:  # the least recently pushed-to session goes
            data.pop(min(data, key=lambda key: str(_at(data[key]))))

    _pushed(service).update(add)


def _at(entry: object) -> object:
    return entry.get("at", "") if isinstance(entry, dict) else ""
