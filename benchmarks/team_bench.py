"""A team on one remote: N people (separate vaults, one bare git remote) each
round write a memory, reinforce two of what they see, now and then keep a
private memory or consolidate two of their own, and `vault sync`, all at once.
Then everyone syncs until they agree, and the bench counts what went wrong.

    .venv/bin/python -m benchmarks.team_bench [--users 10] [--rounds 20] [--json]
        [--max-minutes M]

A sync that fails (a git timeout, a remote that moved on three times) is
counted with its reason and that person's next round syncs again, as a person
would; `--max-minutes` stops starting rounds after M minutes (the rounds done
are reported) and goes on to the final syncs and the checks.
Reports: memories lost (written, then in nobody's vault), conflict markers,
conflicts sync reported, private memories found anywhere in the remote's
history, and whether every reinforcement is counted once on the memories that
are still active (recalls of merged sources go on to the merged memory).
Real git and our merge driver (run by git as `vault merge-driver`).
"""

from __future__ import annotations

import argparse
import json
import random
import subprocess
import sys
import tempfile
import threading
import time
from collections import Counter
from concurrent.futures import ThreadPoolExecutor
from dataclasses import asdict, dataclass, field
from datetime import timedelta
from pathlib import Path

from hooks.daemon.auto_sync import driver_command
from memory.context import ServiceContext
from vault import frontmatter, git_sync
from vault.clock import parse_time
from vault.errors import VaultError
from vault.layout import Vault
from vault.links import wikilink
from vault.store import MemoryStore

T0 = parse_time("2026-01-01T09:00:00Z")
PRIVATE_MARK = "PRIVATE-NOTE-OF"
REPORT_LOCK = threading.Lock()
TOPICS = ("deploys", "testing", "billing", "search", "auth", "oncall", "schema", "release")


@dataclass
class TeamReport:
    users: int
    rounds: int
    rounds_done: int = 0
    syncs_ok: int = 0
    syncs_failed: int = 0
    failures: Counter[str] = field(default_factory=Counter)  # reason -> syncs
    written: int = 0
    reinforcements: int = 0
    merges: int = 0
    private_written: int = 0
    lost: int = 0
    markers: int = 0
    conflicts_reported: int = 0
    private_pushed: int = 0
    duplicates: int = 0  # memories both active and archived in one vault at the end
    moves_refused: int = 0  # consolidations that met an archived copy already there
    recalls_counted: int = 0  # summed over active memories, in the first vault
    vaults_agree: bool = False
    seconds: float = 0.0
    sync_seconds: list[float] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        clean = self.lost == self.markers == self.conflicts_reported == self.private_pushed == 0
        clean = clean and self.duplicates == self.moves_refused == 0
        clean = clean and self.rounds_done == self.rounds
        return clean and self.vaults_agree and self.recalls_counted == self.reinforcements


class Person:
    def __init__(self, number: int, vault: Vault, seed: int) -> None:
        self.number = number
        self.vault = vault
        self.store = MemoryStore(vault)
        self.random = random.Random(seed * 1000 + number)
        self.written: list[str] = []

    def act(self, round_: int, report: TeamReport) -> None:
        """One round's writing: a memory, two reinforcements, maybe more."""
        moment = T0 + timedelta(hours=round_, seconds=self.number)
        memory_id = f"2026-01-01-u{self.number:02d}-r{round_:04d}-note"
        topic = self.random.choice(TOPICS)
        self._create(memory_id, moment, f"Person {self.number} on {topic}, round {round_}.")
        self.written.append(memory_id)
        report.written += 1
        active = sorted(p.stem for p in self.vault.memories_dir.glob("*.md"))
        for other in self.random.sample(active, min(2, len(active))):
            self.store.update(other, lambda r: {"recalls": r.recalls + 1, "last_access": moment})
            report.reinforcements += 1
        if (round_ + self.number) % 5 == 0:
            private = self.vault.memories_dir / "private"
            private.mkdir(exist_ok=True)
            (private / f"mine-{round_:04d}.md").write_text(
                f"---\nid: mine-{round_:04d}\n---\n{PRIVATE_MARK} {self.number}: round {round_}\n"
            )
            report.private_written += 1
        if (round_ + self.number) % 7 == 0:
            try:
                report.merges += self._consolidate(round_, moment)
            except VaultError:  # the source is also in archive/ already (reported)
                report.moves_refused += 1

    def _create(self, memory_id: str, moment: object, text: str, **extra: object) -> None:
        meta = {"id": memory_id, "created": moment, "last_access": moment, "stability": 7.0,
                "tier": "episodic", "recalls": 0, "confirmations": 0, **extra}  # fmt: skip
        self.store.create(memory_id, meta, text + "\n")

    def _consolidate(self, round_: int, moment: object) -> bool:
        """Merge two of this person's active memories, as consolidation writes it."""
        mine = [m for m in self.written if (self.vault.memories_dir / f"{m}.md").is_file()]
        if len(mine) < 2:
            return False
        sources = [self.store.read(m) for m in mine[:2]]
        merged_id = f"2026-01-01-u{self.number:02d}-r{round_:04d}-merged"
        self._create(merged_id, moment, " ".join(r.body.strip() for r in sources),
                     recalls=sum(r.recalls for r in sources),
                     merged_from=[wikilink(r.id) for r in sources])  # fmt: skip
        for record in sources:
            self.store.move(record.id, to_archive=True,
                            mutate=lambda _: {"merged_into": [wikilink(merged_id)]})  # fmt: skip
        self.written.append(merged_id)
        return True

    def sync(self, report: TeamReport) -> bool:
        """One `vault sync`; a failure is counted by its reason, not raised: what
        was not pushed stays committed here and goes with the next sync."""
        start = time.perf_counter()
        try:
            result = git_sync.sync(self.vault, driver_command(), f"user{self.number}")
        except VaultError as error:
            with REPORT_LOCK:
                report.syncs_failed += 1
                report.failures[_reason(str(error))] += 1
            print(f"user{self.number}: sync failed: {error}", file=sys.stderr)
            return False
        with REPORT_LOCK:  # people sync in threads
            report.syncs_ok += 1
            report.sync_seconds.append(time.perf_counter() - start)
            report.conflicts_reported += len(result.conflicts)
            if any("pushed nothing" in note for note in result.notes):
                report.failures["remote kept changing (not pushed)"] += 1
        return True


