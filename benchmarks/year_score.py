"""Score a year run against its plan's ground truth: a memory is about an item
when its text names the item's subject word (`tag`) and a value; it is the
still-true memory when it holds the value true on the question's day, stale
when it holds only an earlier value. Buckets are the age of the still-true
statement when asked. Reads memory texts only; no rule of capture is used.
"""

from __future__ import annotations

import re
import statistics
from dataclasses import dataclass, field
from datetime import timedelta
from typing import Any

from benchmarks.year_plan import Item, Plan
from benchmarks.year_run import START, Answer, Trace
from memory.decay import days_between
from vault.clock import parse_time
from vault.frontmatter import FrontmatterError, parse
from vault.layout import Vault

BUCKETS = ((7, "<= 1 week"), (30, "1 month"), (90, "3 months"), (180, "6 months"),
           (365, "12 months"))  # fmt: skip
CHATTER_AFTER = 30  # days: chatter injected later than this counts against decay


def bucket(age: int) -> str:
    return next(label for limit, label in BUCKETS if age <= limit) if age <= 365 else "12 months"


def mentions(text: str, tag: str, value: str) -> bool:
    lowered = text.lower()
    return tag.lower() in lowered and value.lower() in lowered


def current(text: str, item: Item, day: int) -> bool:
    value = item.value_at(day)
    return value is not None and mentions(text, item.tag, value)


def stale(text: str, item: Item, day: int) -> bool:
    """Names an earlier value of the item and not the one true on `day`."""
    if current(text, item, day):
        return False
    earlier = [v for start, v in item.versions if start <= day and v != item.value_at(day)]
    return any(mentions(text, item.tag, value) for value in earlier)


@dataclass
class Row:
    asked: int = 0
    recalled: int = 0
    stale: int = 0
    injected: int = 0  # memories injected in all (for the stale share)
    millis: list[float] = field(default_factory=list)


def by_age(plan: Plan, answers: list[Answer]) -> dict[str, Row]:
    rows = {label: Row() for _, label in BUCKETS}
    for answer in answers:
        question = answer.question
        if question.item < 0:
            continue
        item = plan.items[question.item]
        row = rows[bucket(question.day - item.since(question.day))]
        row.asked += 1
        row.millis.append(answer.millis)
        texts = list(answer.injected.values())
        row.recalled += any(current(text, item, question.day) for text in texts)
        row.injected += len(texts)
        row.stale += sum(stale(text, item, question.day) for text in texts)
    return rows


def _words(text: str) -> set[str]:
    return set(re.findall(r"[a-z0-9']+", text.lower()))


def chatter_injected(plan: Plan, answers: list[Answer]) -> tuple[int, int]:
    """(probes asked over a month after their chatter, probes that injected a
    memory saying that chatter, created over a month before the probe)."""
    late = late_chatter(plan, answers)
    return len(late), sum(1 for found in late.values() if found)


def late_chatter(plan: Plan, answers: list[Answer]) -> dict[int, list[str]]:
    """For each probe asked over a month after its chatter (by its index in
    `answers`): the ids of the injected memories saying that chatter, created
    over a month before the probe."""
    late: dict[int, list[str]] = {}
    for number, answer in enumerate(answers):
        question = answer.question
        if question.chatter < 0:
            continue
        chatter = plan.chatter[question.chatter]
        if question.day - chatter.day <= CHATTER_AFTER:
            continue
        said = _words(chatter.text)
        asked_on = START + timedelta(days=question.day)
        late[number] = [
            memory_id
            for memory_id, text in answer.injected.items()
            if memory_id in answer.created
            and len(_words(text) & said) >= 0.7 * len(said)
            and days_between(parse_time(answer.created[memory_id]), asked_on) > CHATTER_AFTER
        ]
    return late


def _why_gone(archived: bool, meta: dict[str, Any]) -> str:
    """ "" for an active, current memory; else how it left."""
    for key, reason in (("superseded_by", "superseded"), ("merged_into", "merged"),
                        ("gist_of", "gisted")):  # fmt: skip
        if meta.get(key):
            return reason
    return "archived" if archived else ""


def retired(plan: Plan, vault: Vault) -> tuple[dict[str, list[str]], list[str]]:
    """True facts (as of the plan's last day) none of whose memories is active and
    current, by how the last one left (superseded, merged, archived by decay);
    and the facts never captured."""
    files: list[tuple[str, str]] = []
    for path in vault.memory_files(archived=None):
        try:
            parsed = parse(path.read_text(encoding="utf-8"))
        except (OSError, FrontmatterError):
            continue
        files.append((parsed.body, _why_gone(vault.is_archived(path), parsed.meta)))
    lost: dict[str, list[str]] = {}
    missing = []
    for item in plan.items:
        value = item.value_at(plan.days - 1)
        if value is None:
            continue
        holding = [gone for body, gone in files if mentions(body, item.tag, value)]
        label = f"{item.family}: {item.subject} = {value}"
        if not holding:
            missing.append(label)
        elif all(holding):
            reason = next((r for r in ("superseded", "merged", "gisted") if r in holding),
                          "archived")  # fmt: skip
            lost.setdefault(reason, []).append(label)
    return lost, missing


