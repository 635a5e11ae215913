"""Extractive synthesis of a periodic note from the level below, without an LLM.

Pure: a period, its sources (daily logs, or the notes of the level below) and
the memories in, the contents of the note's generated blocks out. A week links
its captured and confirmed memories as [[id]]; a higher level keeps those of
its children's links that were decisions, preferences, used again or linked by
hand, so the links thin out as they climb (what the consolidation bonus counts).
"""

from __future__ import annotations

import re
from collections import Counter, defaultdict
from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import date

from memory.encode.extract import DECISION
from vault.lazy_pattern import LazyPattern
from vault.links import link_targets
from vault.note_blocks import outside_blocks, readable
from vault.periodic import Period

SECTIONS = (
    ("summary", "Summary"),
    ("decisions", "Decisions"),
    ("preferences", "Preferences"),
    ("worked-on", "Worked on"),
    ("open-threads", "Open threads"),
)
KEPT_KINDS = ("decision", "preference")
OPEN_THREAD = LazyPattern(
    r"^\s*[-*] \[ \]|\b(TODO|FIXME)\b|\b(open question|follow[- ]up|next step|still need|"
    r"blocked on|not yet decided|undecided)\b|\?\s*(\([^)]*\))?$",
    re.IGNORECASE,
)
DONE_TASK = LazyPattern(r"^\s*[-*] \[[xX]\]")
_HEADING = LazyPattern(r"^(#{1,6}) ", re.MULTILINE)
_LINE_PREFIX = LazyPattern(r"^\s*(?:[-*+]\s+)?(?:\[[ xX]\]\s+)?(?:\d{1,2}:\d{2}\s+)?")
_WIKILINK = LazyPattern(r"\[\[[^\]]+\]\]")
MAX_LINES = 40  # per section: a note stays readable
MAX_PER_PROJECT = 8


@dataclass(frozen=True)
class MemoryLine:
    """What a note needs of one memory."""

    id: str
    kind: str
    project: str
    created: date
    last_access: date
    confirmations: int
    recalls: int
    text: str = ""  # filled for the memories a note links

    @property
    def label(self) -> str:
        flat = " ".join(self.text.split())
        return flat if len(flat) <= 140 else flat[:139] + "…"


@dataclass(frozen=True)
class Source:
    key: str  # 2027-01-25, 2027-W05, ...
    text: str  # the whole file


@dataclass
class Synthesis:
    contents: dict[str, str] = field(default_factory=dict)  # block name -> Markdown
    source: str = ""
    linked: list[str] = field(default_factory=list)
    decision_lines: int = 0
    open_threads: int = 0


def chosen_memories(period: Period, sources: list[Source], memories: list[MemoryLine]) -> list[str]:
    """The ids a note of `period` links: a week its captured and confirmed memories;
    a higher level the links of the level below that earned their place."""
    if period.level == "weekly":
        return [
            m.id
            for m in memories
            if period.contains(m.created)
            or (m.confirmations > 0 and period.contains(m.last_access))
        ]
    below = set(link_targets(_WIKILINK.findall("\n".join(s.text for s in sources))))
    by_hand = set(
        link_targets(_WIKILINK.findall("\n".join(outside_blocks(s.text) for s in sources)))
    )
    return [
        m.id
        for m in memories
        if m.id in below
        and (m.kind in KEPT_KINDS or m.confirmations + m.recalls > 0 or m.id in by_hand)
    ]


def synthesize(
    period: Period, sources: list[Source], memories: list[MemoryLine], summary: str = ""
) -> Synthesis:
    """The generated blocks of `period`'s note; `memories` need `text` for the
    chosen ones (see chosen_memories)."""
    chosen_ids = set(chosen_memories(period, sources, memories))
    chosen = [m for m in memories if m.id in chosen_ids]
    captured = [m for m in memories if period.contains(m.created)]
    known = {_normal(m.text) for m in chosen if m.text}
    decisions = _unique(_decision_lines(period, sources), known)
    threads = _unique(_open_threads(period, sources), known)
    result = Synthesis(linked=[m.id for m in chosen])
    result.decision_lines, result.open_threads = len(decisions), len(threads)
    counts = _summary_line(period, sources, captured, chosen)
    result.contents = {
        "summary": f"{summary.strip()}\n\n{counts}" if summary.strip() else counts,
        "decisions": _bullets(
            [_link(m) for m in chosen if m.kind == "decision"] + decisions, "No decisions recorded."
        ),
        "preferences": _bullets(
            [_link(m) for m in chosen if m.kind == "preference"], "No preferences recorded."
        ),
        "worked-on": _worked_on(captured, chosen),
        "open-threads": _bullets(threads, "No open threads."),
    }
    result.source = "\n\n".join(_source_text(period, s) for s in sources)
    return result


