"""JSON with comments, edited as text: read it (comments and trailing commas
allowed), and add or remove one member of a nested object while every other
byte, comments and layout included, stays as the person wrote it.

The agents' settings files (Gemini's settings.json, OpenCode's opencode.jsonc,
Cursor's mcp.json) are JSON that people annotate; a json.dumps round trip
would drop their comments.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from typing import Any


def blank_comments(text: str) -> str:
    """`text` with // and /* */ comments replaced by spaces (offsets kept)."""
    out = list(text)
    index, in_string = 0, False
    while index < len(text):
        char = text[index]
        if in_string:
            if char == "\\":
                index += 2
                continue
            in_string = char != '"'
        elif char == '"':
            in_string = True
        elif text.startswith("//", index):
            end = text.find("\n", index)
            end = len(text) if end < 0 else end
            out[index:end] = " " * (end - index)
            index = end
            continue
        elif text.startswith("/*", index):
            end = text.find("*/", index + 2)
            end = len(text) if end < 0 else end + 2
            out[index:end] = ["\n" if c == "\n" else " " for c in text[index:end]]
            index = end
            continue
        index += 1
    return "".join(out)


def blank_trailing_commas(text: str) -> str:
    """Comment-free `text` with each comma that only a `}` or `]` follows replaced
    by a space; commas inside strings are data and stay."""
    out = list(text)
    index, in_string = 0, False
    while index < len(text):
        char = text[index]
        if in_string:
            if char == "\\":
                index += 2
                continue
            in_string = char != '"'
        elif char == '"':
            in_string = True
        elif char == ",":
            after = index + 1
            while after < len(text) and text[after] in " \t\r\n":
                after += 1
            if after < len(text) and text[after] in "}]":
                out[index] = " "
        index += 1
    return "".join(out)


def loads(text: str) -> Any:
    """Parse JSON with comments and trailing commas (raises ValueError)."""
    return json.loads(blank_trailing_commas(blank_comments(text)) or "null")


@dataclass(frozen=True)
class Member:
    key: str
    start: int  # the key's opening quote
    end: int  # just after the value
    value_start: int


@dataclass(frozen=True)
class ObjectSpan:
    start: int  # the "{"
    end: int  # the "}"
    members: tuple[Member, ...]


class _Scanner:
    """Finds object members' spans in comment-blanked JSON."""

    def __init__(self, text: str) -> None:
        self.text = text
        self.decoder = json.JSONDecoder()

    def skip(self, index: int) -> int:
        while index < len(self.text) and self.text[index] in " \t\r\n":
            index += 1
        return index

    def value_end(self, index: int) -> int:
        index = self.skip(index)
        char = self.text[index]
        if char in "{[":
            return self.container(index)[0]
        _, end = self.decoder.raw_decode(self.text, index)
        return end

    def container(self, index: int) -> tuple[int, ObjectSpan | None]:
        closing = "}" if self.text[index] == "{" else "]"
        members: list[Member] = []
        position = self.skip(index + 1)
        while self.text[position] != closing:
            if self.text[position] == ",":
                position = self.skip(position + 1)
                continue
            if closing == "}":
                key, after_key = self.decoder.raw_decode(self.text, position)
                colon = self.skip(after_key)
                value_start = self.skip(colon + 1)
                end = self.value_end(value_start)
                members.append(Member(str(key), position, end, value_start))
            else:
                end = self.value_end(position)
            position = self.skip(end)
        span = ObjectSpan(index, position, tuple(members)) if closing == "}" else None
        return position + 1, span


def find_object(text: str, path: tuple[str, ...]) -> ObjectSpan | None:
    """The object at `path` (() is the root), or None when it is missing."""
    scanner = _Scanner(blank_comments(text))
    start = scanner.skip(0)
    if start >= len(text) or scanner.text[start] != "{":
        return None
    _, span = scanner.container(start)
    for key in path:
        member = next((m for m in span.members if m.key == key), None) if span else None
        if member is None or scanner.text[member.value_start] != "{":
            return None
        _, span = scanner.container(member.value_start)
    return span


def _indent_of(text: str, index: int) -> str:
    line_start = text.rfind("\n", 0, index) + 1
    return re.match(r"[ \t]*", text[line_start:]).group(0)  # type: ignore[union-attr]


def set_member(text: str, path: tuple[str, ...], key: str, value: Any) -> str:
    """`text` with `key: value` in the object at `path`, creating the objects
    on the way; an existing member `key` there is replaced."""
    if not text.strip():
        text = "{}\n"
    for depth in range(len(path) + 1):
        span = find_object(text, path[: len(path) - depth])
        if span is not None:
            break
    else:
        raise ValueError("the file does not hold a JSON object")
    missing = path[len(path) - depth :]
    nested: Any = value
    name = key
    for inner in reversed(missing):
        nested, name = {name: nested}, inner
    existing = next((m for m in span.members if m.key == name), None)
    if existing is not None:
        text = _cut(text, span, existing)
        span = find_object(text, path[: len(path) - depth])
        assert span is not None
    return _insert(text, span, name, nested)


def _insert(text: str, span: ObjectSpan, key: str, value: Any) -> str:
    """Add a member after the object's last one, in the object's own layout."""
    base = _indent_of(text, span.start)
    if span.members and "\n" not in text[span.start : span.members[0].start]:  # one line
        last = span.members[-1]
        member = f"{json.dumps(key)}: {json.dumps(value, ensure_ascii=False)}"
        return text[: last.end] + ", " + member + text[last.end :]
    indent = _indent_of(text, span.members[0].start) if span.members else base + "  "
    rendered = json.dumps(value, indent=2, ensure_ascii=False).replace("\n", "\n" + indent)
    member = f"{json.dumps(key)}: {rendered}"
    if span.members:
        last = span.members[-1]
        return text[: last.end] + ",\n" + indent + member + text[last.end :]
    return text[: span.start + 1] + "\n" + indent + member + "\n" + base + text[span.end :]


def _cut(text: str, span: ObjectSpan, member: Member) -> str:
    """`text` without `member` and the comma that joined it to its neighbours."""
    position = span.members.index(member)
    if position > 0:
        start = span.members[position - 1].end
        return text[:start] + text[member.end :]
    if len(span.members) > 1:
        return text[: member.start] + text[span.members[1].start :]
    inner_start = span.start + 1
    return text[:inner_start] + text[member.end :].lstrip(" \t\r\n")


def remove_member(text: str, path: tuple[str, ...], key: str) -> str:
    """`text` without member `key` of the object at `path` (unchanged if absent)."""
    span = find_object(text, path)
    member = next((m for m in span.members if m.key == key), None) if span else None
    if span is None or member is None:
        return text
    return _cut(text, span, member)