def _states(vaults: list[Vault]) -> dict[str, list[str]]:
    """Each memory id's state at the end of the run on each machine: active, or
    how it left (superseded, merged, gisted, archived), "-" where it is absent."""
    states: dict[str, list[str]] = {}
    for number, vault in enumerate(vaults):
        for path in vault.memory_files(archived=None):
            try:
                meta = parse(path.read_text(encoding="utf-8")).meta
            except (OSError, FrontmatterError):
                continue
            row = states.setdefault(path.stem, ["-"] * len(vaults))
            row[number] = _why_gone(vault.is_archived(path), meta) or "active"
    return states


def stale_list(plan: Plan, trace: Trace, vaults: list[Vault]) -> list[dict[str, Any]]:
    """Every stale injection: the question, the machine that answered, the stale
    memory and its state at the end on each machine, and the statement that
    changed the value (for classifying why the older one was still active)."""
    states = _states(vaults)
    found = []
    for answer in trace.answers:
        question = answer.question
        if question.item < 0:
            continue
        item = plan.items[question.item]
        since = item.since(question.day)
        change = next((text for day, text in item.said if day == since), "")
        for memory_id, text in answer.injected.items():
            if stale(text, item, question.day):
                found.append({
                    "day": question.day, "machine": answer.machine, "asked": question.text,
                    "item": f"{item.family}: {item.subject}", "changed_on": since,
                    "change": change, "stale_id": memory_id, "stale_text": text,
                    "end_state": states.get(memory_id, []),
                })  # fmt: skip
    return found


def chatter_list(plan: Plan, trace: Trace, vaults: list[Vault]) -> list[dict[str, Any]]:
    """Every late chatter probe that injected its chatter: what was said, when,
    and the injected memory's text and state at the end on each machine."""
    states = _states(vaults)
    found = []
    for number, ids in late_chatter(plan, trace.answers).items():
        answer = trace.answers[number]
        chatter = plan.chatter[answer.question.chatter]
        for memory_id in ids:
            found.append({
                "day": answer.question.day, "said_on": chatter.day, "said": chatter.text,
                "machine": answer.machine, "id": memory_id,
                "text": answer.injected[memory_id], "end_state": states.get(memory_id, []),
            })  # fmt: skip
    return found


def summary(plan: Plan, trace: Trace, vault: Vault) -> dict[str, Any]:
    rows = by_age(plan, trace.answers)
    lost, missing = retired(plan, vault)
    asked, hit = chatter_injected(plan, trace.answers)
    quarters: dict[str, list[float]] = {}
    for answer in trace.answers:
        quarter = f"Q{min(4, answer.question.day * 4 // max(plan.days, 1) + 1)}"
        quarters.setdefault(quarter, []).append(answer.millis)
    latency = {q: round(statistics.median(v), 1) for q, v in sorted(quarters.items())}
    active = {q: trace.active[max(d for d in trace.active if d <= plan.days * i // 4)]
              for i, q in ((1, "Q1"), (2, "Q2"), (3, "Q3"), (4, "Q4"))
              if any(d <= plan.days * i // 4 for d in trace.active)}  # fmt: skip
    injected = sum(r.injected for r in rows.values())
    return {
        "by_age": {
            label: {
                "asked": r.asked,
                "recalled": r.recalled,
                "stale": r.stale,
                "recall": round(r.recalled / r.asked, 3) if r.asked else None,
            }
            for label, r in rows.items()
        },  # fmt: skip
        "stale_share": round(sum(r.stale for r in rows.values()) / injected, 3) if injected else 0,
        "chatter_after_month": {
            "asked": asked,
            "injected": hit,
            "share": round(hit / asked, 3) if asked else None,
        },  # fmt: skip
        "retired": {reason: sorted(labels) for reason, labels in sorted(lost.items())},
        "never_captured": missing,
        "active_by_quarter": active,
        "hook_p50_ms_by_quarter": latency,
        "hook_p50_ms": round(statistics.median(a.millis for a in trace.answers), 1)
        if trace.answers
        else None,
        "questions": len(trace.answers),
        "sessions": len(plan.sessions),
        "syncs": trace.syncs,
        "briefings": trace.briefings,
        "seconds": round(trace.seconds, 1),
    }
