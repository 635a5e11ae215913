"""`vault access-stats`: per memory, the figures behind retrieval strengthening
(appearances in results within the window) and the consolidation bonus (the
periodic levels linking it), with evergreen and salience."""

from __future__ import annotations

from datetime import datetime

import click

from hooks.cli.common import Context, emit, json_option, now_option, pass_context


@click.command("access-stats")
@json_option
@now_option
@pass_context
def access_stats(context: Context, as_json: bool, now: datetime | None) -> None:
    """Show retrieval and consolidation figures per memory (largest boost first).

    Example: vault access-stats --json
    """
    rows = context.call("access_stats", {}, now)
    if as_json:
        emit(rows)
        return
    if not rows:
        click.echo("No memory has appeared in results, is linked from a periodic note, "
                   "or is evergreen yet.")  # fmt: skip
        return
    click.echo(f"{'boost':>6} {'seen':>4} {'total':>5}  {'periodic':<24} {'salience':>8}  id")
    for row in rows:
        boost = (1 + row["retrieval_boost"]) * (1 + row["consolidation_bonus"])
        levels = ",".join(row["periodic_levels"]) or "-"
        mark = " (evergreen)" if row["evergreen"] else ""
        click.echo(
            f"x{boost:<5.2f} {row['appearances_in_window']:>4} {row['appearances_total']:>5}  "
            f"{levels:<24} {row['salience']:>8.2f}  {row['id']}{mark}"
        )
