"""The year benchmark's timeline: which durable statements, restatements, changes
of mind, chatter and questions happen on which day, in which project, grouped
into Claude Code sessions. Pure and seeded: it reads benchmarks/data/year_world.json
and draws; it knows nothing of capture, recall or consolidation rules.
"""

from __future__ import annotations

import json
import random
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

WORLD = Path(__file__).parent / "data" / "year_world.json"
WEEKLY = 3  # items asked about every week
# When a question comes after its statement (days): ranges and their weights.
DELAYS = ((1, 7, 2), (8, 30, 3), (31, 90, 3), (91, 180, 2), (181, 270, 2), (271, 360, 1))


@dataclass
class Item:
    """One durable subject: its versions (day, value) and every statement of it."""

    number: int
    family: str
    kind: str
    subject: str
    tag: str
    project: str
    versions: list[tuple[int, str]] = field(default_factory=list)
    said: list[tuple[int, str]] = field(default_factory=list)  # (day, text)

    def value_at(self, day: int) -> str | None:
        current = None
        for start, value in self.versions:
            if start <= day:
                current = value
        return current

    def since(self, day: int) -> int:
        """The day the value true on `day` was first stated."""
        return max(start for start, _ in self.versions if start <= day)


@dataclass(frozen=True)
class Chatter:
    number: int
    subject: str
    day: int
    project: str
    text: str


@dataclass(frozen=True)
class Question:
    day: int
    text: str
    project: str
    item: int = -1  # an Item's number, or -1 for a chatter probe
    chatter: int = -1
    weekly: bool = False


@dataclass
class Session:
    day: int
    project: str
    number: int
    turns: list[tuple[str, str, Question | None]] = field(default_factory=list)
    crashed: bool = False  # no Stop or SessionEnd after its last turn: the sweep captures it


@dataclass
class Plan:
    days: int
    projects: list[str]
    items: list[Item]
    chatter: list[Chatter]
    questions: list[Question]
    sessions: list[Session]


def load_world() -> dict[str, Any]:
    world: dict[str, Any] = json.loads(WORLD.read_text(encoding="utf-8"))
    return world


def _fill(template: str, subject: str, value: str, old: str = "", reason: str = "") -> str:
    text = template.format(s=subject, v=value, o=old, r=reason)
    return text[0].upper() + text[1:]


def _items(world: dict[str, Any], rng: random.Random, days: int, projects: list[str]) -> list[Item]:
    items: list[Item] = []
    last = max(1, int(days * 0.55))  # statements early enough to be asked about later
    per_family = max(2, min(6, days // 20))
    for family in world["families"]:
        values = list(family["values"])
        rng.shuffle(values)
        reasons = family.get("reasons", [""])
        for subject, tag in family["subjects"][:per_family]:
            item = Item(len(items), family["name"], family["kind"], subject, tag,
                        rng.choice(projects))  # fmt: skip
            start = rng.randint(0, last)
            value = values.pop()
            item.versions.append((start, value))
            item.said.append((start, _fill(rng.choice(family["say"][:1]), subject, value,
                                           reason=rng.choice(reasons))))  # fmt: skip
            if rng.random() < 0.35:  # restated later in other words
                again = start + rng.randint(10, max(10, min(60, days // 3)))
                if again < days:
                    item.said.append((again, _fill(family["say"][1], subject, value,
                                                   reason=rng.choice(reasons))))  # fmt: skip
            if family["changes"] and rng.random() < 0.5:
                moved = start + rng.randint(15, max(15, min(150, days // 2)))
                if moved < days - 1:
                    new = values.pop()
                    item.versions.append((moved, new))
                    item.said.append((moved, _fill(family["change"][0], subject, new, value)))
            items.append(item)
    return items


def _delay(rng: random.Random) -> int:
    low, high, _ = rng.choices(DELAYS, weights=[w for _, _, w in DELAYS])[0]
    return rng.randint(low, high)


def _questions(
    world: dict[str, Any], rng: random.Random, days: int, items: list[Item]
) -> list[Question]:
    families = {f["name"]: f for f in world["families"]}
    asked: list[Question] = []
    for item in items:
        asks = families[item.family]["ask"]
        start = item.versions[0][0]
        for _ in range(3):
            day = start + _delay(rng)
            if day < days:
                text = _fill(rng.choice(asks), item.subject, "")
                asked.append(Question(day, text, _project(rng, item.project), item.number))
    for item in rng.sample(items, min(WEEKLY, len(items))):
        asks = families[item.family]["ask"]
        for day in range(item.versions[0][0] + 7, days, 7):
            text = _fill(asks[(day // 7) % len(asks)], item.subject, "")
            asked.append(Question(day, text, item.project, item.number, weekly=True))
    return asked


def _project(rng: random.Random, home: str) -> str:
    """Mostly asked in the item's own project, sometimes from another one."""
    return home if rng.random() < 0.8 else ""


def _chatter(
    world: dict[str, Any], rng: random.Random, days: int, projects: list[str]
) -> tuple[list[Chatter], list[Question]]:
    said: list[Chatter] = []
    probes: list[Question] = []
    spec = world["chatter"]
    for day in range(days):
        if day % 7 in (5, 6) or rng.random() < 0.5:
            continue
        subject = rng.choice(spec["subjects"])
        text = _fill(rng.choice(spec["say"]), subject, "")
        chatter = Chatter(len(said), subject, day, rng.choice(projects), text)
        said.append(chatter)
        late = rng.random() < 0.5  # half the probes come over a month later
        probe = day + (rng.randint(31, max(31, min(120, days))) if late else rng.randint(1, 30))
        if probe < days:
            ask = _fill(rng.choice(spec["ask"]), subject, "")
            probes.append(Question(probe, ask, chatter.project, chatter=chatter.number))
    return said, probes


def _sessions(world: dict[str, Any], rng: random.Random, plan: Plan) -> list[Session]:
    """One session per (day, project) with something said or asked; questions
    come first, then statements, each with a short reply and some filler."""
    by_day: dict[tuple[int, str], Session] = {}

    def session(day: int, project: str) -> Session:
        key = (day, project or plan.projects[day % len(plan.projects)])
        if key not in by_day:
            by_day[key] = Session(day, key[1], len(by_day))
        return by_day[key]

    for question in plan.questions:
        session(question.day, question.project).turns.append(("user", question.text, question))
    for item in plan.items:
        for day, text in item.said:
            session(day, item.project).turns.append(("user", text, None))
    for chatter in plan.chatter:
        session(chatter.day, chatter.project).turns.append(("user", chatter.text, None))
    sessions = sorted(by_day.values(), key=lambda s: (s.day, s.number))
    for number, found in enumerate(sessions):
        found.number = number
        asked = [t for t in found.turns if t[2] is not None]
        said = [t for t in found.turns if t[2] is None]
        rng.shuffle(said)
        filler = [("user", rng.choice(world["filler"]), None)] if rng.random() < 0.5 else []
        found.turns = asked + filler + said
        found.crashed = rng.random() < 0.1
    return sessions


def make_plan(days: int, seed: int, projects: int = 4) -> Plan:
    world = load_world()
    rng = random.Random(seed)
    names = world["projects"][:projects]
    items = _items(world, rng, days, names)
    questions = _questions(world, rng, days, items)
    chatter, probes = _chatter(world, rng, days, names)
    plan = Plan(days, names, items, chatter, sorted(questions + probes, key=lambda q: q.day), [])
    plan.sessions = _sessions(world, rng, plan)
    return plan
