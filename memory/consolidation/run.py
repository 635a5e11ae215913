"""A consolidation run from start to end: snapshot, plan, apply through the
journal, index the touched files; a dry run stops after the plan. Also undo,
the list of runs, and the automatic run (a daemon maintenance step when the
vault is large enough and the last run is old enough), split into steps so
prompts get in between.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any

from indexer.sync import Progress, Stages
from memory.consolidation.apply import Runner
from memory.consolidation.config import ConsolidationConfig
from memory.consolidation.files import JournaledFiles
from memory.consolidation.gist import WriteGists
from memory.consolidation.journal import Journal, UndoReport, list_runs, new_run_id, undo
from memory.consolidation.patterns import Generalise
from memory.consolidation.plan import Action, Merge, Plan, Supersede, make_plan
from memory.consolidation.review import defer, retire_bound, take, within_bound
from memory.consolidation.snapshot import (
    Snapshot,
    embed_gists,
    finish_snapshot,
    start_snapshot,
    take_snapshot,
)
from memory.context import ServiceContext
from vault.clock import format_time
from vault.links import link_targets
from vault.state import JsonState

STEP_SECONDS = 0.2  # an automatic run applies actions for about this long per step
STEP_SLOTS = 60  # apply steps an automatic run may take; the last one finishes the rest
EMBED_BATCH = 16  # long memories whose gist one step embeds
EMBED_SLOTS = 20


@dataclass
class RunReport:
    run: str | None  # None for a dry run
    dry_run: bool
    counts: dict[str, int]
    actions: list[dict[str, Any]]
    skipped: list[str] = field(default_factory=list)
    journal: str = ""

    def to_dict(self) -> dict[str, Any]:
        return {
            "run": self.run, "dry_run": self.dry_run, "counts": self.counts,
            "actions": self.actions, "skipped": self.skipped, "journal": self.journal,
        }  # fmt: skip


def _state(service: ServiceContext) -> JsonState:
    return JsonState(service.vault.state_dir / "consolidation.json")


def last_run(service: ServiceContext) -> str | None:
    value = _state(service).read().get("last_run")
    return value if isinstance(value, str) else None


def plan_now(
    service: ServiceContext,
    generalise: Generalise | None = None,
    write_gists: WriteGists | None = None,
    stages: Stages | None = None,
) -> tuple[Snapshot, Plan]:
    service.fresh()
    snapshot = take_snapshot(service, stages)
    return snapshot, _plan(service, snapshot, generalise, write_gists, stages)


def _plan(
    service: ServiceContext,
    snapshot: Snapshot,
    generalise: Generalise | None,
    write_gists: WriteGists | None = None,
    stages: Stages | None = None,
) -> Plan:
    config = ConsolidationConfig.from_settings(service.settings)
    covered = _pattern_sources(service)
    now = service.clock()
    return make_plan(snapshot, config, now, generalise, covered, write_gists, stages)


def _pattern_sources(service: ServiceContext) -> list[frozenset[str]]:
    """What existing patterns generalise (a theme becomes a pattern once)."""
    found = []
    for row in service.index.rows(archived=False):
        if row.kind == "pattern":
            record = service.store.read(row.id)
            found.append(frozenset(link_targets(record.pattern_of)))
    return found


def consolidate(
    service: ServiceContext,
    dry_run: bool = False,
    generalise: Generalise | None = None,
    stages: Stages | None = None,
    write_gists: WriteGists | None = None,
) -> RunReport:
    """A run asked for by hand (not bounded: the person sees and can undo it);
    `stages` hears each step of the plan, then "Applying" and "Indexing"."""
    snapshot, plan = plan_now(service, generalise, write_gists, stages)
    if dry_run:
        return RunReport(None, True, plan.counts(), plan.to_dict())
    runner = _start(service, snapshot)
    total = len(plan.actions)
    progress = stages("Applying") if stages else None
    for done, action in enumerate(plan.actions, 1):
        runner.apply(action)
        if progress is not None:
            progress(done, total)
    return _finish(service, runner, plan, stages("Indexing") if stages else None)


def _start(service: ServiceContext, snapshot: Snapshot | None, automatic: bool = False) -> Runner:
    """A journaled runner; `snapshot`: the bodies the plan saw (None: as they are now)."""
    now = service.clock()
    journal = Journal(service.vault, new_run_id(now), format_time(now), automatic=automatic)
    journal.begin()
    backlinks: dict[str, list[str]] = {}
    rows = service.index.rows(archived=None)
    for row in rows:
        for target in link_targets(row.links):
            backlinks.setdefault(target, []).append(row.id)
    planned = snapshot.rows.values() if snapshot else [r for r in rows if not r.archived]
    hashes = {row.id: row.body_hash for row in planned}
    where = {row.id: service.vault.root / row.path for row in rows}  # checked before use
    files = JournaledFiles(service.vault, journal, where)
    return Runner(files, service.config, now, hashes, backlinks)


def _index(service: ServiceContext, runner: Runner, progress: Progress | None = None) -> None:
    """Index what the run wrote since the last call (new bodies are embedded)."""
    fresh = runner.files.touched[runner.indexed :]
    if fresh:
        service.index.apply(fresh, allow_embed=True, progress=progress)
    runner.indexed = len(runner.files.touched)


def _finish(
    service: ServiceContext, runner: Runner, plan: Plan, progress: Progress | None = None
) -> RunReport:
    journal = runner.files.journal
    _index(service, runner, progress)
    journal.finish(format_time(service.clock()))
    _state(service).update(
        lambda data: data.update(last_run=journal.finished, last_run_id=journal.run)
    )
    done = runner.applied.done
    counts = {kind: sum(1 for a in done if a["action"] == kind) for kind in _KINDS}
    return RunReport(journal.run, False, counts, done, runner.applied.skipped, str(journal.path))


_KINDS = ("supersede", "merge", "gist", "pattern")


def _bounded(service: ServiceContext, plan: Plan, active: int) -> tuple[Plan, list[dict[str, Any]]]:
    """The plan within the automatic retire bound, and what waits for review: every
    supersede or merge when `auto_supersede` / `auto_merge` is off (the judge's
    held-out precision is under 0.98: README, Consolidation)."""
    config = ConsolidationConfig.from_settings(service.settings)
    bound = retire_bound(config.auto_retire_limit, config.auto_retire_share, active)
    entries = plan.to_dict()
    unattended = {"supersede": config.auto_supersede, "merge": config.auto_merge}
    allowed = [e for e in entries if unattended.get(e["action"], True)]
    now, later = within_bound(allowed, bound)
    waiting = {id(e) for e in later} | {id(e) for e in entries if e not in allowed}
    later = [e for e in entries if id(e) in waiting]  # in plan order
    kept = {id(entry) for entry in now}
    return Plan([a for a, e in zip(plan.actions, entries, strict=True) if id(e) in kept]), later


def apply_review(service: ServiceContext, picks: list[int] | None) -> RunReport:
    """Apply entries of the review list (1-based; None: all) as one journaled run;
    a merge whose source was edited since the plan (or is gone) is skipped."""
    entries = take(service.vault, picks)
    actions = [_action(entry) for entry in entries]
    service.fresh()
    runner = _start(service, None)
    for entry in entries:
        runner.planned_hashes.update(entry.get("planned") or {})
    runner.run(actions)
    return _finish(service, runner, Plan(list(actions)))


def drop_review(service: ServiceContext, picks: list[int] | None) -> int:
    return len(take(service.vault, picks))


def _action(entry: dict[str, Any]) -> Action:
    if entry["action"] == "supersede":
        return Supersede(entry["older"], entry["newer"], entry["reason"])
    return Merge(tuple(entry["sources"]), entry["text"], entry["reason"])


def undo_run(service: ServiceContext, run: str, force: bool = False) -> UndoReport:
    report = undo(service.vault, run, service.clock(), force)
    paths = [service.vault.root / p for p in [*report.restored, *report.removed]]
    if paths:
        service.index.apply(paths, allow_embed=True)
    return report


def runs(service: ServiceContext) -> list[dict[str, Any]]:
    return list_runs(service.vault)


def due(service: ServiceContext, now: datetime) -> bool:
    """More active memories than the minimum, and no run within the interval."""
    config = ConsolidationConfig.from_settings(service.settings)
    last = last_run(service)
    interval = timedelta(days=config.consolidate_every_days)
    if last is not None and last > format_time(now - interval):
        return False
    return len(service.index.rows(archived=False)) > config.consolidate_min_memories


def consolidation_steps(
    service: ServiceContext,
    generalise: Generalise | None = None,
    write_gists: WriteGists | None = None,
) -> list[Callable[[], object]]:
    """The automatic run as steps (none when not due): read the memories, embed
    long ones' gists a batch at a time, plan, apply actions about STEP_SECONDS at
    a time, finish; the daemon answers prompts between steps."""
    if not due(service, service.clock()):
        return []
    work: dict[str, Any] = {}

    def read_step() -> None:
        service.fresh()
        work["draft"] = start_snapshot(service)

    def embed_step() -> None:
        embed_gists(service, work["draft"], EMBED_BATCH)

    def plan_step() -> None:
        embed_gists(service, work["draft"])  # whatever the embed steps left
        snapshot = finish_snapshot(work.pop("draft"))
        planned = _plan(service, snapshot, generalise, write_gists)
        plan, later = _bounded(service, planned, len(snapshot.rows))
        runner = _start(service, snapshot, automatic=True)
        journal = runner.files.journal
        for entry in later:  # the bodies the plan saw: an edited memory is skipped later
            ids = entry.get("sources") or [entry.get("older"), entry.get("newer")]
            entry["planned"] = {m: snapshot.rows[m].body_hash for m in ids if m in snapshot.rows}
        defer(service.vault, later, journal.run, journal.started)
        work.update(runner=runner, plan=plan, todo=list(plan.actions))

    def apply_step() -> None:
        deadline = time.monotonic() + STEP_SECONDS
        while work.get("todo") and time.monotonic() < deadline:
            work["runner"].apply(work["todo"].pop(0))
        if "runner" in work:
            _index(service, work["runner"])

    def finish_step() -> RunReport | None:
        if "runner" not in work:
            return None
        for action in work.pop("todo"):
            work["runner"].apply(action)
        return _finish(service, work["runner"], work["plan"])

    embeds = [embed_step] * EMBED_SLOTS
    return [read_step, *embeds, plan_step, *([apply_step] * STEP_SLOTS), finish_step]


def consolidate_if_due(
    service: ServiceContext,
    generalise: Generalise | None = None,
    write_gists: WriteGists | None = None,
) -> RunReport | None:
    """The automatic run all at once (the CLI sweep): its report, or None if not due."""
    results = [step() for step in consolidation_steps(service, generalise, write_gists)]
    last = results[-1] if results else None
    return last if isinstance(last, RunReport) else None
