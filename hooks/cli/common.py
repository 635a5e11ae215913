"""What every `vault` command shares: the vault context (which asks the daemon or
works here, showing progress on a terminal), --now, --json and JSON output."""

from __future__ import annotations

import json
import os
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

import click

from hooks.cli.errors import CliError, from_daemon
from hooks.cli.progress import waiting
from vault.atomic import remove_orphan_temp_files
from vault.clock import Clock, fixed_clock, parse_time, utc_now
from vault.config import env_overrides, load_settings
from vault.errors import VaultError
from vault.layout import Vault
from vault.paths import resolve_vault_home

if TYPE_CHECKING:
    from memory.service import MemoryService

F = TypeVar("F", bound=Callable[..., Any])
WRITE_TIMEOUT = 600.0  # seconds the CLI waits for the daemon's answer (a sweep can be long)


@dataclass
class Context:
    vault_option: str | None

    @property
    def vault(self) -> Vault:
        """The vault, with the note folders its settings name. A broken setting is
        left to the command's own load of the settings to report (`vault doctor`
        lists it rather than failing on it)."""
        vault = Vault(resolve_vault_home(self.vault_option, os.environ))
        try:
            return vault.configured(load_settings(vault.config_path, os.environ))
        except VaultError:
            return vault

    def service(self, now: datetime | None = None) -> MemoryService:
        """A service in this process. It reads; it syncs the index before reading only
        when no daemon runs (a running daemon owns every index write)."""
        from hooks.client.client import daemon_pid
        from memory.service import MemoryService

        vault = self.vault
        settings = load_settings(vault.config_path, os.environ)
        clock: Clock = fixed_clock(now) if now else utc_now
        owned_elsewhere = vault.exists() and daemon_pid(vault.root) is not None
        service = MemoryService(
            vault, settings, clock=clock, auto_sync=not owned_elsewhere, share_index_work=True
        )
        service.require_vault()
        if not owned_elsewhere:  # else the daemon cleaned up when it started
            remove_orphan_temp_files(vault.root)
        return service

    def ask_daemon(
        self,
        op: str,
        args: dict[str, Any],
        now: datetime | None,
        timeout: float = WRITE_TIMEOUT,
        idempotent: bool = False,
    ) -> tuple[bool, Any]:
        """(True, result) when the vault's daemon answered; (False, None) when none runs.
        The VAULT_<KEY> variables this command sees travel with the request. A daemon
        that took the request but did not answer is an error: the work may still
        happen there, so it is never repeated here. Unless the request is
        `idempotent` (done at most once per its `request` id) and that daemon died:
        then (False, None), and asking again returns what it did, or does it."""
        from hooks.client import client

        vault = self.vault
        if not vault.exists():
            return False, None
        load_settings(vault.config_path, os.environ)  # a bad value fails here, as without one
        request = {**args, "now": now.isoformat() if now else None}
        overrides = env_overrides(os.environ)
        if overrides:  # the daemon applies them to this request only
            request["settings"] = overrides
        asked = client.daemon_pid(vault.root) if idempotent else None
        try:
            with waiting(f"vault {op.replace('_', ' ')}"):
                return True, client.request(vault.root, op, request, timeout=timeout)
        except client.DaemonSlow as exc:
            if idempotent and _daemon_gone(vault.root, asked):
                return False, None  # it died holding the request: ask again
            raise CliError(f"{exc}; it may still finish (see `vault daemon status`)") from None
        except client.DaemonUnavailable:
            return False, None
        except client.DaemonError as exc:
            raise from_daemon(str(exc), exc.kind) from None

    def call(
        self, op: str, args: dict[str, Any], now: datetime | None, idempotent: bool = False
    ) -> Any:
        """Ask the warm daemon when one runs (it owns every index write, and no model
        loads here), else do the same operation in this process. `idempotent`: the
        request carries a `request` id (see `ask_daemon`)."""
        from hooks.ops.table import dispatch

        answered, result = self.ask_daemon(op, args, now, idempotent=idempotent)
        if answered:
            return result
        if idempotent:  # a daemon started meanwhile owns the writes: it is asked first
            answered, result = self.ask_daemon(op, args, now)
            if answered:
                return result
        with waiting(f"vault {op.replace('_', ' ')}"):
            return dispatch(
                self.service(now), op, {**args, "now": now.isoformat() if now else None}
            )


def _daemon_gone(root: Path, pid: int | None, within: float = 5.0) -> bool:
    """Whether daemon `pid` is gone: its lock on the vault is free (let go when its
    files close, before a killed process is reaped) or another daemon runs."""
    import fcntl
    import os
    import time

    from hooks.client.client import daemon_pid
    from hooks.client.protocol import lock_path

    deadline = time.monotonic() + within
    while True:
        try:
            fd = os.open(lock_path(root), os.O_RDWR | os.O_CLOEXEC)
        except FileNotFoundError:
            return True
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            return True  # released when the descriptor closes, at once
        except BlockingIOError:
            if daemon_pid(root) not in (pid, None) or time.monotonic() > deadline:
                return daemon_pid(root) not in (pid, None)
        finally:
            os.close(fd)
        time.sleep(0.05)


def _parse_now(_: click.Context, __: click.Parameter, value: str | None) -> datetime | None:
    if not value:
        return None
    try:
        return parse_time(value)
    except ValueError:
        raise click.BadParameter(f"{value!r} is not an ISO 8601 time (2026-11-29T10:00Z)") from None


def now_option(command: F) -> F:
    return click.option(
        "--now",
        envvar="VAULT_NOW",
        callback=_parse_now,
        metavar="TIME",
        help="Pretend it is TIME (ISO 8601) to simulate the future; also VAULT_NOW.",
    )(command)


def json_option(command: F) -> F:
    return click.option("--json", "as_json", is_flag=True, help="Print JSON.")(command)


def emit(data: Any) -> None:
    click.echo(json.dumps(data, indent=2, ensure_ascii=False, default=str))


pass_context = click.make_pass_decorator(Context)
