"""`vault import` (Claude Code's memory and CLAUDE.md files, claude-engram,
claude-memory-hx, JSONL) and `vault export --jsonl`: memories in from other
systems and out again, so nothing is locked in."""

from __future__ import annotations

import os
import sys
from dataclasses import dataclass, field
from datetime import datetime, tzinfo
from pathlib import Path

import click

from hooks.cli.common import Context, emit, json_option, now_option, pass_context
from hooks.cli.errors import CliError
from memory.importers.core import Found, Importer
from memory.importers.files import ImportSourceError

EXISTING_FILE = click.Path(exists=True, dir_okay=False, path_type=Path)
EXISTING_DIR = click.Path(exists=True, file_okay=False, path_type=Path)


@dataclass
class Sources:
    jsonl: Path | None = None
    claude_code: bool = False
    claude_md: tuple[Path, ...] = ()
    engram: Path | None = None
    hx: Path | None = None
    project_dirs: tuple[Path, ...] = ()
    zone: str = ""
    found: Found = field(default_factory=Found)

    def collect(self) -> None:
        """Every source's items; a source that cannot be read at all (its file or
        folder refused, its config broken) stops the run with one line."""
        try:
            self._collect()
        except ImportSourceError as exc:
            raise CliError(str(exc)) from None

    def _collect(self) -> None:
        from hooks.claude_code import memory_import
        from hooks.claude_code.config_dir import claude_dir
        from memory.importers import engram, hx, jsonl
        from memory.importers.files import read_text

        if self.jsonl is not None:
            items, errors = jsonl.read_lines(read_text(self.jsonl), _project_of)
            self.found.add(Found(items, errors=errors))
        if self.claude_code:
            folder = claude_dir(os.environ)
            self.found.add(memory_import.auto_memory_items(folder, _project_of_path))
            if (folder / "CLAUDE.md").exists():
                self._claude_md(folder / "CLAUDE.md", "", folder)
        for path in self.claude_md:
            self._claude_md(path.absolute(), _project_of(path), None)
        if self.engram is not None:
            self.found.add(engram.read_engram(self.engram, self.project_dirs, _project_of_path))
        if self.hx is not None:
            self.found.add(hx.read_hx(self.hx, _zone(self.zone)))

    def _claude_md(self, path: Path, project: str, folder: Path | None) -> None:
        from hooks.claude_code import memory_import

        try:
            self.found.items += memory_import.claude_md_items(path, project, folder)
        except ImportSourceError as exc:
            self.found.errors.append(str(exc))


def _project_of_path(path: Path) -> str:
    from hooks.claude_code.project import project_identity

    return project_identity(path) or ""


def _project_of(path: str | Path) -> str:
    """A project given as a folder becomes its identity (git remote, or repo path)."""
    folder = Path(path).absolute()
    folder = folder if folder.is_dir() else folder.parent
    return _project_of_path(folder) or f"path:{folder}"


def _zone(name: str) -> tzinfo:
    if not name:
        local = datetime.now().astimezone().tzinfo
        assert local is not None
        return local
    from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

    try:
        return ZoneInfo(name)
    except (ZoneInfoNotFoundError, ValueError):
        raise click.BadParameter(f"{name!r} is not a time zone (Europe/Berlin, UTC)") from None


@click.command(name="import")
@click.option("--jsonl", type=EXISTING_FILE, help='JSONL: one {"text": ...} object per line.')
@click.option(
    "--claude-code",
    is_flag=True,
    help="Claude Code's auto memory (every project) and its user CLAUDE.md.",
)
@click.option(
    "--claude-md",
    multiple=True,
    type=EXISTING_FILE,
    help="A CLAUDE.md file, one memory per section (repeatable).",
)
@click.option(
    "--engram",
    type=click.Path(exists=True, path_type=Path),
    help="claude-engram: its data folder, a bank file or a backup.",
)
@click.option("--hx", type=EXISTING_DIR, help="claude-memory-hx: its folder (config.json, data/).")
@click.option(
    "--project-dir",
    multiple=True,
    type=EXISTING_DIR,
    help="engram: project folders its project banks belong to (repeatable).",
)
@click.option("--tz", "zone", default="", help="hx: time zone of its logs (default: local).")
@click.option("--strict", is_flag=True, help="JSONL: import nothing if any line is invalid.")
@click.option("--dry-run", is_flag=True, help="Report what would happen; write nothing.")
@json_option
@now_option
@pass_context
def import_(context: Context, jsonl: Path | None, claude_code: bool, claude_md: tuple[Path, ...],
            engram: Path | None, hx: Path | None, project_dir: tuple[Path, ...], zone: str,
            strict: bool, dry_run: bool, as_json: bool, now: datetime | None) -> None:  # fmt: skip
    """Import memories from other systems; a second run changes nothing.

    Example: vault import --claude-code && vault import --jsonl notes.jsonl --dry-run
    """
    sources = Sources(jsonl, claude_code, claude_md, engram, hx, project_dir, zone)
    if not (jsonl or claude_code or claude_md or engram or hx):
        raise click.UsageError("name a source: --jsonl, --claude-code, --claude-md, --engram, --hx")
    sources.collect()
    found = sources.found
    if strict and found.errors:
        raise CliError(f"{found.errors[0]} ({len(found.errors)} invalid; nothing imported)")
    service = context.service(now)
    report = Importer(service.vault, service.config, service.clock).run(found.items, dry_run)
    report.errors[:0] = found.errors
    index = (
        "" if dry_run or not (report.created or report.updated) else context.call("sync", {}, now)
    )
    if as_json:
        emit({**report.to_dict(), "notes": found.notes, "index": index, "dry_run": dry_run})
    else:
        click.echo(("Would import: " if dry_run else "Imported: ") + report.summary())
        for line in found.notes:
            click.echo(f"note: {line}", err=True)
        for line in report.errors:
            click.echo(f"error: {line}", err=True)
    if report.errors:
        raise click.exceptions.Exit(1)


@click.command()
@click.option("--jsonl", "as_jsonl", is_flag=True, required=True, help="JSON Lines (the format).")
@click.option("-o", "--output", type=click.Path(dir_okay=False, path_type=Path),
              help="File to write (default: standard output).")  # fmt: skip
@pass_context
def export(context: Context, as_jsonl: bool, output: Path | None) -> None:
    """Export every memory, archive included, as JSONL (`vault import --jsonl` reads it back).

    Example: vault export --jsonl -o memories.jsonl
    """
    from memory.importers.jsonl import export_lines
    from vault.atomic import atomic_write

    vault = context.service().vault
    problems: list[str] = []
    lines = list(export_lines(vault, problems))
    data = "".join(line + "\n" for line in lines)
    if output is None:
        sys.stdout.write(data)
    else:
        atomic_write(output, data.encode("utf-8"))
        click.echo(f"Exported {len(lines)} memories to {output}", err=True)
    for problem in problems:
        click.echo(f"warning: left out {problem}", err=True)
