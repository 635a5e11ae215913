"""The daemon's housekeeping operations: capture from Claude Code's transcripts,
the sweep (capture left-behind transcripts, then maintenance and consolidation
when the daemon is quiet), and consolidation and validation asked for by hand."""

from __future__ import annotations

import os
from pathlib import Path

from hooks.client.protocol import InvalidRequest
from hooks.ops.requests import Args, Reply, optional_text, shown, text_arg
from memory.consolidation.gist import WriteGists
from memory.consolidation.patterns import Generalise
from memory.service import MemoryService

# Consolidation ------------------------------------------------------------------


def generaliser_for(service: MemoryService) -> Generalise | None:
    from hooks.claude_code.llm_generalise import generaliser

    return generaliser(service.settings, service.vault.state_dir, os.environ)


def gist_writer_for(service: MemoryService) -> WriteGists | None:
    from hooks.claude_code.llm_gist import gist_writer

    return gist_writer(service.settings, service.vault.state_dir, os.environ)


def op_consolidate(service: MemoryService, args: Args) -> Reply:
    """A run (a dry run unless `dry_run` is false), `undo` a run, or `list` them.
    A run asked for by hand is done before the reply; the automatic one comes in
    steps after a sweep's reply."""
    if args.get("list"):
        return Reply({"runs": service.consolidation_runs()})
    review = optional_text(args, "review")
    if review:
        return Reply(_review(service, review, args.get("picks")))
    run = optional_text(args, "undo")
    if run:
        undone = service.undo_consolidation(run, force=bool(args.get("force")))
        return Reply({"undone": undone.run, "restored": undone.restored,
                      "removed": undone.removed, "forced": undone.forced})  # fmt: skip
    dry_run = bool(args.get("dry_run", True))  # a dry run never spends on `claude -p`
    if dry_run:
        return Reply(service.consolidate(True).to_dict())
    report = service.consolidate(
        False, generaliser_for(service), write_gists=gist_writer_for(service)
    )
    return Reply(report.to_dict())


def _review(service: MemoryService, what: str, picks: object) -> dict[str, object]:
    """The review list: "list" it, "apply" or "drop" entries (`picks`: 1-based
    numbers, or none for all)."""
    from memory.consolidation.review import pending
    from memory.consolidation.run import apply_review, drop_review

    chosen = None
    if picks is not None:
        if not isinstance(picks, list) or not all(isinstance(n, int) for n in picks):
            raise InvalidRequest("picks must be a list of entry numbers")
        chosen = [int(n) for n in picks]
    if what == "list":
        return {"pending": pending(service.vault)}
    if what == "apply":
        return {"applied": apply_review(service, chosen).to_dict()}
    if what == "drop":
        return {"dropped": drop_review(service, chosen)}
    raise InvalidRequest(f"review must be list, apply or drop, not {what!r}")


def op_validate(service: MemoryService, args: Args) -> Reply:
    up = args.get("up")
    if not isinstance(up, bool):
        raise InvalidRequest("up must be true (the memory is right) or false (it is wrong)")
    return Reply(shown(service, service.validate(text_arg(args, "id"), up).id))


# Claude Code transcripts ------------------------------------------------------


def _claude_environ(args: Args) -> dict[str, str]:
    """The daemon's environment with the caller's Claude config folder."""
    config_dir = optional_text(args, "claude_config_dir")
    return {**os.environ, **({"CLAUDE_CONFIG_DIR": config_dir} if config_dir else {})}


def op_capture(service: MemoryService, args: Args) -> Reply:
    from hooks.claude_code.capture import capture_steps, capture_transcript
    from hooks.claude_code.config_dir import transcript_folders
    from vault.source_files import check_source

    path = Path(text_arg(args, "transcript"))
    environ = _claude_environ(args)
    allowed = service.settings.transcripts_allowed
    check_source(path, transcript_folders(environ, allowed), "transcripts_allowed")
    session, project = optional_text(args, "session"), optional_text(args, "project")
    if args.get("wait"):  # `vault capture`: the person waits for the report
        report = capture_transcript(service, path, session, project, environ)
        return Reply({"created": report.created, "reinforced": report.reinforced,
                      "superseded": report.superseded,
                      "for_review": report.for_review})  # fmt: skip
    steps = capture_steps(service, path, environ, session=session, project=project)
    return Reply({"queued": str(path)}, steps)


def op_sweep(service: MemoryService, args: Args) -> Reply:
    from hooks.claude_code.capture import capture_steps, pending_transcripts, sweep
    from memory.consolidation.run import consolidation_steps
    from memory.maintenance import maintenance_steps

    environ = _claude_environ(args)
    if args.get("wait"):  # `vault sweep`: the person waits for the report
        report = sweep(service, environ)
        done = {"pruned": report.pruned, "consolidated": report.consolidated}
        return Reply({"captured": report.captured, **done})
    pending = pending_transcripts(service, environ)
    steps = tuple(step for path in pending for step in capture_steps(service, path, environ))
    consolidating = consolidation_steps(service, generaliser_for(service), gist_writer_for(service))
    reply = {"queued": [str(p) for p in pending], "consolidating": bool(consolidating)}
    # Maintenance and consolidation wait for a quiet daemon (housekeeping).
    return Reply(reply, steps, (*maintenance_steps(service), *consolidating))


HOUSEKEEPING_OPS = {
    "capture": op_capture,
    "sweep": op_sweep,
    "consolidate": op_consolidate,
    "validate": op_validate,
}
