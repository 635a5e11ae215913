"""What the prompt hook injected over the year benchmark's run (issue 32): its
precision, cost per prompt and how often it injected nothing, with decay on as
shipped (and off: every memory evergreen). Only reads the year's run: the plan,
the driver and the scoring are benchmarks/year_*.py's, unchanged.

    HF_HUB_OFFLINE=1 nice .venv/bin/python -m benchmarks.year_hook_bench [--days 365]
        [--seed 7] [--projects 4] [--only on|off] [--json]

An injected memory is right when it holds the asked item's value true that day
(year_score.current), about the subject when it names the item's subject word,
stale when it holds only an earlier value; a chatter probe's injection is noise.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import tempfile
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from benchmarks import year_run
from benchmarks.year_bench import DECAY_OFF
from benchmarks.year_plan import Item, make_plan
from benchmarks.year_run import Answer, YearRun
from benchmarks.year_score import current, stale

CHARS_PER_TOKEN = 4.0


@contextmanager
def output_sizes() -> Iterator[list[int]]:
    """The characters of every prompt hook reply the year's driver receives, in
    the order of its answers (the driver keeps the ids and texts, not the size)."""
    sizes: list[int] = []
    original: Callable[..., Any] = year_run.dispatch_reply

    def recording(service: Any, op: str, args: dict[str, Any]) -> Any:
        reply = original(service, op, args)
        if op == "prompt_event":
            result = reply.result
            sizes.append(len(str(result.get("output", ""))) if isinstance(result, dict) else 0)
        return reply

    year_run.dispatch_reply = recording  # type: ignore[assignment]
    try:
        yield sizes
    finally:
        year_run.dispatch_reply = original  # type: ignore[assignment]


def figures(plan_items: list[Item], answers: list[Answer], sizes: list[int]) -> dict[str, Any]:
    """Precision, stale share, nothing-injected and characters over the answers."""
    asked = [(a, plan_items[a.question.item]) for a in answers if a.question.item >= 0]
    injected = [(text, item, a.question.day) for a, item in asked for text in a.injected.values()]
    probes = [a for a in answers if a.question.chatter >= 0]
    chars = sorted(sizes)

    def share(part: int, whole: int) -> float | None:
        return round(part / whole, 3) if whole else None

    def quantile(q: float) -> int:
        return chars[int(q * (len(chars) - 1))] if chars else 0

    return {
        "questions": len(asked),
        "injected": len(injected),
        "precision": share(sum(current(t, i, d) for t, i, d in injected), len(injected)),
        "about_the_subject": share(
            sum(i.tag.lower() in t.lower() for t, i, _ in injected), len(injected)
        ),
        "stale": share(sum(stale(t, i, d) for t, i, d in injected), len(injected)),
        "recalled": share(
            sum(
                any(current(t, item, a.question.day) for t in a.injected.values())
                for a, item in asked
            ),
            len(asked),
        ),  # fmt: skip
        "nothing_injected": share(sum(not a.injected for a, _ in asked), len(asked)),
        "memories_per_prompt": round(statistics.fmean(len(a.injected) for a, _ in asked), 2)
        if asked
        else None,
        "chatter_probes": len(probes),
        "chatter_probes_with_anything": share(sum(bool(a.injected) for a in probes), len(probes)),
        "chars_p50": quantile(0.5),
        "chars_p95": quantile(0.95),
        "tokens_p50": round(quantile(0.5) / CHARS_PER_TOKEN),
        "prompts": len(chars),
    }


def run(days: int, seed: int, projects: int, sync: range, decay: bool) -> dict[str, Any]:
    plan = make_plan(days, seed, projects)
    with tempfile.TemporaryDirectory(prefix="vault-year-hook-") as tmp, output_sizes() as sizes:
        trace = YearRun(plan, Path(tmp), {} if decay else dict(DECAY_OFF), sync).run()
    return figures(plan.items, trace.answers, sizes)


def table(results: dict[str, dict[str, Any]]) -> str:
    rows = (("questions about a fact", "questions"), ("memories injected", "injected"),
            ("precision: injected memories holding the true value", "precision"),
            ("injected memories naming the subject", "about_the_subject"),
            ("stale: holding only an earlier value", "stale"),
            ("questions whose true memory was injected", "recalled"),
            ("questions with nothing injected", "nothing_injected"),
            ("memories per prompt", "memories_per_prompt"),
            ("chatter probes with anything injected", "chatter_probes_with_anything"),
            ("characters per prompt, median", "chars_p50"),
            ("characters per prompt, p95", "chars_p95"))  # fmt: skip
    names = list(results)
    lines = [f"| prompt hook over the year | {' | '.join('decay ' + n for n in names)} |",
             "|---|" + "---|" * len(names)]  # fmt: skip
    for label, key in rows:
        lines.append(f"| {label} | {' | '.join(str(results[n][key]) for n in names)} |")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--days", type=int, default=365)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--projects", type=int, default=4)
    parser.add_argument("--sync-from", type=int, default=120)
    parser.add_argument("--sync-to", type=int, default=240)
    parser.add_argument("--only", choices=("on", "off"), help="run one of the two")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    sync = range(args.sync_from, args.sync_to)
    results = {
        name: run(args.days, args.seed, args.projects, sync, name == "on")
        for name in ("on", "off")
        if args.only in (None, name)
    }
    print(json.dumps(results, indent=2) if args.json else table(results))
    return 0


if __name__ == "__main__":
    sys.exit(main())
