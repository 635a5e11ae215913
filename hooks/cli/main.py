"""The `vault` command: a thin click layer over MemoryService. This module holds
the group (--vault, the error mapping) and registers the commands, one module
per theme; each command parses its arguments, calls one service method and
prints. Errors become one line and a distinct exit code (hooks/cli/errors.py).
"""

from __future__ import annotations

import importlib
import os
from typing import Any

import click

from hooks.cli.common import Context
from hooks.cli.errors import HANDLED, one_line_usage, to_cli_error

# macOS: Accelerate's own thread pool beside FAISS's and ONNX Runtime's can hang a
# process that forks; one thread for it, set before numpy loads (Linux: no effect).
os.environ.setdefault("VECLIB_MAXIMUM_THREADS", "1")


class VaultGroup(click.Group):
    """Turns library errors and click's own usage errors into one-line messages
    with their exit codes (a usage error never echoes a secret); a reader that
    closed the pipe (`| head`) ends the command quietly."""

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted(COMMANDS)

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        where = COMMANDS.get(cmd_name)
        if where is None:
            return None
        module, attribute = where
        command = getattr(importlib.import_module(f"hooks.cli.{module}"), attribute)
        assert isinstance(command, click.Command)
        return command

    def make_context(
        self, info_name: str | None, args: list[str], parent: click.Context | None = None,
        **extra: Any,
    ) -> click.Context:  # fmt: skip
        try:
            return super().make_context(info_name, args, parent, **extra)
        except click.UsageError as exc:
            raise one_line_usage(without_secrets(exc)) from None

    def invoke(self, ctx: click.Context) -> Any:
        try:
            return super().invoke(ctx)
        except click.UsageError as exc:
            raise one_line_usage(without_secrets(exc)) from None
        except BrokenPipeError:
            raise  # click's main exits quietly on EPIPE
        except HANDLED as exc:
            raise to_cli_error(exc) from exc


def without_secrets(error: click.UsageError) -> click.UsageError:
    """A usage error that never echoes a secret given where an option was
    expected (`vault jot "-----BEGIN RSA PRIVATE KEY-----..."`): its message
    redacted, with the way to give such text."""
    from memory.encode.redact import redact

    message = redact(error.format_message())
    if isinstance(error, click.NoSuchOption) and any(c.isspace() for c in error.option_name):
        command = error.ctx.command_path if error.ctx else "vault jot"
        message = (
            f"{message.rstrip('.')}; text that starts with '-' goes after --: {command} -- TEXT"
        )
    return click.UsageError(message, error.ctx)


@click.group(cls=VaultGroup)
@click.option(
    "--vault",
    "vault_option",
    metavar="DIR",
    help="Vault folder (default: $VAULT_HOME, the user config, ~/.local/share/memory-vault/vault).",
)
@click.version_option(package_name="memory-vault")
@click.pass_context
def main(ctx: click.Context, vault_option: str | None) -> None:
    """memory-vault: long-term memory for Claude Code, kept as Markdown files.

    Example: vault init && vault jot "prefer pytest fixtures" && vault recall "fixtures"
    """
    ctx.obj = Context(vault_option)


# Each command's module is imported when the command runs (or `--help` lists it):
# a `vault init` or a call the daemon answers does not load the rest of the CLI.
# tests/hooks/cli/test_cli.py checks that this table names every command.
COMMANDS: dict[str, tuple[str, str]] = {
    **{name: ("memories", name) for name in ("init", "jot", "ingest", "show", "status")},
    **{name: ("memories", name) for name in ("prune", "forget", "purge")},
    "list": ("memories", "list_"),
    **{name: ("recall", name) for name in ("recall", "cold", "revive", "confirm", "reinforce")},
    "reindex": ("index", "reindex"),
    **{name: ("association", name) for name in ("links", "graph", "topics")},
    **{name: ("consolidation", name) for name in ("consolidate", "validate")},
    **{name: ("claude_code", name) for name in ("capture", "sweep", "install", "uninstall")},
    **{name: ("servers", name) for name in ("serve", "daemon", "mcp")},
    **{name: (name, name) for name in ("bench", "demo", "doctor", "sync", "compaction", "ccl")},
    "merge-driver": ("sync", "merge_driver"),
    "import": ("transfer", "import_"),
    "export": ("transfer", "export"),
    **{name: ("notes", name) for name in ("daily", "weekly", "monthly", "quarterly")},
    **{name: ("notes", name) for name in ("yearly", "periodic", "changelog")},
    "access-stats": ("usage", "access_stats"),
    "config": ("settings", "config"),
}