def _reason(message: str) -> str:
    """A failure's kind, for counting: "git rebase timed out", "git push failed"."""
    what = " ".join(message.split()[:2]) if message.startswith("git ") else message[:60]
    return what + (" timed out" if "took longer than" in message else " failed")


def run(users: int, rounds: int, work: Path, seed: int = 1,
        max_seconds: float = float("inf")) -> TeamReport:  # fmt: skip
    report = TeamReport(users, rounds)
    start = time.perf_counter()
    remote = work / "remote.git"
    subprocess.run(["git", "init", "--quiet", "--bare", str(remote)], check=True)
    people = []
    for number in range(users):
        vault = Vault(work / f"user{number:02d}")
        ServiceContext.init_vault(vault)
        git_sync.init(vault, str(remote), driver_command(), f"user{number}")
        people.append(Person(number, vault, seed))
    with ThreadPoolExecutor(max_workers=users) as pool:
        for round_ in range(rounds):
            if time.perf_counter() - start > max_seconds:
                break
            for person in people:
                person.act(round_, report)
            list(pool.map(lambda p: p.sync(report), people))  # everyone at once
            report.rounds_done = round_ + 1
            print(f"round {round_ + 1}: {time.perf_counter() - start:.0f} s, syncs ok "
                  f"{report.syncs_ok}, failed {report.syncs_failed}", file=sys.stderr)  # fmt: skip
    _settle(people, report)
    _inspect(people, remote, report)
    report.seconds = time.perf_counter() - start
    return report


def _settle(people: list[Person], report: TeamReport, passes: int = 5) -> None:
    """Everyone syncs in turn until a whole pass (after the first two) fails no
    sync: then everyone has everything."""
    for number in range(passes):
        failed = sum(not person.sync(report) for person in people)
        if number >= 1 and not failed:
            people[0].sync(report)  # takes in what the last ones pushed
            return


def _inspect(people: list[Person], remote: Path, report: TeamReport) -> None:
    written = {m for person in people for m in person.written}
    heads = set()
    for person in people:
        vault = person.vault
        files = [*vault.memory_files()]
        present = {path.stem for path in files}
        report.lost += len(written - present)
        report.markers += sum("<<<<<<<" in path.read_text() for path in files)
        active = {path.stem for path in vault.memory_files(archived=False)}
        report.duplicates += len(active & {path.stem for path in vault.memory_files(archived=True)})
        heads.add(subprocess.run(["git", "rev-parse", "HEAD"], cwd=vault.root, text=True,
                                 capture_output=True, check=True).stdout)  # fmt: skip
    report.vaults_agree = len(heads) == 1
    first = people[0].vault
    report.recalls_counted = sum(
        int(frontmatter.parse(path.read_text()).meta.get("recalls") or 0)
        for path in first.memory_files(archived=False)
        if "private" not in path.parts
    )
    history = subprocess.run(["git", "log", "--all", "-p"], cwd=remote, text=True,
                             capture_output=True, check=True).stdout  # fmt: skip
    report.private_pushed = history.count(PRIVATE_MARK)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--users", type=int, default=10)
    parser.add_argument("--rounds", type=int, default=20)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--max-minutes", type=float, default=float("inf"))
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="team-bench-") as folder:
        report = run(args.users, args.rounds, Path(folder), args.seed, args.max_minutes * 60)
    numbers = {k: v for k, v in asdict(report).items() if k != "sync_seconds"}
    numbers["failures"] = dict(report.failures)
    times = sorted(report.sync_seconds)
    numbers["sync_p50_s"] = round(times[len(times) // 2], 2)
    numbers["sync_max_s"] = round(times[-1], 2)
    numbers["ok"] = report.ok
    if args.json:
        print(json.dumps(numbers))
        return
    for key, value in numbers.items():
        print(f"{key:22} {value}")


if __name__ == "__main__":
    main()
