"""Plain-text rendering of service results for the terminal."""

from __future__ import annotations

import textwrap
from typing import Any

from memory.results import Associative, Hit, Listing, Status
from vault.clock import describe_age

AROUND = "matched only words said around it, not its own"


def hit_lines(hit: Hit, explain: bool, around: frozenset[str] = frozenset()) -> list[str]:
    """`around`: ids of hits that matched a keyword search only through the words
    said around them (their session), which the head then says."""
    via = f", see also: linked to {hit.via}" if hit.via else ""
    near = f", {AROUND}" if hit.id in around else ""
    category = f", category {hit.category}" if hit.category else ""
    head = (
        f"{hit.id}  [{hit.tier}, {describe_age(hit.age_days)}, strength {hit.strength:.2f}, "
        f"score {hit.score:.3f}{', reinforced' if hit.reinforced else ''}{category}{via}{near}]"
    )
    body = textwrap.indent(textwrap.shorten(hit.text, 400, placeholder=" ..."), "    ")
    lines = [head, f"    from {hit.path}", body] if hit.document else [head, body]
    if explain:
        lines.append(f"    why: {hit.reason}")
    return lines


def hits(
    found: list[Hit],
    explain: bool,
    empty: str = "No memories matched.",
    around: frozenset[str] = frozenset(),
) -> str:
    if not found:
        return empty
    return "\n".join(line for hit in found for line in hit_lines(hit, explain, around))


def associative(result: Associative, explain: bool, around: frozenset[str] = frozenset()) -> str:
    parts = ["Confident (stated as fact, reinforced):"]
    parts.append(textwrap.indent(hits(result.confident, explain, "(none)", around), "  "))
    parts.append("Might be related (hedged, not reinforced; `vault confirm ID` if it still holds):")
    parts.append(textwrap.indent(hits(result.activated, explain, "(none)", around), "  "))
    if result.see_also:
        parts.append("See also (linked to the memories above):")
        parts.append(textwrap.indent(hits(result.see_also, explain, around=around), "  "))
    return "\n".join(parts)


def listings(items: list[Listing]) -> str:
    if not items:
        return "No memories."
    return "\n".join(
        f"{i.strength:5.2f}  {i.tier:9} {i.id}  {textwrap.shorten(i.preview, 60, placeholder='…')}"
        for i in items
    )


def status(result: Status) -> str:
    total = sum(result.active.values())
    lines = [f"Vault: {result.vault}", f"Active memories: {total}"]
    lines += [f"  {tier:9} {count}" for tier, count in result.active.items()]
    lines.append(f"Archived: {result.archived} ({result.archive_bytes:,} bytes)")
    lines.append("Strength of active memories:")
    widest = max((count for _, count in result.histogram), default=0) or 1
    for label, count in result.histogram:
        lines.append(f"  {label}  {'#' * round(30 * count / widest):30} {count}")
    index = result.index
    documents = int(index.get("documents", 0) or 0)
    folder_part = f", {documents} folder documents" if documents else ""
    lines.append(
        f"Index: {int(index.get('memories', 0) or 0) - documents} memories{folder_part}, "
        f"{index.get('vectors', 0)} vectors, model {index.get('model')}"
    )
    lines += consolidation_lines(result.consolidation)
    if result.problems:
        lines.append(f"Files with problems ({len(result.problems)}):")
        lines += [f"  {path}: {reason}" for path, reason in result.problems]
    else:
        lines.append("Files with problems: none")
    return "\n".join(lines)


def consolidation_lines(info: dict[str, Any]) -> list[str]:
    if not info:
        return []
    lines = [f"Last consolidation: {info.get('last_run') or 'never'}"]
    salience = info.get("salience") or {}
    weights = ", ".join(f"{d} {w:.2f}" for d, w in (salience.get("weights") or {}).items())
    state = (
        "learned"
        if salience.get("signals", 0) >= salience.get("learn_after", 0)
        else (f"learning starts at {salience.get('learn_after')}")
    )
    lines.append(f"Learned salience: {salience.get('signals', 0)} signals ({state}); {weights}")
    return lines
