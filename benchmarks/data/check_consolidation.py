"""Validate consolidation_set.json and print its counts.

Checks that every referenced id exists, no memory sits in two duplicate groups,
each contradiction's newer memory really is newer, the structures do not
contradict each other, and the size minimums of the brief hold. Exit status 1
and a list of problems when anything fails. Usage:
    python3 check_consolidation.py [path/to/consolidation_set.json]
"""

from __future__ import annotations

import json
import re
import sys
from collections import Counter
from datetime import datetime
from itertools import combinations
from pathlib import Path
from typing import Any

KINDS = {"preference", "decision", "fact", "procedure", "episode"}
TOP_KEYS = {
    "memories",
    "duplicate_groups",
    "contradictions",
    "hard_negatives",
    "themes",
    "gist",
    "queries",
}
PROJECT = re.compile(r"^(|github\.com/[\w.-]+/[\w.-]+)$")
CHANGE_WORDS = re.compile(r"\b(moved|switched|no longer|now|gone|lowered|raised|changed)\b", re.I)

problems: list[str] = []


def fail(message: str) -> None:
    problems.append(message)


def sentences(text: str) -> int:
    # Split on a full stop/question/exclamation followed by a space and a capital or digit.
    return len(re.split(r"(?<=[.!?])\s+(?=[A-Z0-9'`])", text.strip()))


def check_memories(data: dict[str, Any]) -> dict[str, dict[str, Any]]:
    by_id: dict[str, dict[str, Any]] = {}
    for m in data["memories"]:
        mid = m.get("id", "")
        if set(m) != {"id", "created", "kind", "project", "topic", "text"}:
            fail(f"{mid}: fields are {sorted(m)}")
        if not re.fullmatch(r"m\d{3}", mid) or mid in by_id:
            fail(f"bad or repeated id {mid!r}")
        by_id[mid] = m
        m["_t"] = datetime.fromisoformat(m["created"].replace("Z", "+00:00"))
        if m["kind"] not in KINDS:
            fail(f"{mid}: kind {m['kind']!r}")
        if not PROJECT.match(m["project"]):
            fail(f"{mid}: project {m['project']!r}")
        if not m["topic"] or not m["text"].strip():
            fail(f"{mid}: empty topic or text")
        limit = (4, 6) if m["kind"] == "episode" else (1, 3)
        if not limit[0] <= sentences(m["text"]) <= limit[1]:
            fail(f"{mid}: {sentences(m['text'])} sentences for kind {m['kind']}")
    return by_id


def known(by_id: dict[str, Any], ids: list[str], where: str) -> None:
    for mid in ids:
        if mid not in by_id:
            fail(f"{where}: unknown id {mid}")


def check_duplicates(data: dict[str, Any], by_id: dict[str, Any]) -> dict[str, int]:
    group_of: dict[str, int] = {}
    for n, g in enumerate(data["duplicate_groups"]):
        known(by_id, g["members"], f"duplicate_groups[{n}]")
        if not 2 <= len(g["members"]) <= 8 or len(set(g["members"])) != len(g["members"]):
            fail(f"duplicate_groups[{n}]: {len(g['members'])} members (want 2-8, distinct)")
        if not isinstance(g["distinct_facts"], list):
            fail(f"duplicate_groups[{n}]: distinct_facts must be a list")
        for mid in g["members"]:
            if mid in group_of:
                fail(f"{mid} is in duplicate groups {group_of[mid]} and {n}")
            group_of[mid] = n
        if len({by_id[m]["project"] for m in g["members"] if m in by_id}) > 1:
            fail(f"duplicate_groups[{n}]: members from different projects")
    sizes = [len(g["members"]) for g in data["duplicate_groups"]]
    if sum(s >= 5 for s in sizes) < 8:
        fail("fewer than 8 duplicate groups of 5-8 members")
    if sum(s <= 4 for s in sizes) < 12:
        fail("fewer than 12 duplicate groups of 2-4 members (about 15 wanted)")
    return group_of


