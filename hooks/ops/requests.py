"""What every daemon operation shares: its arguments (JSON from the request),
the checks that read them, the settings a request carries, and the Reply it
gives (a result now, work after)."""

from __future__ import annotations

import logging
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from hooks.client.protocol import InvalidRequest
from memory.results import memory_dict
from memory.service import MemoryService
from vault.config import BY_KEY
from vault.errors import VaultError

log = logging.getLogger("memory_vault.daemon")

Args = Mapping[str, object]
Json = Any  # what json.dumps takes: dicts, lists, strings, numbers
Step = Callable[[], object]


@dataclass(frozen=True)
class Reply:
    """A result to send now and work to do after it is sent, in steps: the daemon
    lets waiting requests in between steps, so a long sweep never holds up a prompt.
    `idle_steps` is housekeeping the daemon leaves until nobody has asked anything
    for a while (the daily maintenance: its topic refit alone took 7 s here)."""

    result: Json
    steps: tuple[Step, ...] = ()
    idle_steps: tuple[Step, ...] = ()


def text_arg(args: Args, key: str) -> str:
    value = args.get(key)
    if not isinstance(value, str) or not value.strip():
        raise InvalidRequest(f"{key} must be a non-empty string")
    return value


def optional_text(args: Args, key: str, default: str = "") -> str:
    value = args.get(key)
    if value is None:
        return default
    if not isinstance(value, str):
        raise InvalidRequest(f"{key} must be a string")
    return value


def texts_arg(args: Args, key: str) -> list[str]:
    value = args.get(key) or []
    if not isinstance(value, list) or not all(isinstance(item, str) for item in value):
        raise InvalidRequest(f"{key} must be a list of strings")
    return [str(item) for item in value]


def with_request_settings(service: MemoryService, args: Args, strict: bool) -> MemoryService:
    """The service with the request's own settings: `settings` holds the VAULT_<KEY>
    variables its sender saw (key -> text), applied for this request only and
    checked as the environment's are. A setting read once when the daemon starts
    (the model, the index weights) cannot follow a request: a different value is
    refused (`strict`, the CLI's requests) or left out and logged (a hook's, which
    must never fail)."""
    overrides = args.get("settings")
    if not overrides:
        return service
    if not isinstance(overrides, dict):
        raise InvalidRequest("settings must be an object of VAULT_<KEY> texts")
    settings = service.settings.with_overrides(overrides)
    fixed = [key for key in overrides if not BY_KEY[key].per_call
             and settings.value(key) != service.settings.value(key)]  # fmt: skip
    if fixed and strict:
        key = fixed[0]
        raise VaultError(
            f"VAULT_{key.upper()}: {key} is read when the daemon starts and it runs with "
            f"{service.settings.value(key)!r}; stop it (`vault daemon stop`) or unset the variable"
        )
    if fixed:
        log.info("left out settings a request cannot change: %s", ", ".join(fixed))
        settings = service.settings.with_overrides(
            {key: text for key, text in overrides.items() if key not in fixed}
        )
    return service.with_settings(settings)


def shown(service: MemoryService, memory_id: str) -> dict[str, Any]:
    return memory_dict(*service.show(memory_id))
