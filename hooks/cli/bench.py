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
    from memory.service import MemoryService


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
    multiple=True,
    type=click.Path(exists=True, file_okay=False, path_type=Path),
    help="Folder with memories.jsonl and queries.jsonl (LoCoMo format); repeat it to "
    "report several sets side by side.",
)
@click.option("--split", type=click.Choice(["all", "tune", "held-out"]), default="all",
              show_default=True,
              help="Only the questions of one half (a set whose questions name one).")  # fmt: skip
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
    data: tuple[Path, ...], split: str, mode: str, path: str, see_also: bool,
    consolidate: bool, as_json: bool,
) -> None:  # fmt: skip
    """What recall finds on LoCoMo-format data, as the prompt hook injects it or ranked.

    Example: vault bench retrieval --data ../shared/bench/locomo-dev
    --data benchmarks/data/devmem --path all
    """
    from memory.evaluation.retrieval import MODES, run

    modes = list(MODES) if mode == "all" else [mode]
    hook = _hook_path() if path in ("hook", "all") else None
    reports: dict[str, dict[str, Any]] = {}
    try:
        for folder in data:
            with progress_bar(f"Conversations of {folder.name}") as progress:
                reports[folder.name] = run(folder, modes, os.environ, progress=progress,
                                           hook=hook, rank=path in ("rank", "all"),
                                           see_also=see_also, consolidate=consolidate,
                                           split=None if split == "all" else split)  # fmt: skip
    except ValueError as exc:  # a data folder that is not in the LoCoMo format
        raise CliError(str(exc)) from None
    if as_json:
        emit(reports[data[0].name] if len(data) == 1 else reports)
    else:
        click.echo("\n\n".join(f"== {name}\n{table(report)}" for name, report in reports.items()))


def _hook_path() -> HookPath:
    """The prompt hook's own recall and rendering, on static knowledge (no decay)."""
    from hooks.claude_code.prompt_recall import injected, prompt_options, prompt_query
    from memory.evaluation.hook_path import HookPath
    from vault.config import load_settings

    max_chars = load_settings(None, os.environ).hook_context_chars
    return HookPath(prompt_options(None, decay=False), prompt_query,
                    partial(injected, max_chars=max_chars), _briefing)  # fmt: skip


def _briefing(service: MemoryService, project: str | None) -> str:
    """SessionStart's briefing for a session in `project`, as the hook builds it."""
    from hooks.claude_code.briefing_extras import session_briefing
    from hooks.claude_code.context_text import CLAUDE_CODE_LIMIT

    limit = min(int(service.settings.hook_context_chars), CLAUDE_CODE_LIMIT)
    return session_briefing(service.vault, service.clock(), service.settings, project, limit)


def table(report: dict[str, Any]) -> str:
    """The report as terminal tables: the hook path, then the ranking."""
    lines = [line for mode, hook in report.get("hook", {}).items() for line in _hook(mode, hook)]
    if report["results"]:
        lines += _ranking(report)
    return "\n".join(lines)


def _cost(figures: dict[str, Any]) -> str:
    return (
        f"{figures['memories']:.2f} memories, characters mean {figures['chars']:.0f} / median "
        f"{figures['chars_p50']:.0f} / p95 {figures['chars_p95']:.0f} (~tokens median "
        f"{figures['tokens_p50']} / p95 {figures['tokens_p95']}); nothing injected "
        f"{figures['with_nothing']:.3f}"
    )


def _hook(mode: str, hook: dict[str, Any]) -> list[str]:
    own, foreign, absent = hook["own"], hook["foreign"], hook["absent"]
    lines = [
        f"hook path ({mode}): what the prompt hook injects, {own['questions']} questions",
        f"  own vault: injected-recall {own['injected_recall']:.3f}, precision "
        f"{own['injected_precision']:.3f}; anything confident "
        f"{own['with_confident']:.3f} (precision {own['confident_precision']:.3f}), "
        f"anything at all {own['with_any']:.3f}",
        f"    cost per prompt: {_cost(own)}",
        "  by category, injected-recall: "
        + ", ".join(f"{c} {v:.3f}" for c, v in own["by_category"].items()),
        f"  foreign vaults ({foreign['questions']} questions): anything confident "
        f"{foreign['with_confident']:.3f}, anything at all {foreign['with_any']:.3f}",
        f"    cost per prompt: {_cost(foreign)}",
    ]
    brief = hook["briefing"]
    lines.append(
        f"  SessionStart briefing ({brief['vaults']} vaults): characters median "
        f"{brief['chars_p50']:.0f} / p95 {brief['chars_p95']:.0f} (~tokens median "
        f"{brief['tokens_p50']} / p95 {brief['tokens_p95']})"
    )
    if absent["questions"]:
        lines += [
            f"  own vault, questions it holds nothing about ({absent['questions']}): anything "
            f"confident {absent['with_confident']:.3f}, anything at all {absent['with_any']:.3f}",
            f"    cost per prompt: {_cost(absent)}",
        ]
    lines.append(
        "  curve, one setting moved -> own injected-recall, precision, median characters | "
        "foreign confident, foreign anything"
    )
    for point in hook["curve"]:
        lines.append(
            f"  {point['setting']:>16} {point['value']:4.2f} -> {point['injected_recall']:.3f}  "
            f"{point['injected_precision']:.3f}  {point['chars_p50']:5.0f} | "
            f"{point['foreign_with_confident']:.3f}  {point['foreign_with_any']:.3f}"
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