def check_contradictions(
    data: dict[str, Any], by_id: dict[str, Any], group_of: dict[str, int]
) -> set[frozenset[str]]:
    pairs: set[frozenset[str]] = set()
    for n, c in enumerate(data["contradictions"]):
        old, new = c["older"], c["newer"]
        known(by_id, [old, new], f"contradictions[{n}]")
        if old not in by_id or new not in by_id:
            continue
        if not by_id[new]["_t"] > by_id[old]["_t"]:
            fail(f"contradictions[{n}]: newer {new} is not newer than {old}")
        if by_id[new]["project"] != by_id[old]["project"]:
            fail(f"contradictions[{n}]: {old} and {new} are in different projects")
        if not c["subject"] or not isinstance(c["explicit"], bool):
            fail(f"contradictions[{n}]: subject/explicit")
        if c["explicit"] != bool(CHANGE_WORDS.search(by_id[new]["text"])):
            fail(f"contradictions[{n}]: explicit={c['explicit']} but text of {new} disagrees")
        if group_of.get(old, -1) == group_of.get(new, -2):
            fail(f"contradictions[{n}]: {old} and {new} are in one duplicate group")
        pairs.add(frozenset((old, new)))
    return pairs


def check_pairs_apart(
    data: dict[str, Any],
    by_id: dict[str, Any],
    group_of: dict[str, int],
    contra: set[frozenset[str]],
) -> None:
    for section in ("hard_negatives", "themes"):
        for n, item in enumerate(data[section]):
            members = item["members"]
            known(by_id, members, f"{section}[{n}]")
            for a, b in combinations(members, 2):
                if a in group_of and group_of[a] == group_of.get(b):
                    fail(f"{section}[{n}]: {a} and {b} are in one duplicate group")
                if frozenset((a, b)) in contra:
                    fail(f"{section}[{n}]: {a} and {b} are a contradiction pair")
    for n, h in enumerate(data["hard_negatives"]):
        if len(h["members"]) < 2 or not h["why"]:
            fail(f"hard_negatives[{n}]: needs 2+ members and a why")
    for n, t in enumerate(data["themes"]):
        if not 3 <= len(t["members"]) <= 6 or not t["pattern"]:
            fail(f"themes[{n}]: {len(t['members'])} members (want 3-6) and a pattern")
    if len(data["themes"]) < 8:
        fail("fewer than 8 themes")


def check_gist(data: dict[str, Any], by_id: dict[str, Any]) -> None:
    for g in data["gist"]:
        m = by_id.get(g["id"])
        if m is None:
            fail(f"gist: unknown id {g['id']}")
            continue
        if g["gist_must_keep"].lower() not in m["text"].lower():
            fail(f"gist {g['id']}: {g['gist_must_keep']!r} is not in its text")
        if sentences(m["text"]) < 4:
            fail(f"gist {g['id']}: fewer than 4 sentences (3+ of context, one decision)")
    if len({g["id"] for g in data["gist"]}) < 15:
        fail("fewer than 15 gist memories")


def check_queries(data: dict[str, Any], by_id: dict[str, Any]) -> None:
    newer_of: dict[str, set[str]] = {}
    for c in data["contradictions"]:
        newer_of.setdefault(c["older"], set()).add(c["newer"])
    for n, q in enumerate(data["queries"]):
        rel, stale = q["relevant"], q["stale"]
        known(by_id, rel + stale, f"queries[{n}]")
        if not q["query"].strip() or not rel or set(rel) & set(stale):
            fail(f"queries[{n}]: empty, no relevant, or relevant overlaps stale")
        for mid in rel:
            if mid in newer_of:
                fail(f"queries[{n}]: relevant {mid} is superseded")
        for mid in stale:
            if mid not in newer_of:
                fail(f"queries[{n}]: stale {mid} is not the older side of any contradiction")
            elif not newer_of[mid] & set(rel):
                fail(f"queries[{n}]: nothing in relevant supersedes stale {mid}")
    if len(data["queries"]) < 40:
        fail("fewer than 40 queries")
    covered = {mid for q in data["queries"] for mid in q["relevant"]}
    for c in data["contradictions"]:
        if c["newer"] not in covered and not newer_of.get(c["newer"]):
            fail(f"contradiction subject {c['subject']!r}: no query has its newest memory")
    for n, g in enumerate(data["duplicate_groups"]):
        if len(g["members"]) >= 5 and not covered & set(g["members"]):
            fail(f"duplicate_groups[{n}]: no query covers it")
    for n, t in enumerate(data["themes"]):
        if not any(len(set(q["relevant"]) & set(t["members"])) >= 2 for q in data["queries"]):
            fail(f"themes[{n}]: no query covers two of its members")


