"""The hook path of `vault bench retrieval`: what the prompt hook would inject
for each question, in its own conversation's vault and in the others' (whatever
is injected there is noise), what that costs a prompt, and the same search
re-tiered under other bars (the calibration curve: one setting moved at a
time). The hook hands in its own recall options and its choice and rendering
of what to show (`HookPath`), so this measures its code, not a copy.
"""

from __future__ import annotations

import statistics
from collections import defaultdict
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from typing import Any

from memory.recall.ranking import RecallOptions, associative_tiers, candidates
from memory.results import Associative
from memory.service import MemoryService

# (setting, value) points of the curve, each moved alone from the configured bars
CURVE: tuple[tuple[str, float], ...] = (
    *(("confident_cosine", bar) for bar in (0.0, 0.4, 0.45, 0.5, 0.55, 0.6)),
    *(("hedged_cosine", bar) for bar in (0.0, 0.3, 0.35, 0.4, 0.42, 0.45, 0.5)),
    *(("hedged_gap", gap) for gap in (0.02, 0.05, 0.1, 0.2, 1.0)),
)
CHARS_PER_TOKEN = 4.0  # the usual estimate for English text


@dataclass(frozen=True)
class HookPath:
    """How the prompt hook recalls (options, the prompt as a query) and what it
    injects for a recall (the text and the ids of the memories in it)."""

    options: RecallOptions
    query: Callable[[str], str]
    render: Callable[[MemoryService, Associative], tuple[str, list[str]]]
    brief: Callable[[MemoryService, str | None], str]  # SessionStart's text for a project


@dataclass(frozen=True)
class Injection:
    shown: list[str]
    confident: list[str]  # the shown memories stated as confident
    chars: int


# A question's injection at the service's own bars (key None) and at each curve point.
Injections = dict[tuple[str, float] | None, Injection]


@dataclass(frozen=True)
class Asked:
    """A question asked in its own conversation's vault."""

    category: str
    relevant: set[str]
    at: Injections


@dataclass
class HookTally:
    own: list[Asked] = field(default_factory=list)
    foreign: list[Injections] = field(default_factory=list)  # noise, whatever it is
    absent: list[Injections] = field(default_factory=list)  # own vault, nothing relevant held
    briefings: list[int] = field(default_factory=list)  # characters of each vault's briefing


def inject(service: MemoryService, hook: HookPath, query: str) -> Injections:
    """What the hook injects for `query`, at each curve point, from one search."""
    matches = candidates(service, hook.query(query), hook.options)
    found: Injections = {}
    for point in (None, *CURVE):
        view = service if point is None else service.with_config(
            replace(service.config, **_moved(point))
        )  # fmt: skip
        tiers = associative_tiers(view, matches, hook.options)
        text, shown = hook.render(view, tiers)
        confident = {hit.id for hit in tiers.confident}
        found[point] = Injection(shown, [m for m in shown if m in confident], len(text))
    return found


def _moved(point: tuple[str, float]) -> dict[str, Any]:
    return {point[0]: point[1]}


def summary(tally: HookTally) -> dict[str, Any]:
    own = [asked.at[None] for asked in tally.own]
    by_category: dict[str, list[float]] = defaultdict(list)
    for asked in tally.own:
        by_category[asked.category].append(_recall(asked.at[None], asked.relevant))
    return {
        "own": {
            **_own_figures(tally.own, None),
            **cost(own),
            "by_category": {c: _mean(v) for c, v in sorted(by_category.items())},
        },
        "foreign": _noise([row[None] for row in tally.foreign]),
        "absent": _noise([row[None] for row in tally.absent]),
        "briefing": _briefing_size(sorted(tally.briefings)),
        "curve": [
            {
                "setting": name,
                "value": value,
                **_own_figures(tally.own, (name, value)),
                "chars_p50": cost([a.at[(name, value)] for a in tally.own])["chars_p50"],
                "foreign_with_confident": _mean(
                    [bool(r[(name, value)].confident) for r in tally.foreign]
                ),
                "foreign_with_any": _mean([bool(r[(name, value)].shown) for r in tally.foreign]),
            }
            for name, value in CURVE
        ],
    }


def cost(rows: list[Injection]) -> dict[str, Any]:
    """What the injections cost a prompt: memories and characters (mean, median,
    p95), estimated tokens (characters / 4, English text) and how often nothing
    at all was injected."""
    chars = sorted(i.chars for i in rows)
    return {
        "memories": _mean([len(i.shown) for i in rows]),
        "chars": _mean(chars),
        "chars_p50": _quantile(chars, 0.5),
        "chars_p95": _quantile(chars, 0.95),
        "tokens_p50": round(_quantile(chars, 0.5) / CHARS_PER_TOKEN),
        "tokens_p95": round(_quantile(chars, 0.95) / CHARS_PER_TOKEN),
        "with_any": _mean([bool(i.shown) for i in rows]),
        "with_nothing": _mean([not i.shown for i in rows]),
    }


def _noise(rows: list[Injection]) -> dict[str, Any]:
    """Injections where nothing relevant is held: any of them is noise."""
    return {"questions": len(rows), "with_confident": _mean([bool(i.confident) for i in rows]),
            **cost(rows)}  # fmt: skip


def _briefing_size(chars: list[int]) -> dict[str, Any]:
    return {"vaults": len(chars), "chars_p50": _quantile(chars, 0.5),
            "chars_p95": _quantile(chars, 0.95),
            "tokens_p50": round(_quantile(chars, 0.5) / CHARS_PER_TOKEN),
            "tokens_p95": round(_quantile(chars, 0.95) / CHARS_PER_TOKEN)}  # fmt: skip


def _quantile(values: list[int], q: float) -> float:
    return float(values[int(q * (len(values) - 1))]) if values else 0.0


def _own_figures(rows: list[Asked], point: tuple[str, float] | None) -> dict[str, Any]:
    shown = [(asked.at[point], asked.relevant) for asked in rows]
    confident = [m in relevant for i, relevant in shown for m in i.confident]
    return {
        "questions": len(rows),
        "injected_recall": _mean([_recall(i, relevant) for i, relevant in shown]),
        "injected_precision": _mean(
            [sum(m in relevant for m in i.shown) / len(i.shown) for i, relevant in shown if i.shown]
        ),
        "with_confident": _mean([bool(i.confident) for i, _ in shown]),
        "confident_precision": _mean(confident),
    }


def _recall(injection: Injection, relevant: set[str]) -> float:
    return len(set(injection.shown) & relevant) / len(relevant) if relevant else 0.0


def _mean(values: list[float] | list[bool] | list[int]) -> float:
    return round(statistics.fmean(values), 3) if values else 0.0
