"""The daemon's operations: one function per request, each a thin call into
MemoryService returning JSON-ready data and, at times, work to do after the
reply. A request may carry `now` (ISO time) so hooks and the CLI can simulate
the future through the daemon too: the operation and its follow-up work run
on a view of the service at that clock (`MemoryService.at`).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from datetime import datetime
from pathlib import Path
from typing import Any

from hooks.client.protocol import RAW_REPLY_OPS, InvalidRequest, ProtocolError
from hooks.ops.housekeeping import HOUSEKEEPING_OPS
from hooks.ops.notes import NOTE_OPS
from hooks.ops.requests import (
    Args,
    Json,
    Reply,
    Step,
    optional_text,
    shown,
    text_arg,
    texts_arg,
    with_request_settings,
)
from hooks.ops.usage import note_later, op_access_stats
from indexer.errors import IndexerError
from indexer.sync import SyncReport
from memory.errors import RecallError
from memory.recall.ranking import RecallOptions
from memory.results import Associative, Hit
from memory.service import MemoryService
from vault.clock import fixed_clock, parse_time
from vault.errors import VaultError

# The errors that mean "the request could not be done as asked" (bad input, an
# unknown id, a broken file, an unusable index). Anything else is a bug.
EXPECTED_ERRORS = (VaultError, IndexerError, RecallError, InvalidRequest, ProtocolError)


def _options(args: Args) -> RecallOptions:
    limit = args.get("limit", 5)
    if not isinstance(limit, int) or isinstance(limit, bool):
        raise InvalidRequest("limit must be a whole number")
    return RecallOptions(
        limit=limit,
        project=optional_text(args, "project") or None,
        topic_hint=optional_text(args, "topic_hint") or None,
        exclude_topic=optional_text(args, "exclude_topic") or None,
        reinforce=bool(args.get("reinforce", True)),
        decay=not args.get("no_decay"),
        signal=optional_text(args, "signal", "hybrid") or "hybrid",
        kind=optional_text(args, "kind") or None,
        topic=optional_text(args, "topic") or None,
        project_filter=optional_text(args, "project_filter") or None,
        category=optional_text(args, "category") or None,
    )


def _at_request_clock(service: MemoryService, now: object) -> MemoryService:
    """The service as of the request's `now`; without one, the service's own clock."""
    if not now:
        return service
    try:
        return service.at(fixed_clock(parse_time(now)))
    except ValueError:
        raise InvalidRequest(f"now: {now!r} is not an ISO 8601 time") from None


def _promised(hit: Hit, reinforce: bool) -> Hit:
    """A hit as reinforced (done after the reply); a folder document never is."""
    return replace(hit, reinforced=True) if reinforce and not hit.document else hit


def _reinforce_later(service: MemoryService, hits: list[Hit], reinforce: bool) -> tuple[Step, ...]:
    """Reinforcement writes files (fsync): done after the reply, so a prompt never waits."""
    if not (reinforce and hits):
        return ()
    return (lambda: service.reinforce_hits(hits),)


# Recall ----------------------------------------------------------------------


def op_recall(service: MemoryService, args: Args) -> Reply:
    options = _options(args)
    hits = service.recall(text_arg(args, "query"), replace(options, reinforce=False))
    direct = [h for h in hits if not h.via]  # see-also hits are never reinforced
    result = [(h if h.via else _promised(h, options.reinforce)).to_dict() for h in hits]
    steps = _reinforce_later(service, direct, options.reinforce)
    return Reply(result, steps + note_later(service, hits, options.reinforce))


def op_recall_associative(service: MemoryService, args: Args) -> Reply:
    options = _options(args)
    found = service.recall_associative(text_arg(args, "query"), replace(options, reinforce=False))
    result = Associative(
        [_promised(h, options.reinforce) for h in found.confident],
        found.activated,
        found.see_also,
    )
    steps = _reinforce_later(service, found.confident, options.reinforce)
    shown = found.confident + found.activated + found.see_also
    return Reply(result.to_dict(), steps + note_later(service, shown, options.reinforce))


def op_prompt_event(service: MemoryService, args: Args) -> Reply:
    """The prompt hook's raw event, answered in the warm process with the exact
    line the hook prints (the hook only forwards stdin and prints this)."""
    from hooks.claude_code.project import project_for
    from hooks.claude_code.prompt_answer import answer_prompt, event_fields
    from hooks.claude_code.prompt_recall import prompt_tiers

    fields = event_fields(args.get("event"))
    if fields is None:
        return Reply({"output": ""})
    prompt, session, cwd = fields
    project = project_for(service.settings.project_override, cwd) or None
    confident: list[Hit] = []
    shown: list[Hit] = []

    def recall() -> dict[str, Any]:
        found = prompt_tiers(service, prompt, project, session)
        confident.extend(found.confident)
        shown.extend(found.confident + found.activated)
        return Associative([_promised(h, True) for h in found.confident], found.activated).to_dict()

    def confirm(ids: list[str]) -> None:
        for memory_id in ids:
            try:
                service.confirm_activation(memory_id)
            except VaultError:
                continue  # purged or archived meanwhile

    max_chars = int(service.settings.hook_context_chars)
    answer = answer_prompt(service.vault.root, prompt, session, recall, confirm, max_chars)
    # Every write waits for the reply: the shown state and a "yes" first (the next
    # prompt's answer does not depend on them: see confirmation.previous), then reinforcement.
    steps = answer.later + _reinforce_later(service, confident, True) + note_later(service, shown)
    return Reply({"output": answer.line}, steps)


def op_tool_event(service: MemoryService, args: Args) -> Reply:
    """A raw PreToolUse / PostToolUseFailure event, answered with the line the tool
    hook prints: memories bearing on the file or command (hooks/claude_code/push.py)."""
    from hooks.claude_code.project import project_for
    from hooks.claude_code.push import answer_tool_event

    event = args.get("event")
    cwd = event.get("cwd") if isinstance(event, dict) else None
    override = service.settings.project_override
    project = project_for(override, cwd if isinstance(cwd, str) else None) or None
    return Reply({"output": answer_tool_event(service, event, project)})


def op_recall_cold(service: MemoryService, args: Args) -> Reply:
    hits = service.recall_cold(text_arg(args, "query"), _options(args).limit)
    return Reply([h.to_dict() for h in hits])


# One memory -------------------------------------------------------------------


def op_confirm(service: MemoryService, args: Args) -> Reply:
    return Reply(shown(service, service.confirm_activation(text_arg(args, "id")).id))


def op_reinforce(service: MemoryService, args: Args) -> Reply:
    return Reply(shown(service, service.reinforce(text_arg(args, "id")).id))


def op_jot(service: MemoryService, args: Args) -> Reply:
    record = service.jot(
        text_arg(args, "text"),
        topic=optional_text(args, "topic"),
        tags=texts_arg(args, "tags"),
        project=optional_text(args, "project"),
        session=optional_text(args, "session"),
        kind=optional_text(args, "kind", "fact"),
        source=optional_text(args, "source", "jot"),
        created=_created(args),
        request=optional_text(args, "request"),
    )
    return Reply(shown(service, record.id))


def _created(args: Args) -> datetime | None:
    """A jot's `created` as its caller fixed it (a request asked again keeps it)."""
    text = optional_text(args, "created")
    try:
        return parse_time(text) if text else None
    except ValueError:
        raise InvalidRequest(f"created: {text!r} is not an ISO 8601 time") from None