def report(data: dict[str, Any], by_id: dict[str, Any], group_of: dict[str, int]) -> None:
    mems = data["memories"]
    contra = data["contradictions"]
    sizes = Counter(len(g["members"]) for g in data["duplicate_groups"])
    in_structure: set[str] = set(group_of)
    for c in contra:
        in_structure.update((c["older"], c["newer"]))
    for section in ("hard_negatives", "themes"):
        for item in data[section]:
            in_structure.update(item["members"])
    in_structure.update(g["id"] for g in data["gist"])
    times = sorted(m["_t"] for m in mems)
    subjects = Counter(c["subject"] for c in contra)
    older_per_subject: dict[str, set[str]] = {}
    for c in contra:
        older_per_subject.setdefault(c["subject"], set()).add(c["older"])
    chain_subjects = [
        s
        for s, olds in older_per_subject.items()
        if {c["newer"] for c in contra if c["subject"] == s} & olds
    ]
    if len(chain_subjects) < 3:
        fail("fewer than 3 contradiction chains (A then B then C)")
    print(f"memories: {len(mems)}  ({times[0]:%Y-%m-%d} .. {times[-1]:%Y-%m-%d})")
    print("  kinds:", dict(Counter(m["kind"] for m in mems)))
    print("  projects:", dict(Counter(m["project"] or '""' for m in mems)))
    print(
        f"  in no structure (ordinary): {len(mems) - len(in_structure)}"
        f" ({(len(mems) - len(in_structure)) / len(mems):.0%})"
    )
    print(
        f"duplicate groups: {len(data['duplicate_groups'])}"
        f"  (5-8 members: {sum(v for k, v in sizes.items() if k >= 5)},"
        f" 2-4 members: {sum(v for k, v in sizes.items() if k <= 4)});"
        f" sizes {dict(sorted(sizes.items()))}; members {len(group_of)};"
        f" distinct facts {sum(len(g['distinct_facts']) for g in data['duplicate_groups'])}"
    )
    print(
        f"contradictions: {len(contra)} pairs over {len(subjects)} subjects;"
        f" explicit {sum(c['explicit'] for c in contra)}, implicit"
        f" {sum(not c['explicit'] for c in contra)}; chains of three: {len(chain_subjects)}"
    )
    print(
        f"hard negatives: {len(data['hard_negatives'])} sets,"
        f" {len({m for h in data['hard_negatives'] for m in h['members']})} memories"
    )
    print(
        f"themes: {len(data['themes'])}, members {sum(len(t['members']) for t in data['themes'])}"
    )
    print(f"gist: {len(data['gist'])}")
    print(
        f"queries: {len(data['queries'])}, with stale ids:"
        f" {sum(bool(q['stale']) for q in data['queries'])}"
    )


def main() -> int:
    path = Path(
        sys.argv[1] if len(sys.argv) > 1 else Path(__file__).with_name("consolidation_set.json")
    )
    data = json.loads(path.read_text(encoding="utf-8"))
    if not set(data) >= TOP_KEYS:
        fail(f"missing top-level keys: {sorted(TOP_KEYS - set(data))}")
        return finish()
    by_id = check_memories(data)
    if len(by_id) < 150:
        fail(f"only {len(by_id)} memories (want 150+)")
    group_of = check_duplicates(data, by_id)
    contra = check_contradictions(data, by_id, group_of)
    if len(contra) < 20:
        fail("fewer than 20 contradiction pairs")
    check_pairs_apart(data, by_id, group_of, contra)
    check_gist(data, by_id)
    check_queries(data, by_id)
    report(data, by_id, group_of)
    return finish()


def finish() -> int:
    for p in problems:
        print("PROBLEM:", p)
    print("OK" if not problems else f"{len(problems)} problem(s)")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
