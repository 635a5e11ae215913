"""A year in one developer's life, through the real hook paths, with decay on
(shipped defaults) and off (every memory evergreen: the ceiling).

    HF_HUB_OFFLINE=1 nice .venv/bin/python -m benchmarks.year_bench [--days 365]
        [--seed 7] [--projects 4] [--sync-from 120 --sync-to 240] [--json] [--stale]

The plan (benchmarks/year_plan.py, wording in data/year_world.json) holds durable
statements of every kind, restatements, changes of mind, same-attribute facts of
different subjects, chatter, and questions in other words at delays from a day
to a year; benchmarks/year_run.py drives it (hook events through the daemon's
operations in-process, at the simulated clock); benchmarks/year_score.py scores.
Prints, by age of the statement, the share of questions whose still-true memory
the prompt hook injected, stale memories injected, and the other targets.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
from pathlib import Path
from typing import Any

from benchmarks.year_plan import make_plan
from benchmarks.year_run import YearRun
from benchmarks.year_score import BUCKETS, chatter_list, stale_list, summary

# Decay off: every memory is evergreen (strength 1, never pruned); the rest as shipped.
DECAY_OFF = {"VAULT_EVERGREEN_PATHS": "memories/**"}


def run_year(
    days: int,
    seed: int,
    projects: int,
    sync: range,
    decay: bool,
    keep: Path | None = None,
    list_stale: bool = False,
) -> dict[str, Any]:
    plan = make_plan(days, seed, projects)
    env = {} if decay else dict(DECAY_OFF)
    with tempfile.TemporaryDirectory(prefix="vault-year-") as tmp:
        root = keep or Path(tmp)
        runner = YearRun(plan, root, env, sync)

        def progress(day: int) -> None:
            if day % 30 == 0:
                print(f"  decay={'on' if decay else 'off'} day {day}", file=sys.stderr)

        trace = runner.run(progress)
        result = summary(plan, trace, runner.machines[0].vault)
        if list_stale:
            vaults = [machine.vault for machine in runner.machines]
            result["stale_list"] = stale_list(plan, trace, vaults)
            result["chatter_list"] = chatter_list(plan, trace, vaults)
        return result


def table(on: dict[str, Any], off: dict[str, Any]) -> str:
    lines = [
        "| age of the statement | questions | recalled, decay on | decay off (ceiling) "
        "| on / off | stale injected (on) |",
        "|---|---|---|---|---|---|",
    ]
    for _, label in BUCKETS:
        row, ceiling = on["by_age"][label], off["by_age"][label]
        if not row["asked"]:
            continue
        ratio = (row["recalled"] / ceiling["recalled"]) if ceiling["recalled"] else None
        lines.append(
            f"| {label} | {row['asked']} | {row['recalled']} ({row['recall']:.0%}) "
            f"| {ceiling['recalled']} ({ceiling['recall']:.0%}) "
            f"| {'-' if ratio is None else f'{ratio:.2f}'} | {row['stale']} |"
        )
    lines.append("")
    for name, result in (("decay on", on), ("decay off", off)):
        chatter = result["chatter_after_month"]
        lines.append(
            f"- {name}: stale share of injected memories {result['stale_share']:.1%}; "
            f"chatter injected after a month {chatter['injected']}/{chatter['asked']}; "
            f"true facts retired {_retired(result['retired'])}; "
            f"never captured {len(result['never_captured'])}; "
            f"active by quarter {result['active_by_quarter']}; "
            f"hook p50 by quarter (ms) {result['hook_p50_ms_by_quarter']}; "
            f"{result['questions']} questions, {result['sessions']} sessions, "
            f"{result['syncs']} syncs, {result['seconds']} s"
        )
    return "\n".join(lines)


def _retired(lost: dict[str, list[str]]) -> str:
    if not lost:
        return "0"
    return "; ".join(
        f"{reason} {len(items)} ({', '.join(items)})" for reason, items in lost.items()
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--days", type=int, default=365)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--projects", type=int, default=4)
    parser.add_argument("--sync-from", type=int, default=120)
    parser.add_argument("--sync-to", type=int, default=240)
    parser.add_argument("--only", choices=("on", "off"), help="run one of the two")
    parser.add_argument("--json", action="store_true")
    parser.add_argument(
        "--stale", action="store_true", help="list every stale and late chatter injection (JSON)"
    )
    args = parser.parse_args(argv)
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    sync = range(args.sync_from, args.sync_to)
    results = {}
    for name in ("on", "off"):
        if args.only in (None, name):
            results[name] = run_year(
                args.days, args.seed, args.projects, sync, name == "on", list_stale=args.stale
            )
    if args.json or args.stale or len(results) < 2:
        print(json.dumps(results, indent=2))
    else:
        print(table(results["on"], results["off"]))
    return 0


if __name__ == "__main__":
    sys.exit(main())
