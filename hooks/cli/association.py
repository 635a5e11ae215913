"""`vault links`, `vault graph` and `vault topics`: association and filing."""

from __future__ import annotations

import json
from datetime import datetime
from pathlib import Path
from typing import Any

import click

from hooks.cli.common import Context, emit, json_option, now_option, pass_context
from hooks.cli.errors import CliError
from hooks.cli.progress import progress_bar
from indexer.catalog import ManifestRow
from memory.encode.associate import Edge


@click.command()
@click.argument("memory_id", required=False)
@click.option("--sweep", is_flag=True, help="Recompute the links of every memory.")
@click.option("--dry-run", is_flag=True, help="With --sweep: report what would change.")
@json_option
@now_option
@pass_context
def links(
    context: Context,
    memory_id: str | None,
    sweep: bool,
    dry_run: bool,
    as_json: bool,
    now: datetime | None,
) -> None:
    """A memory's links and backlinks, or recompute all links with --sweep.

    Example: vault links 2026-11-02-shared-fixtures-conftest-19ab
    """
    if sweep == bool(memory_id):
        raise CliError("give a memory id, or --sweep (not both)")
    if sweep:
        report = _swept(context, "sweep_links", dry_run, now)
        if as_json:
            emit(report)
            return
        verb = "Would change" if dry_run else "Changed"
        click.echo(
            f"{verb} the links of {report['changed']} of {report['memories']} memories; "
            f"{report['edges']} links in the vault."
        )
        for skipped in report["skipped"]:
            click.echo(f"  not updated (see `vault status`): {skipped}")
        return
    assert memory_id is not None
    outgoing, incoming = context.service(now).links(memory_id)
    described = {
        "links": [_describe(item) for item in outgoing],
        "backlinks": [_describe(row) for row in incoming],
    }
    if as_json:
        emit({"id": memory_id, **described})
        return
    for label, items in described.items():
        click.echo(f"{label.capitalize()} ({len(items)}):")
        for item in items:
            state = "missing" if item["missing"] else ("archived" if item["archived"] else "")
            click.echo(f"  {item['id']}{f'  ({state})' if state else ''}")


def _swept(context: Context, op: str, dry_run: bool, now: datetime | None) -> dict[str, Any]:
    """A links or topics sweep: by the daemon when one runs (it owns index writes),
    else in this process with a progress bar."""
    answered, result = context.ask_daemon(op, {"dry_run": dry_run}, now)
    if answered:
        return dict(result)
    service = context.service(now)
    linking = op == "sweep_links"
    with progress_bar("Linking" if linking else "Filing") as progress:
        sweep = service.sweep_links if linking else service.sweep_topics
        return {"dry_run": dry_run, **sweep(dry_run=dry_run, progress=progress).to_dict()}


def _describe(item: ManifestRow | str) -> dict[str, Any]:
    if isinstance(item, str):
        return {"id": item, "path": None, "archived": False, "missing": True}
    return {"id": item.id, "path": item.path, "archived": item.archived, "missing": False}


@click.command()
@click.option("--format", "fmt", type=click.Choice(["json", "dot"]), default="json",
              show_default=True, help="json (nodes and edges) or Graphviz dot.")  # fmt: skip
@click.option("--output", "-o", type=click.Path(dir_okay=False, path_type=Path), default=None,
              help="Write to this file instead of the terminal.")  # fmt: skip
@now_option
@pass_context
def graph(context: Context, fmt: str, output: Path | None, now: datetime | None) -> None:
    """Export the link graph (Obsidian's graph view shows the same edges).

    Example: vault graph --format dot -o vault.dot && dot -Tsvg vault.dot > vault.svg
    """
    rows, edges = context.service(now).graph()
    if fmt == "json":
        text = json.dumps(
            {
                "nodes": [
                    {
                        "id": r.id,
                        "path": r.path,
                        "tier": r.tier,
                        "topic": r.topic,
                        "project": r.project,
                        "archived": r.archived,
                    }  # fmt: skip
                    for r in rows
                ],
                "edges": [
                    {"source": e.source, "target": e.target, "mutual": e.mutual} for e in edges
                ],
            },
            indent=2,
        )
    else:
        text = _dot(rows, edges)
    if output is None:
        click.echo(text)
    else:
        output.write_text(text + "\n", encoding="utf-8")
        click.echo(f"Wrote {len(rows)} memories and {len(edges)} links to {output}")


def _dot(rows: list[ManifestRow], edges: list[Edge]) -> str:
    def escaped(text: str) -> str:
        return text.replace("\\", "\\\\").replace('"', '\\"')

    def quote(text: str) -> str:
        return f'"{escaped(text)}"'

    lines = ["digraph vault {", "  node [shape=box, fontsize=10];"]
    for row in rows:
        style = ", style=dashed" if row.archived else ""
        # dot's own line break (\n) between the parts, which are escaped apart
        parts = [escaped(row.id), *([escaped(row.topic)] if row.topic else [])]
        label = '"' + "\\n".join(parts) + '"'
        lines.append(f"  {quote(row.id)} [label={label}{style}];")
    for edge in edges:
        arrow = " [dir=both]" if edge.mutual else ""
        lines.append(f"  {quote(edge.source)} -> {quote(edge.target)}{arrow};")
    lines.append("}")
    return "\n".join(lines)


@click.command()
@click.option("--sweep", is_flag=True, help="Reclassify auto-filed and unfiled memories.")
@click.option("--dry-run", is_flag=True, help="With --sweep: report what would change.")
@json_option
@now_option
@pass_context
def topics(
    context: Context, sweep: bool, dry_run: bool, as_json: bool, now: datetime | None
) -> None:
    """Topics with their memories: filed by you (labels) and by the classifier.

    Example: vault topics --sweep --dry-run
    """
    if sweep:
        report = _swept(context, "sweep_topics", dry_run, now)
        if as_json:
            emit(report)
            return
        verb = "Would refile" if dry_run else "Refiled"
        click.echo(f"{verb} {report['changed']} of {report['considered']} memories.")
        for memory_id, topic in sorted(report["filed"].items()):
            click.echo(f"  {memory_id} -> {topic or '(unfiled)'}")
        return
    counts = context.service(now).topics()
    if as_json:
        emit([{"topic": c.topic, "labelled": c.labelled, "auto": c.auto} for c in counts])
        return
    if not counts:
        click.echo("No memories.")
        return
    click.echo(f"{'topic':24} {'yours':>6} {'auto':>6}")
    for count in counts:
        click.echo(f"{count.topic or '(unfiled)':24} {count.labelled:>6} {count.auto:>6}")