def _summary_line(
    period: Period, sources: list[Source], captured: list[MemoryLine], chosen: list[MemoryLine]
) -> str:
    kinds = Counter(m.kind for m in captured)
    projects = {m.project for m in captured if m.project}
    below = "daily logs" if period.level == "weekly" else f"{_below_name(period)} notes"
    other = len(captured) - kinds["decision"] - kinds["preference"]
    return (
        f"{_count(len(captured), 'memory', 'memories')} captured "
        f"({_count(kinds['decision'], 'decision')}, {_count(kinds['preference'], 'preference')}, "
        f"{other} other) across {_count(len(projects), 'project')}; {len(chosen)} linked here; "
        f"from {_count(len(sources), below[:-1], below)}."
    )


def _count(number: int, one: str, many: str = "") -> str:
    return f"{number} {one if number == 1 else many or one + 's'}"


def _below_name(period: Period) -> str:
    return {"monthly": "weekly", "quarterly": "monthly", "yearly": "quarterly"}[period.level]


def _link(memory: MemoryLine) -> str:
    return f"[[{memory.id}]] {memory.label}".rstrip()


def _bullets(lines: list[str], empty: str) -> str:
    if not lines:
        return f"_{empty}_"
    shown = [f"- {line}" for line in lines[:MAX_LINES]]
    if len(lines) > MAX_LINES:
        shown.append(f"- … and {len(lines) - MAX_LINES} more")
    return "\n".join(shown)


def _worked_on(captured: list[MemoryLine], chosen: list[MemoryLine]) -> str:
    by_project: dict[str, list[MemoryLine]] = defaultdict(list)
    for memory in captured:
        by_project[memory.project or "(no project)"].append(memory)
    if not by_project:
        return "_Nothing captured in this period._"
    linked_other = [m for m in chosen if m.kind not in KEPT_KINDS]
    lines = []
    for project, items in sorted(by_project.items(), key=lambda pair: (-len(pair[1]), pair[0])):
        kinds = Counter(m.kind for m in items)
        detail = ", ".join(f"{count} {kind}" for kind, count in sorted(kinds.items()))
        lines.append(f"- **{project}**: {len(items)} memories ({detail})")
        mine = [m for m in linked_other if (m.project or "(no project)") == project]
        lines += [f"  - {_link(m)}" for m in mine[:MAX_PER_PROJECT]]
    return "\n".join(lines)


def _source_lines(period: Period, source: Source) -> list[str]:
    text = source.text if period.level == "weekly" else readable(source.text)
    return [line for line in text.splitlines() if line.strip() and not _HEADING.match(line)]


def _decision_lines(period: Period, sources: list[Source]) -> list[str]:
    """Lines of the level below that carry decisions: in a daily log any line that
    says so; in a note, its Decisions section and decision lines written by hand."""
    found = []
    for source in sources:
        picked = [line for line in _source_lines(period, source) if DECISION.search(line)]
        if period.level != "weekly":
            picked = _section(source.text, "Decisions") + [
                line for line in outside_blocks(source.text).splitlines() if DECISION.search(line)
            ]
        found += [_carried(line, source.key) for line in picked if not _WIKILINK.search(line)]
    return found


def _open_threads(period: Period, sources: list[Source]) -> list[str]:
    found = []
    for source in sources:
        lines = _source_lines(period, source)
        picked = [line for line in lines if OPEN_THREAD.search(line)]
        if period.level != "weekly":
            picked = _section(source.text, "Open threads") + picked
        found += [_carried(line, source.key) for line in picked if not DONE_TASK.match(line)]
    return found


def _section(text: str, title: str) -> list[str]:
    """The content lines of a note's `## title` section (markers and placeholders out)."""
    lines, inside = [], False
    for line in readable(text).splitlines():
        if line.startswith("## "):
            inside = line[3:].strip() == title
            continue
        if inside and line.strip() and not line.strip().startswith("_No "):
            lines.append(line)
    return lines


def _carried(line: str, key: str) -> str:
    """A line as it reads one level up: bullet and time cut, its origin added once."""
    text = _LINE_PREFIX.sub("", line).strip()
    return text if re.search(r"\(\d{4}-[\dWQ][\d-]*\)$", text) else f"{text} ({key})"


def _normal(text: str) -> str:
    text = re.sub(r"\(\d{4}-[\dWQ][\d-]*\)$", "", text.strip())
    return re.sub(r"[^a-z0-9]+", " ", text.lower()).strip()[:60]


def _unique(lines: Iterable[str], known: set[str]) -> list[str]:
    """Lines in order without repeats, leaving out those a linked memory already says."""
    seen = set(known)
    kept = []
    for line in lines:
        key = _normal(line)
        if key and key not in seen:
            seen.add(key)
            kept.append(line)
    return kept


def _source_text(period: Period, source: Source) -> str:
    """A source as raw text under its own heading, pushed two levels down."""
    text = source.text if period.level == "weekly" else readable(source.text)
    text = _HEADING.sub(lambda m: "#" * min(6, len(m[1]) + 2) + " ", text.strip())
    return text if text.startswith("#") else f"### {source.key}\n\n{text}"
