"""`vault demo`: a small vault on the real model, walked through the seed story.

Day 1 in project-a a preference is captured; day 19 in project-b a related
question brings it back hedged; the person confirms it; months later prune
archives what was never used and cold recall still finds it.
"""

from __future__ import annotations

import os
import tempfile
import textwrap
from collections.abc import Callable
from datetime import timedelta
from pathlib import Path

import click

from memory.recall.ranking import RecallOptions
from memory.results import Hit
from memory.service import MemoryService
from vault.clock import fixed_clock, parse_time
from vault.config import load_settings
from vault.layout import Vault

START = parse_time("2026-01-05T09:00:00Z")
STORY = (
    "let's always use pytest fixtures instead of setUp/tearDown for this codebase — tried "
    "unittest style on a past project and sharing fixtures across test files was a pain."
)
QUESTION = "should I use TestCase.setUp() here or something else?"
# (day, project, kind, text)
MEMORIES = (
    (1, "github.com/acme/project-a", "preference", STORY),
    (
        1,
        "github.com/acme/project-a",
        "decision",
        "We decided to deploy project-a with blue/green releases on Fly.io.",
    ),
    (
        2,
        "github.com/acme/project-a",
        "fact",
        "The staging database is refreshed from production every Sunday night.",
    ),
    (3, "", "preference", "Keep commit messages in the imperative mood, under 72 characters."),
    (
        5,
        "github.com/acme/billing",
        "decision",
        "Billing amounts are stored as integer cents, never floats.",
    ),
    (
        8,
        "github.com/acme/billing",
        "fact",
        "Stripe webhooks are verified with the signing secret from the vault.",
    ),
    (12, "", "preference", "Use ruff for both linting and formatting; black is no longer needed."),
    (
        16,
        "github.com/acme/project-b",
        "fact",
        "project-b targets Python 3.11 because of the Lambda runtime.",
    ),
)


Echo = Callable[[str], None]


@click.command()
@click.option("--dir", "folder", type=click.Path(file_okay=False, path_type=Path), default=None,
              help="Where to build the demo vault (default: a new temporary folder).")  # fmt: skip
def demo(folder: Path | None) -> None:
    """Build a small demo vault on the real model and walk through the recall tiers.

    Example: vault demo --dir /tmp/vault-demo
    """
    run_demo(folder, click.echo)


def run_demo(folder: Path | None, echo: Echo) -> Path:
    root = folder or Path(tempfile.mkdtemp(prefix="vault-demo-")) / "vault"
    vault = Vault(root)
    MemoryService.init_vault(vault)
    service = MemoryService(vault, load_settings(vault.config_path, os.environ))
    echo(f"Demo vault: {root}  (real model, real FAISS + FTS5 index)\n")
    story_id = _first_days(service, echo)
    _day_19(service, story_id, echo)
    kept = _every_day(service, echo)
    _months_later(service, kept, echo)
    return root


def _on_day(service: MemoryService, day: float) -> MemoryService:
    return service.at(fixed_clock(START + timedelta(days=day)))


def _first_days(service: MemoryService, echo: Echo) -> str:
    """Jot the memories on their days; the story is the first one."""
    story_id = ""
    for day, project, kind, text in MEMORIES:
        record = _on_day(service, day).jot(text, project=project, kind=kind, source="demo")
        story_id = story_id or record.id
        echo(f"day {day:>2}  jot  {record.id}")
    return story_id


def _day_19(service: MemoryService, story_id: str, echo: Echo) -> None:
    """Project-b's question brings the story back hedged; the person confirms it."""
    today = _on_day(service, 19)
    echo(f'\nDay 19, project-b asks: "{QUESTION}"')
    result = today.recall_associative(QUESTION, RecallOptions(project="github.com/acme/project-b"))
    for label, hits in (("confident", result.confident), ("might be related", result.activated)):
        echo(f"  {label}:")
        for hit in hits or []:
            echo(f"    {hit.id}  (strength {hit.strength:.2f}, similarity {hit.similarity:.2f})")
            echo(textwrap.indent(textwrap.fill(hit.text, 76), "      "))
        if not hits:
            echo("    (none)")
    before = today.show(story_id)[0].stability
    after = today.confirm_activation(story_id).stability
    echo(f'\nThe person says "yeah, still applies": stability {before:.1f} -> {after:.1f} days')


def _every_day(service: MemoryService, echo: Echo) -> list[Hit]:
    """One question asked daily: its answer is reinforced until it is semantic."""
    question = "which linter and formatter do we use?"
    echo(f'\nDays 20-25, "{question}" is asked every day:')
    for day in range(20, 26):
        for hit in _on_day(service, day).recall(question, RecallOptions(limit=1)):
            echo(f"    day {day}: {hit.id} -> stability {hit.stability:.1f} days, {hit.tier}")
    return _on_day(service, 25).recall(question, RecallOptions(limit=1, reinforce=False))


def _months_later(service: MemoryService, kept: list[Hit], echo: Echo) -> None:
    """Prune archives what nobody used; cold recall still finds it."""
    later = _on_day(service, 120)
    archived = later.prune()
    echo(
        f"\nDay 120, prune archives {len(archived)} memories nobody used (files kept in archive/):"
    )
    for item in archived:
        echo(f"    {item.id}")
    cold = later.recall_cold("integer cents for billing amounts instead of floats")
    echo("  cold recall 'integer cents for billing amounts instead of floats':")
    for hit in cold:
        echo(f"    {hit.id}  (similarity {hit.similarity:.2f})")
    for hit in kept:
        record, current = later.show(hit.id)
        echo(
            f"  kept: {record.id} ({record.tier}, strength {current:.2f} after 95 days of silence)"
        )
    status = later.status()
    echo(f"\nActive: {status.active}; archived: {status.archived}")
    root = later.vault.root
    echo(f"Browse the files: ls {root}/memories {root}/archive")
