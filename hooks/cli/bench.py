"""`vault bench retrieval`: recall quality on LoCoMo-format data, measured by
memory/retrieval_eval.py; this module parses the options and prints the table."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import click

from hooks.cli.common import emit, json_option, progress_bar
from hooks.cli.errors import CliError


@click.group()
def bench() -> None:
    """Measure memory-vault on your own or public data.

    Example: vault bench retrieval --data ../shared/bench/locomo-dev
    """


@bench.command()
@click.option(
    "--data",
    "data",
    required=True,
    type=click.Path(exists=True, file_okay=False, path_type=Path),
    help="Folder with memories.jsonl and queries.jsonl (LoCoMo format).",
)
@click.option("--mode", type=click.Choice(["hybrid", "vector", "keyword", "all"]), default="hybrid",
              show_default=True, help="Similarity used for ranking.")  # fmt: skip
@click.option(
    "--consolidate", is_flag=True, help="Consolidate each conversation's vault before asking."
)
@json_option
def retrieval(data: Path, mode: str, consolidate: bool, as_json: bool) -> None:
    """R@5, R@10, MRR and nDCG@10 of recall, with and without decay.

    Example: vault bench retrieval --data ../shared/bench/locomo-dev --mode all
    """
    from memory.retrieval_eval import MODES, run

    modes = list(MODES) if mode == "all" else [mode]
    try:
        with progress_bar("Conversations") as progress:
            report = run(data, modes, os.environ, progress=progress, consolidate=consolidate)
    except ValueError as exc:  # a data folder that is not in the LoCoMo format
        raise CliError(str(exc)) from None
    emit(report) if as_json else click.echo(table(report))


def table(report: dict[str, Any]) -> str:
    """The report as a terminal table, overall and per category."""
    from memory.retrieval_eval import METRICS

    def cells(values: dict[str, Any]) -> str:
        return "  ".join(f"{values[m]:7.3f}" for m in METRICS)

    lines = [f"{'mode':8} {'decay':6} {'n':>4}  " + "  ".join(f"{m:>7}" for m in METRICS)]
    for result in report["results"]:
        decay = "on" if result["decay"] else "off"
        head = f"{result['mode']:8} {decay:6} {result['questions']:>4}  "
        lines.append(head + cells(result["overall"]))
        for category, values in result["by_category"].items():
            lines.append(f"  {category:12} {values['questions']:>4}  " + cells(values))
    for mode, values in report.get("tiers", {}).items():
        lines.append(
            f"tiers ({mode}, strength 1): questions with a confident memory "
            f"{values['with_confident']:.3f}; "
            f"confident precision {values['confident_precision']:.3f} "
            f"(top one {values['confident_top1_precision']:.3f}); evidence in the confident tier "
            f"{values['evidence_confident']:.3f}, activated {values['evidence_activated']:.3f}, "
            f"neither {values['evidence_in_no_tier']:.3f}"
        )
    if "consolidation" in report:
        done = ", ".join(f"{k} {v}" for k, v in report["consolidation"].items())
        lines.append(f"consolidated before asking: {done}")
    for mode, latency in report.get("latency_ms", {}).items():
        lines.append(
            f"recall latency per question ({mode}, warm, query embedding included): "
            f"p50 {latency['p50']} ms, p95 {latency['p95']} ms"
        )
    return "\n".join(lines)
