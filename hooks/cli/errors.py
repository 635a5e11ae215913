"""One place that maps library errors to CLI exit codes and one-line messages.

Exit codes: 1 general, 2 usage (click), 3 vault invalid, 4 index missing or
stale, 5 daemon down.
"""

from __future__ import annotations

import click

from hooks.client.protocol import InvalidRequest, UnsafeSocketFolder, error_line
from indexer.errors import (
    CorruptIndexError,
    IndexBusyError,
    IndexerError,
    ModelUnavailableError,
)
from memory.errors import RecallError
from vault.errors import (
    BrokenFileError,
    ConcurrentEditError,
    InvalidIdError,
    MemoryNotFoundError,
    VaultError,
)
from vault.source_files import RefusedSourceError


class CliError(click.ClickException):
    exit_code = 1


class BadArgument(CliError):
    """A bad id or a path we refuse to read: the person's input, so a usage error."""

    exit_code = 2


class VaultInvalid(CliError):
    exit_code = 3


class IndexUnavailable(CliError):
    exit_code = 4


class DaemonDown(CliError):
    exit_code = 5


def one_line_usage(exc: click.UsageError) -> click.UsageError:
    """click's usage error as one line: the message and where help is (click
    prints the usage, a hint and a blank line before it: four lines)."""
    if exc.ctx is None:
        return exc
    where = f" (see `{exc.ctx.command_path} --help`)"
    return click.UsageError(exc.format_message() + where, ctx=None)


def to_cli_error(exc: Exception) -> click.ClickException:
    message = error_line(exc)
    if isinstance(exc, UnsafeSocketFolder):
        return DaemonDown(message)
    if isinstance(exc, (InvalidIdError, RefusedSourceError)):
        return BadArgument(message)
    if isinstance(exc, (MemoryNotFoundError, RecallError, InvalidRequest)):
        return CliError(message)
    if isinstance(exc, (BrokenFileError, VaultError)):
        return VaultInvalid(message)
    if isinstance(exc, (ModelUnavailableError, IndexerError)):
        return IndexUnavailable(message)
    return CliError(message)


HANDLED = (VaultError, IndexerError, RecallError, InvalidRequest, OSError)

# The errors the daemon reports by class name (its replies' `kind`).
_DAEMON_KINDS: dict[str, type[Exception]] = {
    kind.__name__: kind
    for kind in (
        InvalidIdError, MemoryNotFoundError, BrokenFileError, ConcurrentEditError, VaultError,
        RecallError, InvalidRequest, IndexerError, CorruptIndexError, IndexBusyError,
        ModelUnavailableError,
    )
}  # fmt: skip


def from_daemon(message: str, kind: str) -> click.ClickException:
    """An error the daemon reported, with the exit code it has when raised here."""
    error_class = _DAEMON_KINDS.get(kind)
    if error_class is None:
        return CliError(message)
    return type(to_cli_error(error_class.__new__(error_class)))(message)