def op_ingest(service: MemoryService, args: Args) -> Reply:
    """`allowed` (folders), when given, are the only places the file may be in
    (the MCP server sends them; the person's own `vault ingest` sends none)."""
    path = Path(text_arg(args, "path"))
    allowed = [Path(folder) for folder in texts_arg(args, "allowed")] if "allowed" in args else None
    record = service.ingest(
        path,
        topic=optional_text(args, "topic"),
        tags=texts_arg(args, "tags"),
        project=optional_text(args, "project"),
        allowed=allowed,
    )
    return Reply(shown(service, record.id))


def op_forget(service: MemoryService, args: Args) -> Reply:
    return Reply(shown(service, service.forget(text_arg(args, "id")).id))


def op_revive(service: MemoryService, args: Args) -> Reply:
    return Reply(shown(service, service.revive_from_cold(text_arg(args, "id")).id))


def op_purge(service: MemoryService, args: Args) -> Reply:
    return Reply({"path": str(service.purge(text_arg(args, "id")))})


def op_show(service: MemoryService, args: Args) -> Reply:
    return Reply(shown(service, text_arg(args, "id")))


# The vault --------------------------------------------------------------------


def op_prune(service: MemoryService, args: Args) -> Reply:
    dry_run = bool(args.get("dry_run", True))
    archived = [i.to_dict() for i in service.prune(dry_run=dry_run)]
    return Reply({"dry_run": dry_run, "archived": archived})


