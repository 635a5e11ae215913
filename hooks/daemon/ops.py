"""The daemon's operations: one function per request, each a thin call into
MemoryService returning JSON-ready data and, at times, work to do after the
reply. A request may carry `now` (ISO time) so hooks and the CLI can simulate
the future through the daemon too: the operation and its follow-up work run
on a view of the service at that clock (`MemoryService.at`).
"""

from __future__ import annotations

import os
from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace
from functools import partial
from pathlib import Path
from typing import Any

from hooks.daemon.protocol import ProtocolError
from indexer.errors import IndexerError
from memory.errors import RecallError
from memory.recall import RecallOptions
from memory.results import Associative, Hit, memory_dict
from memory.service import MemoryService
from vault.clock import fixed_clock, parse_time
from vault.errors import VaultError

Args = Mapping[str, object]
Json = Any  # what json.dumps takes: dicts, lists, strings, numbers
Step = Callable[[], object]
# The errors that mean "the request could not be done as asked" (bad input, an
# unknown id, a broken file, an unusable index). Anything else is a bug.
EXPECTED_ERRORS = (VaultError, IndexerError, RecallError, ProtocolError)


@dataclass(frozen=True)
class Reply:
    """A result to send now and work to do after it is sent, in steps: the daemon
    lets waiting requests in between steps, so a long sweep never holds up a prompt."""

    result: Json
    steps: tuple[Step, ...] = ()


def _text(args: Args, key: str) -> str:
    value = args.get(key)
    if not isinstance(value, str) or not value.strip():
        raise RecallError(f"{key} must be a non-empty string")
    return value


def _optional_text(args: Args, key: str, default: str = "") -> str:
    value = args.get(key)
    if value is None:
        return default
    if not isinstance(value, str):
        raise RecallError(f"{key} must be a string")
    return value


def _texts(args: Args, key: str) -> list[str]:
    value = args.get(key) or []
    if not isinstance(value, list) or not all(isinstance(item, str) for item in value):
        raise RecallError(f"{key} must be a list of strings")
    return [str(item) for item in value]


def _options(args: Args) -> RecallOptions:
    limit = args.get("limit", 5)
    if not isinstance(limit, int) or isinstance(limit, bool):
        raise RecallError("limit must be a whole number")
    return RecallOptions(
        limit=limit,
        project=_optional_text(args, "project") or None,
        topic_hint=_optional_text(args, "topic_hint") or None,
        exclude_topic=_optional_text(args, "exclude_topic") or None,
        reinforce=bool(args.get("reinforce", True)),
    )


def _at_request_clock(service: MemoryService, now: object) -> MemoryService:
    """The service as of the request's `now`; without one, the service's own clock."""
    if not now:
        return service
    try:
        return service.at(fixed_clock(parse_time(now)))
    except ValueError:
        raise RecallError(f"now: {now!r} is not an ISO 8601 time") from None


def _shown(service: MemoryService, memory_id: str) -> dict[str, Any]:
    return memory_dict(*service.show(memory_id))


def _promised(hit: Hit, reinforce: bool) -> Hit:
    return replace(hit, reinforced=True) if reinforce else hit


def _reinforce_later(service: MemoryService, hits: list[Hit], reinforce: bool) -> tuple[Step, ...]:
    """Reinforcement writes files (fsync): done after the reply, so a prompt never waits."""
    if not (reinforce and hits):
        return ()
    return (lambda: service.reinforce_hits(hits),)


# Recall ----------------------------------------------------------------------


def op_recall(service: MemoryService, args: Args) -> Reply:
    options = _options(args)
    hits = service.recall(_text(args, "query"), replace(options, reinforce=False))
    direct = [h for h in hits if not h.via]  # see-also hits are never reinforced
    result = [(h if h.via else _promised(h, options.reinforce)).to_dict() for h in hits]
    return Reply(result, _reinforce_later(service, direct, options.reinforce))


def op_recall_associative(service: MemoryService, args: Args) -> Reply:
    options = _options(args)
    found = service.recall_associative(_text(args, "query"), replace(options, reinforce=False))
    result = Associative(
        [_promised(h, options.reinforce) for h in found.confident],
        found.activated,
        found.see_also,
    )
    return Reply(result.to_dict(), _reinforce_later(service, found.confident, options.reinforce))


def op_prompt_event(service: MemoryService, args: Args) -> Reply:
    """The prompt hook's raw event, answered in the warm process with the exact
    line the hook prints (the hook only forwards stdin and prints this)."""
    from hooks.claude_code.project import project_identity
    from hooks.claude_code.prompt_answer import answer_prompt, event_fields
    from hooks.claude_code.prompt_recall import prompt_tiers

    fields = event_fields(args.get("event"))
    if fields is None:
        return Reply({"output": ""})
    prompt, session, cwd = fields
    confident: list[Hit] = []

    def recall() -> dict[str, Any]:
        found = prompt_tiers(service, prompt, project_identity(cwd) or None)
        confident.extend(found.confident)
        return Associative([_promised(h, True) for h in found.confident], found.activated).to_dict()

    def confirm(ids: list[str]) -> None:
        for memory_id in ids:
            try:
                service.confirm_activation(memory_id)
            except VaultError:
                continue  # purged or archived meanwhile

    max_chars = int(service.settings["hook_context_chars"])
    output = answer_prompt(service.vault.root, prompt, session, recall, confirm, max_chars)
    return Reply({"output": output}, _reinforce_later(service, confident, True))


