"""What every daemon operation shares: its arguments (JSON from the request),
the checks that read them, and the Reply it gives (a result now, work after)."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from memory.errors import RecallError
from memory.results import memory_dict
from memory.service import MemoryService

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
        raise RecallError(f"{key} must be a non-empty string")
    return value


def optional_text(args: Args, key: str, default: str = "") -> str:
    value = args.get(key)
    if value is None:
        return default
    if not isinstance(value, str):
        raise RecallError(f"{key} must be a string")
    return value


def texts_arg(args: Args, key: str) -> list[str]:
    value = args.get(key) or []
    if not isinstance(value, list) or not all(isinstance(item, str) for item in value):
        raise RecallError(f"{key} must be a list of strings")
    return [str(item) for item in value]


def shown(service: MemoryService, memory_id: str) -> dict[str, Any]:
    return memory_dict(*service.show(memory_id))