def op_list(service: MemoryService, args: Args) -> Reply:
    items = service.list_memories(
        tier=optional_text(args, "tier") or None,
        archived=bool(args.get("archived")),
        tags=[*texts_arg(args, "tags"), *filter(None, [optional_text(args, "tag")])],
    )
    return Reply([i.to_dict() for i in items])


def op_status(service: MemoryService, args: Args) -> Reply:
    from memory.maintenance import last_run

    status = service.status().to_dict()
    status["last_prune"] = last_run(service)
    return Reply(status)


def op_daily_append(service: MemoryService, args: Args) -> Reply:
    from memory.encode.redact import redact
    from vault.daily import append_daily

    text = redact(text_arg(args, "text")).strip()
    now = service.clock()
    append_daily(service.vault, now, f"- {now:%H:%M} {text}")
    return Reply({"file": str(service.vault.daily_dir / f"{now:%Y-%m-%d}.md")})


def op_sync(service: MemoryService, args: Args) -> Reply:
    return Reply(service.sync().summary())


def op_reindex(service: MemoryService, args: Args) -> Reply:
    """`vault reindex`: a delta sync, or with `full` a rebuild. The daemon runs this
    op outside its work lock; the work takes it in turns (`service.turn`), so a
    rebuild never holds up a prompt for longer than one short step."""
    full = bool(args.get("full"))
    known = len(service.index.events.notices)
    if full:
        report = service.rebuild()
    else:
        with service.turn:
            report = service.on_files_changed()
    events = service.index.events
    return Reply(reindexed(report, full, events.notices[known:], events.resumed if full else 0))


def reindexed(
    report: SyncReport, full: bool, notices: list[str], resumed: int = 0
) -> dict[str, Any]:
    """What `vault reindex` prints, from the daemon or from the CLI's own process;
    `resumed`: texts a full rebuild found embedded by an interrupted one."""
    return {
        "full": full,
        "resumed": resumed,
        "summary": report.summary(),
        "problems": [list(problem) for problem in report.problems],
        "notices": notices,
    }


def op_sweep_links(service: MemoryService, args: Args) -> Reply:
    dry_run = bool(args.get("dry_run"))
    return Reply({"dry_run": dry_run, **service.sweep_links(dry_run=dry_run).to_dict()})


def op_sweep_topics(service: MemoryService, args: Args) -> Reply:
    dry_run = bool(args.get("dry_run"))
    return Reply({"dry_run": dry_run, **service.sweep_topics(dry_run=dry_run).to_dict()})


def _answered(op: Callable[[MemoryService, Args], Json]) -> Callable[[MemoryService, Args], Reply]:
    """An operation that only answers (no follow-up work) as a Reply maker."""
    return lambda service, args: Reply(op(service, args))


OPS: dict[str, Callable[[MemoryService, Args], Reply]] = {
    "recall": op_recall,
    "recall_associative": op_recall_associative,
    "prompt_event": op_prompt_event,
    "tool_event": op_tool_event,
    "recall_cold": op_recall_cold,
    "confirm": op_confirm,
    "reinforce": op_reinforce,
    "jot": op_jot,
    "ingest": op_ingest,
    "forget": op_forget,
    "revive": op_revive,
    "prune": op_prune,
    "purge": op_purge,
    "show": op_show,
    "list": op_list,
    "status": op_status,
    "daily_append": op_daily_append,
    "sync": op_sync,
    "reindex": op_reindex,
    "sweep_links": op_sweep_links,
    "sweep_topics": op_sweep_topics,
    "access_stats": _answered(op_access_stats),
    **HOUSEKEEPING_OPS,
    **{name: _answered(op) for name, op in NOTE_OPS.items()},
}
# Run by the daemon outside its work lock: they take it in turns themselves.
UNLOCKED_OPS = frozenset({"reindex"})


def dispatch_reply(service: MemoryService, op: str, args: Args) -> Reply:
    """Run `op` on a view of `service` at the request's clock and settings; the reply may
    carry follow-up work (the daemon runs it after sending), which captured the
    same view, so it sees the same clock."""
    if op not in OPS:
        raise ProtocolError(f"unknown operation {op!r}")
    view = _at_request_clock(service, args.get("now"))
    return OPS[op](with_request_settings(view, args, strict=op not in RAW_REPLY_OPS), args)


def dispatch(service: MemoryService, op: str, args: Args) -> Json:
    """Run `op` and its follow-up work now (in-process callers)."""
    reply = dispatch_reply(service, op, args)
    for step in (*reply.steps, *reply.idle_steps):
        step()
    return reply.result
