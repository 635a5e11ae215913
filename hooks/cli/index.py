"""`vault reindex`: bring the derived index in line with the files."""

from __future__ import annotations

import click

from hooks.cli.common import Context, pass_context, progress_bar


@click.command()
@click.option("--full", is_flag=True, help="Delete the index and rebuild it from the files.")
@click.option("--check", is_flag=True, help="Print what would change; change nothing.")
@click.option("--stats", is_flag=True, help="Print counts, sizes and the model.")
@pass_context
def reindex(context: Context, full: bool, check: bool, stats: bool) -> None:
    """Bring the index in line with the files (delta sync by default).

    Example: vault reindex --full
    """
    service = context.service()
    index = service.index
    if check:
        click.echo(f"Would change: {index.check().summary()}")
        return
    with progress_bar("Embedding") as progress:
        report = index.rebuild(progress=progress) if full else index.sync(progress=progress)
    for notice in index.events.notices:
        click.echo(f"warning: {notice}", err=True)
    click.echo(f"{'Rebuilt' if full else 'Synced'}: {report.summary()}")
    for path, reason in report.problems:
        click.echo(f"warning: {path}: {reason}", err=True)
    if stats:
        for key, value in index.stats().items():
            click.echo(f"  {key}: {value}")