def op_recall_cold(service: MemoryService, args: Args) -> Reply:
    hits = service.recall_cold(_text(args, "query"), _options(args).limit)
    return Reply([h.to_dict() for h in hits])


# One memory -------------------------------------------------------------------


def op_confirm(service: MemoryService, args: Args) -> Reply:
    return Reply(_shown(service, service.confirm_activation(_text(args, "id")).id))


def op_reinforce(service: MemoryService, args: Args) -> Reply:
    return Reply(_shown(service, service.reinforce(_text(args, "id")).id))


def op_jot(service: MemoryService, args: Args) -> Reply:
    record = service.jot(
        _text(args, "text"),
        topic=_optional_text(args, "topic"),
        tags=_texts(args, "tags"),
        project=_optional_text(args, "project"),
        session=_optional_text(args, "session"),
        kind=_optional_text(args, "kind", "fact"),
        source=_optional_text(args, "source", "jot"),
    )
    return Reply(_shown(service, record.id))


def op_ingest(service: MemoryService, args: Args) -> Reply:
    path = Path(_text(args, "path"))
    record = service.ingest(path, topic=_optional_text(args, "topic"))
    return Reply(_shown(service, record.id))


def op_forget(service: MemoryService, args: Args) -> Reply:
    return Reply(_shown(service, service.forget(_text(args, "id")).id))


def op_revive(service: MemoryService, args: Args) -> Reply:
    return Reply(_shown(service, service.revive_from_cold(_text(args, "id")).id))


def op_show(service: MemoryService, args: Args) -> Reply:
    return Reply(_shown(service, _text(args, "id")))


# The vault --------------------------------------------------------------------


def op_prune(service: MemoryService, args: Args) -> Reply:
    dry_run = bool(args.get("dry_run", True))
    archived = [i.to_dict() for i in service.prune(dry_run=dry_run)]
    return Reply({"dry_run": dry_run, "archived": archived})


def op_list(service: MemoryService, args: Args) -> Reply:
    items = service.list_memories(
        tier=_optional_text(args, "tier") or None,
        archived=bool(args.get("archived")),
        tag=_optional_text(args, "tag") or None,
    )
    return Reply([i.to_dict() for i in items])


def op_status(service: MemoryService, args: Args) -> Reply:
    from memory.maintenance import last_run

    status = service.status().to_dict()
    status["last_prune"] = last_run(service)
    return Reply(status)


def op_daily_append(service: MemoryService, args: Args) -> Reply:
    from memory.redact import redact
    from vault.daily import append_daily

    text = redact(_text(args, "text")).strip()
    now = service.clock()
    append_daily(service.vault, now, f"- {now:%H:%M} {text}")
    return Reply({"file": str(service.vault.daily_dir / f"{now:%Y-%m-%d}.md")})


def op_sync(service: MemoryService, args: Args) -> Reply:
    return Reply(service.sync().summary())


# Claude Code transcripts ------------------------------------------------------


def op_capture(service: MemoryService, args: Args) -> Reply:
    from hooks.claude_code.capture import capture_transcript

    path = Path(_text(args, "transcript"))
    if not path.is_file():
        raise RecallError(f"{path}: no such transcript")
    session, project = _optional_text(args, "session"), _optional_text(args, "project")
    return Reply(
        {"queued": str(path)}, (lambda: capture_transcript(service, path, session, project),)
    )


def op_sweep(service: MemoryService, args: Args) -> Reply:
    from hooks.claude_code.capture import capture_transcript, pending_transcripts
    from memory.maintenance import maintenance_steps

    config_dir = _optional_text(args, "claude_config_dir")
    environ = {**os.environ, **({"CLAUDE_CONFIG_DIR": config_dir} if config_dir else {})}
    pending = pending_transcripts(service, environ)
    steps = [partial(capture_transcript, service, path) for path in pending]
    return Reply({"queued": [str(p) for p in pending]}, (*steps, *maintenance_steps(service)))


OPS: dict[str, Callable[[MemoryService, Args], Reply]] = {
    "capture": op_capture,
    "sweep": op_sweep,
    "recall": op_recall,
    "recall_associative": op_recall_associative,
    "prompt_event": op_prompt_event,
    "recall_cold": op_recall_cold,
    "confirm": op_confirm,
    "reinforce": op_reinforce,
    "jot": op_jot,
    "ingest": op_ingest,
    "forget": op_forget,
    "revive": op_revive,
    "prune": op_prune,
    "show": op_show,
    "list": op_list,
    "status": op_status,
    "daily_append": op_daily_append,
    "sync": op_sync,
}


def dispatch_reply(service: MemoryService, op: str, args: Args) -> Reply:
    """Run `op` on a view of `service` at the request's clock; the reply may
    carry follow-up work (the daemon runs it after sending), which captured the
    same view, so it sees the same clock."""
    if op not in OPS:
        raise ProtocolError(f"unknown operation {op!r}")
    return OPS[op](_at_request_clock(service, args.get("now")), args)


def dispatch(service: MemoryService, op: str, args: Args) -> Json:
    """Run `op` and its follow-up work now (in-process callers)."""
    reply = dispatch_reply(service, op, args)
    for step in reply.steps:
        step()
    return reply.result
