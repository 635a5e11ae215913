"""`vault bench retrieval`: recall quality on LoCoMo-format data, measured by
memory/evaluation/retrieval.py (ranking) and memory/evaluation/hook_path.py (what the prompt hook
injects, with the hook's own recall and renderer); this module parses the
options and prints the tables."""

from __future__ import annotations

import os
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click

from hooks.cli.common import emit, json_option
from hooks.cli.errors import CliError
from hooks.cli.progress import progress_bar

if TYPE_CHECKING:
    from memory.evaluation.hook_path import HookPath


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
@click.option("--path", "path", type=click.Choice(["hook", "rank", "all"]), default="hook",
              show_default=True,
              help="hook: what the prompt hook injects, in each conversation's own vault and "
                   "in the others'; rank: R@5, R@10, MRR, nDCG@10 of recall.")  # fmt: skip
@click.option("--see-also/--no-see-also", default=True, show_default=True,
              help="Rank path: see-also memories (links, session) may join.")  # fmt: skip
@click.option(
    "--consolidate", is_flag=True, help="Consolidate each conversation's vault before asking."
)
@json_option
def retrieval(
    data: Path, mode: str, path: str, see_also: bool, consolidate: bool, as_json: bool
) -> None:
    """What recall finds on LoCoMo-format data, as the prompt hook injects it or ranked.

    Example: vault bench retrieval --data ../shared/bench/locomo-dev --path all
    """
    from memory.evaluation.retrieval import MODES, run

    modes = list(MODES) if mode == "all" else [mode]
    hook = _hook_path() if path in ("hook", "all") else None
    try:
        with progress_bar("Conversations") as progress:
            report = run(data, modes, os.environ, progress=progress, hook=hook,
                         rank=path in ("rank", "all"), see_also=see_also,
                         consolidate=consolidate)  # fmt: skip
    except ValueError as exc:  # a data folder that is not in the LoCoMo format
        raise CliError(str(exc)) from None
    emit(report) if as_json else click.echo(table(report))


def _hook_path() -> HookPath:
    """The prompt hook's own recall and rendering, on static knowledge (no decay)."""
    from hooks.claude_code.prompt_recall import injected, prompt_options, prompt_query
    from memory.evaluation.hook_path import HookPath
    from vault.config import load_settings

    max_chars = load_settings(None, os.environ).hook_context_chars
    return HookPath(prompt_options(None, decay=False), prompt_query,
                    partial(injected, max_chars=max_chars))  # fmt: skip


def table(report: dict[str, Any]) -> str:
    """The report as terminal tables: the hook path, then the ranking."""
    lines = [line for mode, hook in report.get("hook", {}).items() for line in _hook(mode, hook)]
    if report["results"]:
        lines += _ranking(report)
    return "\n".join(lines)


def _hook(mode: str, hook: dict[str, Any]) -> list[str]:
    own, foreign = hook["own"], hook["foreign"]
    lines = [
        f"hook path ({mode}): what the prompt hook injects, {own['questions']} questions",
        f"  own vault: injected-recall {own['injected_recall']:.3f}, precision "
        f"{own['injected_precision']:.3f}; {own['memories']:.2f} memories, "
        f"{own['chars']:.0f} characters per prompt; anything confident "
        f"{own['with_confident']:.3f} (precision {own['confident_precision']:.3f}), "
        f"anything at all {own['with_any']:.3f}",
        "  by category, injected-recall: "
        + ", ".join(f"{c} {v:.3f}" for c, v in own["by_category"].items()),
        f"  foreign vaults ({foreign['questions']} questions): anything confident "
        f"{foreign['with_confident']:.3f}, anything at all {foreign['with_any']:.3f}, "
        f"{foreign['memories']:.2f} memories per prompt",
        "  confident cosine -> own injected-recall, precision, confident, "
        "confident precision | foreign confident",
    ]
    for point in hook["curve"]:
        lines.append(
            f"  {point['confident_cosine']:5.2f} -> {point['injected_recall']:.3f}  "
            f"{point['injected_precision']:.3f}  {point['with_confident']:.3f}  "
            f"{point['confident_precision']:.3f} | {point['foreign_with_confident']:.3f}"
        )
    return lines


def _ranking(report: dict[str, Any]) -> list[str]:
    from memory.evaluation.retrieval import METRICS

    def cells(values: dict[str, Any]) -> str:
        return "  ".join(f"{values[m]:7.3f}" for m in METRICS)

    lines = [f"{'mode':8} {'decay':6} {'n':>4}  " + "  ".join(f"{m:>7}" for m in METRICS)]
    for result in report["results"]:
        decay = "on" if result["decay"] else "off"
        head = f"{result['mode']:8} {decay:6} {result['questions']:>4}  "
        lines.append(head + cells(result["overall"]))
        for category, values in result["by_category"].items():
            lines.append(f"  {category:12} {values['questions']:>4}  " + cells(values))
    if "consolidation" in report:
        done = ", ".join(f"{k} {v}" for k, v in report["consolidation"].items())
        lines.append(f"consolidated before asking: {done}")
    for mode, latency in report.get("latency_ms", {}).items():
        lines.append(
            f"recall latency per question ({mode}, warm, query embedding included): "
            f"p50 {latency['p50']} ms, p95 {latency['p95']} ms; "
            f"the query embedding alone p50 {latency['embedding_p50']} ms"
        )
    return lines
