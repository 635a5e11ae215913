"""The `vault` command: a thin click layer over MemoryService. This module holds
the group (--vault, the error mapping) and registers the commands, one module
per theme; each command parses its arguments, calls one service method and
prints. Errors become one line and a distinct exit code (hooks/cli/errors.py).
"""

from __future__ import annotations

import os
from typing import Any

import click

from hooks.cli import (
    association,
    bench,
    ccl,
    claude_code,
    compaction,
    consolidation,
    demo,
    doctor,
    index,
    memories,
    notes,
    recall,
    servers,
    settings,
    sync,
    transfer,
    usage,
)
from hooks.cli.common import Context
from hooks.cli.errors import HANDLED, one_line_usage, to_cli_error

# macOS: Accelerate's own thread pool beside FAISS's and ONNX Runtime's can hang a
# process that forks; one thread for it, set before numpy loads (Linux: no effect).
os.environ.setdefault("VECLIB_MAXIMUM_THREADS", "1")


class VaultGroup(click.Group):
    """Turns library errors and click's own usage errors into one-line messages
    with their exit codes (a usage error never echoes a secret); a reader that
    closed the pipe (`| head`) ends the command quietly."""

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


COMMANDS: tuple[click.Command, ...] = (
    *(memories.init, memories.jot, memories.ingest, memories.show, memories.list_),
    *(memories.status, memories.prune, memories.forget, memories.purge),
    *(recall.recall, recall.cold, recall.revive, recall.confirm, recall.reinforce),
    index.reindex,
    *(association.links, association.graph, association.topics),
    *(consolidation.consolidate, consolidation.validate),
    *(claude_code.capture, claude_code.sweep, claude_code.install, claude_code.uninstall),
    *(servers.serve, servers.daemon, servers.mcp),
    bench.bench,
    demo.demo,
    doctor.doctor,
    *(sync.sync, sync.merge_driver),
    *(transfer.import_, transfer.export),
    *(notes.daily, notes.weekly, notes.monthly, notes.quarterly, notes.yearly, notes.periodic),
    notes.changelog,
    compaction.compaction,
    ccl.ccl,
    usage.access_stats,
    settings.config,
)
for command in COMMANDS:
    main.add_command(command)
