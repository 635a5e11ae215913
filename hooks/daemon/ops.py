"""The daemon's operations: one function per request, each a thin call into
MemoryService returning JSON-ready data. A request may carry `now` (ISO time)
so hooks and the CLI can simulate the future through the daemon too.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from hooks.daemon.protocol import MAX_PROMPT_CHARS
from memory.errors import RecallError
from memory.results import Associative, Hit
from memory.service import MemoryService, RecallOptions
from vault.clock import fixed_clock, parse_time, utc_now

Args = dict[str, Any]


def _options(args: Args) -> RecallOptions:
    limit = args.get("limit", 5)
    if not isinstance(limit, int) or isinstance(limit, bool):
        raise RecallError("limit must be a whole number")
    return RecallOptions(
        limit=limit,
        project=args.get("project") or None,
        topic_hint=args.get("topic_hint") or None,
        exclude_topic=args.get("exclude_topic") or None,
        reinforce=bool(args.get("reinforce", True)),
    )


def _text(args: Args, key: str) -> str:
    value = args.get(key)
    if not isinstance(value, str) or not value.strip():
        raise RecallError(f"{key} must be a non-empty string")
    return value


def _record(service: MemoryService, memory_id: str) -> dict[str, Any]:
    record, current = service.show(memory_id)
    return {
        "id": record.id,
        "path": str(record.path),
        "archived": record.archived,
        "tier": record.tier,
        "kind": record.kind,
        "topic": record.topic,
        "tags": list(record.tags),
        "project": record.project,
        "stability": record.stability,
        "strength": round(current, 4),
        "recalls": record.recalls,
        "confirmations": record.confirmations,
        "created": record.created.isoformat(),
        "last_access": record.last_access.isoformat(),
        "links": list(record.links),
        "text": record.body,
    }


def op_recall(s: MemoryService, a: Args) -> Any:
    options = _options(a)
    hits = s.recall(_text(a, "query"), replace(options, reinforce=False))
    direct = [h for h in hits if not h.via]  # see-also hits are never reinforced
    result = [(h if h.via else _promised(h, options.reinforce)).to_dict() for h in hits]
    return Reply(result, _later(s, direct, options))


def op_recall_associative(s: MemoryService, a: Args) -> Any:
    options = _options(a)
    found = s.recall_associative(_text(a, "query"), replace(options, reinforce=False))
    result = Associative(
        [_promised(h, options.reinforce) for h in found.confident],
        found.activated,
        found.see_also,
    )
    return Reply(result.to_dict(), _later(s, found.confident, options))


def op_prompt_event(s: MemoryService, a: Args) -> Any:
    """The prompt hook's raw event, answered in the warm process with the exact
    line the hook prints (the hook only forwards stdin and prints this)."""
    from hooks.claude_code.project import project_identity
    from hooks.claude_code.prompt_answer import answer_prompt, event_fields
    from vault.errors import VaultError

    fields = event_fields(a.get("event"))
    if fields is None:
        return {"output": ""}
    prompt, session, cwd = fields
    options = RecallOptions(limit=5, project=project_identity(cwd) or None, see_also=False)
    confident: list[Hit] = []

    def recall() -> dict[str, Any]:
        found = s.recall_associative(prompt[:MAX_PROMPT_CHARS], replace(options, reinforce=False))
        confident.extend(found.confident)
        return Associative([_promised(h, True) for h in found.confident], found.activated).to_dict()

    def confirm(ids: list[str]) -> None:
        for memory_id in ids:
            try:
                s.confirm_activation(memory_id)
            except VaultError:
                continue  # purged or archived meanwhile

    max_chars = int(s.settings["hook_context_chars"])
    output = answer_prompt(s.vault.root, prompt, session, recall, confirm, max_chars)
    return Reply({"output": output}, _later(s, confident, options))


@dataclass(frozen=True)
class Reply:
    """A result to send now and work to do after it is sent, in steps: the daemon
    lets waiting requests in between steps, so a long sweep never holds up a prompt."""

    result: Any
    steps: tuple[Callable[[], Any], ...] = ()


def _promised(hit: Hit, reinforce: bool) -> Hit:
    return replace(hit, reinforced=True) if reinforce else hit


def _later(
    s: MemoryService, hits: list[Hit], options: RecallOptions
) -> tuple[Callable[[], Any], ...]:
    """Reinforcement writes files (fsync): done after the reply, so a prompt never waits."""
    if not (options.reinforce and hits):
        return ()
    clock = s.clock
    return (lambda: _with_clock(s, clock, lambda: s.reinforce_hits(hits)),)


def _with_clock(s: MemoryService, clock: Any, work: Callable[[], Any]) -> Any:
    s.clock = clock
    try:
        return work()
    finally:
        s.clock = utc_now


def op_recall_cold(s: MemoryService, a: Args) -> Any:
    return [h.to_dict() for h in s.recall_cold(_text(a, "query"), _options(a).limit)]


def op_confirm(s: MemoryService, a: Args) -> Any:
    return _record(s, s.confirm_activation(_text(a, "id")).id)


def op_reinforce(s: MemoryService, a: Args) -> Any:
    return _record(s, s.reinforce(_text(a, "id")).id)


def op_jot(s: MemoryService, a: Args) -> Any:
    record = s.jot(
        _text(a, "text"),
        topic=str(a.get("topic", "")),
        tags=[str(t) for t in a.get("tags", [])],
        project=str(a.get("project", "")),
        session=str(a.get("session", "")),
        kind=str(a.get("kind", "fact")),
        source=str(a.get("source", "jot")),
    )
    return _record(s, record.id)


def op_ingest(s: MemoryService, a: Args) -> Any:
    record = s.ingest(Path(_text(a, "path")), topic=str(a.get("topic", "")))
    return _record(s, record.id)


def op_forget(s: MemoryService, a: Args) -> Any:
    return _record(s, s.forget(_text(a, "id")).id)


def op_revive(s: MemoryService, a: Args) -> Any:
    return _record(s, s.revive_from_cold(_text(a, "id")).id)


def op_prune(s: MemoryService, a: Args) -> Any:
    dry_run = bool(a.get("dry_run", True))
    return {"dry_run": dry_run, "archived": [i.to_dict() for i in s.prune(dry_run=dry_run)]}


def op_show(s: MemoryService, a: Args) -> Any:
    return _record(s, _text(a, "id"))


def op_list(s: MemoryService, a: Args) -> Any:
    items = s.list_memories(
        tier=a.get("tier") or None, archived=bool(a.get("archived")), tag=a.get("tag") or None
    )
    return [i.to_dict() for i in items]


def op_status(s: MemoryService, a: Args) -> Any:
    from vault.state import JsonState

    status = s.status().to_dict()
    status["last_prune"] = (
        JsonState(s.vault.state_dir / "maintenance.json").read().get("last_prune")
    )
    return status


def op_daily_append(s: MemoryService, a: Args) -> Any:
    from memory.redact import redact
    from vault.daily import append_daily

    text = redact(_text(a, "text")).strip()
    now = s.clock()
    append_daily(s.vault, now, f"- {now:%H:%M} {text}")
    return {"file": str(s.vault.daily_dir / f"{now:%Y-%m-%d}.md")}


def op_sync(s: MemoryService, a: Args) -> Any:
    return s.sync().summary()


def op_capture(s: MemoryService, a: Args) -> Any:
    from hooks.claude_code.capture import capture_transcript

    path = Path(_text(a, "transcript"))
    if not path.is_file():
        raise RecallError(f"{path}: no such transcript")
    session, project = str(a.get("session") or ""), str(a.get("project") or "")
    return Reply({"queued": str(path)}, (lambda: capture_transcript(s, path, session, project),))


def op_sweep(s: MemoryService, a: Args) -> Any:
    from hooks.claude_code.capture import capture_transcript, maintenance_steps, pending_transcripts

    environ = (
        {"CLAUDE_CONFIG_DIR": str(a["claude_config_dir"])} if a.get("claude_config_dir") else {}
    )
    pending = pending_transcripts(s, {**os.environ, **environ})
    steps = [lambda path=path: capture_transcript(s, path) for path in pending]
    return Reply({"queued": [str(p) for p in pending]}, (*steps, *maintenance_steps(s)))


OPS: dict[str, Callable[[MemoryService, Args], Any]] = {
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
    """Run `op`; the reply may carry follow-up work (the daemon runs it after sending)."""
    if op not in OPS:
        raise RecallError(f"unknown operation {op!r}")
    now = args.get("now")
    clock = fixed_clock(parse_time(now)) if now else utc_now
    result = _with_clock(service, clock, lambda: OPS[op](service, args))
    if isinstance(result, Reply):
        # Follow-up steps see the same clock as the request.
        steps = tuple(_clocked(service, clock, step) for step in result.steps)
        return Reply(result.result, steps)
    return Reply(result)


def _clocked(service: MemoryService, clock: Any, step: Callable[[], Any]) -> Callable[[], Any]:
    return lambda: _with_clock(service, clock, step)


def dispatch(service: MemoryService, op: str, args: Args) -> Any:
    """Run `op` and its follow-up work now (in-process callers)."""
    reply = dispatch_reply(service, op, args)
    for step in reply.steps:
        step()
    return reply.result
