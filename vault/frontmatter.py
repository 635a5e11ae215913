"""Parse and rewrite memory files without disturbing what a person wrote.

`parse` splits a file into its YAML block and its body, kept byte for byte.
`update` rewrites only the top-level keys we own, one line each, in place;
comments, unknown keys, a leading BOM and CRLF line ends stay as they were.
`render` writes a new file. Nothing here touches the disk.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import date, datetime
from typing import Any

import yaml
from frontmatter.default_handlers import YAMLHandler

from vault.clock import format_time

BOM = "\ufeff"
_OPEN = re.compile(r"\A\ufeff?---[ \t]*\r?\n")
_CLOSE = re.compile(r"^(?:---|\.\.\.)[ \t]*(?:\r?\n|\Z)", re.MULTILINE)
_TOP_KEY = re.compile(r"^([A-Za-z_][\w-]*)[ \t]*:(?:[ \t]|\r?$|\n)")
_PLAIN_SAFE = re.compile(r"^[A-Za-z0-9_][A-Za-z0-9_.:/@+-]*$")
_HANDLER = YAMLHandler()
# libyaml's loader and dumper when PyYAML has them (its wheels do): the one
# python-frontmatter parses with, and several times faster than the pure ones.
_LOADER: Any = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
_DUMPER: Any = getattr(yaml, "CSafeDumper", yaml.SafeDumper)


class FrontmatterError(ValueError):
    """The YAML block does not parse, or is not a mapping."""


@dataclass(frozen=True)
class ParsedFile:
    meta: dict[str, Any]
    body: str
    # The raw frontmatter lines (between the delimiters) and everything before
    # the body, so an update can splice the file back together.
    fm_text: str
    has_frontmatter: bool
    newline: str


def parse(text: str) -> ParsedFile:
    newline = "\r\n" if "\r\n" in text[:200] else "\n"
    opening = _OPEN.match(text)
    if not opening:
        return ParsedFile({}, text.removeprefix(BOM), "", False, newline)
    closing = _CLOSE.search(text, opening.end())
    if not closing:
        raise FrontmatterError("frontmatter opens with '---' but never closes")
    fm_text = text[opening.end() : closing.start()]
    try:
        loaded = _HANDLER.load(fm_text) if fm_text.strip() else {}
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        where = f" (line {mark.line + 2})" if mark is not None else ""
        raise FrontmatterError(f"YAML does not parse{where}") from exc
    if loaded is None:
        loaded = {}
    if not isinstance(loaded, dict):
        raise FrontmatterError("frontmatter is not a mapping of keys to values")
    return ParsedFile(dict(loaded), text[closing.end() :], fm_text, True, newline)


def split(text: str) -> tuple[str, str] | None:
    """(YAML block, body) without parsing the YAML (a quick scan over many
    files); None when the file has no frontmatter or it never closes."""
    opening = _OPEN.match(text)
    closing = _CLOSE.search(text, opening.end()) if opening else None
    if opening is None or closing is None:
        return None
    return text[opening.end() : closing.start()], text[closing.end() :]


def load_scalar(text: str) -> Any:
    """One YAML value as our parser reads it (None when it does not parse)."""
    return _loads_back(text)


def render_value(value: Any) -> str:
    """One-line YAML for a value we own (flow style for lists and mappings)."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        return _float_text(value)
    if isinstance(value, datetime):
        return format_time(value)
    if isinstance(value, date):
        return value.isoformat()
    if isinstance(value, (list, tuple)):
        return "[" + ", ".join(render_value(item) for item in value) + "]"
    if isinstance(value, dict):  # a flow mapping, e.g. salience_dims
        pairs = (f"{render_value(k)}: {render_value(v)}" for k, v in value.items())
        return "{" + ", ".join(pairs) + "}"
    text = str(value)
    if _PLAIN_SAFE.match(text) and _loads_back(text) == text:
        return text
    dumped = yaml.dump(text, Dumper=_DUMPER, default_style='"', width=2**30, allow_unicode=True)
    return dumped.removesuffix("\n...\n").rstrip("\n")


def _float_text(value: float) -> str:
    """7 significant digits (small values keep theirs); an exponent's mantissa gets
    a dot, without which YAML 1.1 reads `1e-09` as a string."""
    text = repr(float(f"{value:.7g}"))
    mantissa, exponent, power = text.partition("e")
    if exponent and "." not in mantissa:
        return f"{mantissa}.0e{power}"
    return text


def _loads_back(text: str) -> Any:
    try:
        return yaml.load(text, Loader=_LOADER)  # a safe loader
    except yaml.YAMLError:
        return None


def render(meta: dict[str, Any], body: str, newline: str = "\n") -> str:
    lines = [f"{key}: {render_value(value)}" for key, value in meta.items()]
    return f"---{newline}" + newline.join(lines) + f"{newline}---{newline}" + body


def update(text: str, changes: dict[str, Any]) -> str:
    """Return `text` with the top-level keys in `changes` set to their values.

    Existing keys are rewritten on their own line(s) in place; new keys are
    appended at the end of the block. The result is re-parsed and checked:
    the changed keys hold the new values and every other key is unchanged.
    """
    parsed = parse(text)
    nl = parsed.newline
    if not parsed.has_frontmatter:  # a block goes first (after a BOM, if any)
        bom = BOM if text.startswith(BOM) else ""
        return bom + render(dict(changes), parsed.body, nl)
    lines = parsed.fm_text.splitlines(keepends=True)
    if lines and not lines[-1].endswith("\n"):
        lines[-1] += nl
    spans = _key_spans(lines)
    pending = dict(changes)
    out: list[str] = []
    index = 0
    while index < len(lines):
        span = spans.get(index)
        if span is not None and span[0] in pending:
            key, end = span
            out.append(f"{key}: {render_value(pending.pop(key))}{nl}")
            # Keep blank lines that trailed the old value; drop its continuation lines.
            out.extend(line for line in lines[index + 1 : end] if not line.strip())
            index = end
            continue
        out.append(lines[index])
        index += 1
    out.extend(f"{key}: {render_value(value)}{nl}" for key, value in pending.items())
    head_end = _OPEN.match(text)
    assert head_end is not None
    closing = _CLOSE.search(text, head_end.end())
    assert closing is not None
    new_text = text[: head_end.end()] + "".join(out) + text[closing.start() :]
    _check(parsed.meta, changes, new_text)
    return new_text


def _key_spans(lines: list[str]) -> dict[int, tuple[str, int]]:
    """Map the line index of each top-level key to (key, end line index)."""
    starts = [(i, m.group(1)) for i, line in enumerate(lines) if (m := _TOP_KEY.match(line))]
    spans: dict[int, tuple[str, int]] = {}
    for position, (start, key) in enumerate(starts):
        end = starts[position + 1][0] if position + 1 < len(starts) else len(lines)
        # A column-0 comment ends the value's block.
        for offset in range(start + 1, end):
            if lines[offset].startswith("#"):
                end = offset
                break
        spans[start] = (key, end)
    return spans


def _check(before: dict[str, Any], changes: dict[str, Any], new_text: str) -> None:
    after = parse(new_text).meta
    expected = {**before, **{k: _loads_back(render_value(v)) for k, v in changes.items()}}
    if after != expected:
        raise FrontmatterError("rewriting the frontmatter would change keys we do not own")
