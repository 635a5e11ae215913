"""`vault reindex`: bring the derived index in line with the files. When a daemon
runs, it does the work (it owns every index write); otherwise this process does,
under the index lock."""

from __future__ import annotations

from typing import TYPE_CHECKING

import click

from hooks.cli.common import Context, emit, json_option, pass_context
from hooks.cli.progress import progress_bar

if TYPE_CHECKING:
    from indexer.sync import SyncReport

REINDEX_TIMEOUT = 24 * 3600.0  # a rebuild of a large vault takes minutes; wait for it


@click.command()
@click.option(
    "--full",
    is_flag=True,
    help="Re-embed every file into a fresh index (an interrupted one resumes).",
)
@click.option("--check", is_flag=True, help="Print what would change; change nothing.")
@click.option("--stats", is_flag=True, help="Print counts, sizes and the model.")
@json_option
@pass_context
def reindex(context: Context, full: bool, check: bool, stats: bool, as_json: bool) -> None:
    """Bring the index in line with the files (delta sync by default).

    Example: vault reindex --full --stats --json
    """
    from hooks.ops.table import reindexed

    if check:
        index = context.service().index  # reads the published index; writes nothing
        report = index.check()
        if as_json:
            emit({"check": True, "summary": report.summary(), **_counts(report)})
        else:
            click.echo(f"Would change: {report.summary()}")
        for notice in index.events.notices:
            click.echo(f"warning: {notice}", err=True)
        return
    answered, result = context.ask_daemon("reindex", {"full": full}, None, REINDEX_TIMEOUT)
    if not answered:
        service = context.service()
        with progress_bar("Embedding") as progress:
            report = (
                service.rebuild(progress)
                if full
                else service.on_files_changed(None, True, progress)
            )
        events = service.index.events
        result = reindexed(report, full, events.notices, events.resumed if full else 0)
    for notice in result["notices"]:
        click.echo(f"warning: {notice}", err=True)
    counts = context.service().index.stats() if stats else {}
    if as_json:
        emit({**result, **({"stats": counts} if stats else {})})
        return
    click.echo(f"{'Rebuilt' if full else 'Synced'}: {result['summary']}")
    if result.get("resumed"):
        click.echo(f"Resumed: {result['resumed']} texts embedded before the interruption were kept")
    for path, reason in result["problems"]:
        click.echo(f"warning: {path}: {reason}", err=True)
    for key, value in counts.items():
        click.echo(f"  {key}: {value}")


def _counts(report: SyncReport) -> dict[str, int]:
    """The would-be changes by kind, as numbers (the JSON of --check)."""
    kinds = ("added", "reembedded", "metadata", "moved", "removed", "documents")
    return {name: len(getattr(report, name)) for name in kinds}
