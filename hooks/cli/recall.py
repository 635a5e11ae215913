"""`vault recall`, `cold`, `revive`, `confirm` and `reinforce`: finding
memories (the archive too, and bringing one back), and strengthening the ones
that proved right."""

from __future__ import annotations

from datetime import datetime
from typing import Any

import click

from hooks.cli import render
from hooks.cli.common import Context, emit, json_option, now_option, pass_context
from memory.results import Associative, Hit


@click.command()
@click.argument("query")
@click.option("-n", "limit", default=5, show_default=True, type=click.IntRange(min=1),
              help="How many results.")  # fmt: skip
@click.option("--current-project", "boost_project", default=None, metavar="PROJECT",
              help="Current project: its memories are boosted (x1.3).")  # fmt: skip
@click.option("--topic-hint", default=None, help="Boost memories of this topic.")
@click.option("--exclude-topic", default=None, help="Leave out memories of this topic.")
@click.option("--kind", default=None, help="Only memories of this kind (decision, preference...).")
@click.option("--topic", default=None, help="Only memories of this topic.")
@click.option("--project", "project_filter", default=None, help="Only this project's memories.")
@click.option("-c", "--category", default=None,
              help="Only this category (set by category_rules in config.toml).")  # fmt: skip
@click.option("--no-decay", is_flag=True, help="Rank by similarity alone (strength ignored).")
@click.option("--vector-only", is_flag=True, help="Similarity = cosine alone.")
@click.option("--keyword-only", is_flag=True,
              help="Similarity = BM25 alone (a match only on nearby words is marked).")  # fmt: skip
@click.option("--associative", is_flag=True, help="Show confident and activated tiers apart.")
@click.option("--no-reinforce", is_flag=True, help="Look without strengthening what is found.")
@click.option("--explain", is_flag=True, help="Show how each score was made.")
@json_option
@now_option
@pass_context
def recall(context: Context, query: str, limit: int, boost_project: str | None,
           topic_hint: str | None, exclude_topic: str | None, kind: str | None,
           topic: str | None, project_filter: str | None, category: str | None,
           no_decay: bool, vector_only: bool,
           keyword_only: bool,
           associative: bool, no_reinforce: bool, explain: bool, as_json: bool,
           now: datetime | None) -> None:  # fmt: skip
    """Find memories by meaning and keywords, ranked by similarity x strength.

    Example: vault recall "how do we share test fixtures?" --kind preference --explain
    """
    if associative and no_decay:
        raise click.UsageError("--no-decay works with ordinary recall (the tiers need strength)")
    if vector_only and keyword_only:
        raise click.UsageError("--vector-only and --keyword-only exclude each other; give one")
    signal = "vector" if vector_only else "keyword" if keyword_only else "hybrid"
    args = {"query": query, "limit": limit, "project": boost_project, "topic_hint": topic_hint,
            "exclude_topic": exclude_topic, "reinforce": not no_reinforce, "kind": kind,
            "topic": topic, "project_filter": project_filter, "no_decay": no_decay,
            "signal": signal, "category": category}  # fmt: skip
    data = context.call("recall_associative" if associative else "recall", args, now)
    found = data if isinstance(data, list) else [h for tier in data.values() for h in tier]
    around = _around_only(context, query, found) if keyword_only else frozenset()
    if as_json:
        for hit in found if keyword_only else ():
            hit["own_words"] = hit["id"] not in around
        emit(data)
    elif associative:
        click.echo(render.associative(Associative.from_dict(data), explain, around))
    else:
        click.echo(render.hits([Hit.from_dict(h) for h in data], explain, around=around))


def _around_only(context: Context, query: str, found: list[dict[str, Any]]) -> frozenset[str]:
    """The keyword hits whose own words (text, tags) do not match the query: they
    matched through the words said around them in their session."""
    from indexer.catalog_reader import catalog_path, own_word_matches
    from indexer.keywords import match_expression

    ids = [str(hit["id"]) for hit in found]
    own = own_word_matches(catalog_path(context.vault.root), match_expression(query), ids)
    return frozenset(ids) - own


@click.command()
@click.argument("query")
@click.option("-n", "limit", default=5, show_default=True, type=click.IntRange(min=1),
              help="How many results.")  # fmt: skip
@click.option("--explain", is_flag=True, help="Show how each score was made.")
@json_option
@now_option
@pass_context
def cold(context: Context, query: str, limit: int, explain: bool, as_json: bool,
         now: datetime | None) -> None:  # fmt: skip
    """Search only the archive (needs a specific query: similarity >= cold_bar, 0.34 by default).

    Example: vault cold "pytest fixtures instead of setUp/tearDown"
    """
    data = context.call("recall_cold", {"query": query, "limit": limit}, now)
    if as_json:
        emit(data)
    else:
        found = [Hit.from_dict(h) for h in data]
        click.echo(render.hits(found, explain, "Nothing in the archive matched closely enough."))


@click.command()
@click.argument("memory_id", metavar="ID")
@json_option
@now_option
@pass_context
def confirm(context: Context, memory_id: str, as_json: bool, now: datetime | None) -> None:
    """Confirm a hedged ("might be related") memory: stability x2.5.

    Example: vault confirm 2026-11-02-pytest-fixtures-over-setup-7f3a
    """
    record = context.call("confirm", {"id": memory_id}, now)
    if as_json:
        emit(record)
        return
    click.echo(f"Confirmed {record['id']}: stability {record['stability']:.1f} days, "
               f"tier {record['tier']}")  # fmt: skip


@click.command()
@click.argument("memory_id", metavar="ID")
@json_option
@now_option
@pass_context
def reinforce(context: Context, memory_id: str, as_json: bool, now: datetime | None) -> None:
    """Strengthen a memory as a recall hit would: stability x1.5.

    Example: vault reinforce 2026-11-02-pytest-fixtures-over-setup-7f3a
    """
    record = context.call("reinforce", {"id": memory_id}, now)
    if as_json:
        emit(record)
        return
    click.echo(f"Reinforced {record['id']}: stability {record['stability']:.1f} days, "
               f"tier {record['tier']}")  # fmt: skip


@click.command()
@click.argument("memory_id", metavar="ID")
@json_option
@now_option
@pass_context
def revive(context: Context, memory_id: str, as_json: bool, now: datetime | None) -> None:
    """Move an archived memory back to memories/.

    Example: vault revive 2026-11-02-pytest-fixtures-over-setup-7f3a
    """
    record = context.call("revive", {"id": memory_id}, now)
    if as_json:
        emit(record)
        return
    click.echo(f"Revived {record['id']} -> {record['path']}")
