"""Drive a year plan through the real paths, in-process: every hook event goes
through the daemon's own operations (hooks/ops/table.py `dispatch_reply`, its
follow-up and idle steps run at once, as a quiet daemon runs them) at the
simulated clock, the `now` a hook passes from VAULT_NOW. Sessions are written
as Claude Code JSONL transcripts; Stop and SessionEnd capture them, a crashed
one is left to the next SessionStart's sweep (which also runs the daily
maintenance and the automatic consolidation); SessionStart's briefing is
built; for part of the year a second machine shares the vault by `vault sync`
(the same git_sync calls the command makes).
"""

from __future__ import annotations

import json
import re
import subprocess
import time
import uuid
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

from benchmarks.year_plan import Plan, Question, Session
from hooks.claude_code.session import briefing
from hooks.daemon.auto_sync import driver_command
from hooks.ops.table import dispatch_reply
from indexer.embedder import SentenceTransformerEmbedder
from indexer.index import VaultIndex
from memory.service import MemoryService
from vault import git_sync
from vault.clock import fixed_clock, format_time
from vault.config import load_settings
from vault.layout import Vault

START = datetime.fromisoformat("2026-01-05T09:00:00+00:00")
INJECTED_ID = re.compile(r"id ([A-Za-z0-9_.-]+)\]")
REPLY = "Sure, let me look at that."


@dataclass(frozen=True)
class Answer:
    """What the prompt hook injected for one question, and what each id said then."""

    question: Question
    injected: dict[str, str]  # id -> text
    created: dict[str, str]  # id -> when the memory was created
    millis: float
    machine: str


@dataclass
class Trace:
    answers: list[Answer] = field(default_factory=list)
    active: dict[int, int] = field(default_factory=dict)  # day -> active memories
    briefings: int = 0
    syncs: int = 0
    seconds: float = 0.0


class Machine:
    """One machine's vault, index and the Claude config folder its sessions write to."""

    def __init__(self, root: Path, name: str, env: dict[str, str], embedder: Any) -> None:
        self.name = name
        self.env = env
        self.vault = Vault(root / "vault")
        MemoryService.init_vault(self.vault)
        self.claude = root / "claude"
        (self.claude / "projects").mkdir(parents=True, exist_ok=True)
        settings = load_settings(self.vault.config_path, env)
        index = VaultIndex(self.vault, settings, embedder=embedder)
        self.service = MemoryService(self.vault, settings, fixed_clock(START), index,
                                     auto_sync=False)  # fmt: skip

    def op(self, name: str, args: dict[str, Any], now: datetime) -> Any:
        reply = dispatch_reply(self.service, name, {**args, "now": format_time(now)})
        for step in (*reply.steps, *reply.idle_steps):
            step()
        return reply.result

    def active(self) -> int:
        return sum(1 for _ in self.vault.memories_dir.rglob("*.md"))


def _workspaces(root: Path, projects: list[str]) -> dict[str, Path]:
    """A git checkout per project, so project identity comes from its origin."""
    found = {}
    for name in projects:
        folder = root / "work" / name
        folder.mkdir(parents=True, exist_ok=True)
        subprocess.run(["git", "init", "-q", str(folder)], check=True)
        subprocess.run(["git", "-C", str(folder), "remote", "add", "origin",
                        f"git@github.com:devco/{name}.git"], check=True)  # fmt: skip
        found[name] = folder
    return found


def _line(kind: str, text: str, session: str, cwd: Path, at: datetime) -> str:
    line: dict[str, Any] = {
        "type": kind, "uuid": str(uuid.uuid4()), "isSidechain": False, "cwd": str(cwd),
        "sessionId": session, "userType": "external", "version": "2.1.328",
        "timestamp": at.strftime("%Y-%m-%dT%H:%M:%S.000Z"),
    }  # fmt: skip
    if kind == "user":
        line["message"] = {"role": "user", "content": text}
    else:
        line["message"] = {"id": f"msg_{uuid.uuid4().hex[:12]}", "role": "assistant",
                           "model": "claude-sonnet-5", "stop_reason": "end_turn",
                           "content": [{"type": "text", "text": text}]}  # fmt: skip
    return json.dumps(line) + "\n"


class YearRun:
    def __init__(self, plan: Plan, root: Path, env: dict[str, str], sync_days: range) -> None:
        self.plan = plan
        self.root = root
        self.sync_days = sync_days
        embedder = SentenceTransformerEmbedder()
        self.machines = [Machine(root / "a", "laptop", env, embedder)]
        self.second_env = env
        self.embedder = embedder
        self.work = _workspaces(root, plan.projects)
        self.trace = Trace()

    def run(self, progress: Callable[[int], None] | None = None) -> Trace:
        started = time.perf_counter()
        last_day = -1
        for session in self.plan.sessions:
            if session.day != last_day:
                self._new_day(session.day)
                last_day = session.day
                if progress is not None:
                    progress(session.day)
            self._session(session)
        self.trace.seconds = time.perf_counter() - started
        for machine in self.machines:
            machine.service.index.close()
        return self.trace

    def _new_day(self, day: int) -> None:
        now = START + timedelta(days=day)
        if day in self.sync_days:
            if len(self.machines) == 1:
                self._second_machine(now)
            self._sync_all(now)
        self.trace.active[day] = self.machines[0].active()

    def _second_machine(self, now: datetime) -> None:
        remote = self.root / "remote.git"
        subprocess.run(["git", "init", "-q", "--bare", str(remote)], check=True)
        first = self.machines[0]
        git_sync.init(first.vault, str(remote), driver_command(), first.name)
        second = Machine(self.root / "b", "desktop", self.second_env, self.embedder)
        git_sync.init(second.vault, str(remote), driver_command(), second.name)
        second.op("sync", {}, now)
        self.machines.append(second)

    def _sync_all(self, now: datetime) -> None:
        for machine in self.machines:
            result = git_sync.sync(machine.vault, driver_command(), machine.name, now)
            if result.pulled:
                machine.op("sync", {}, now)
            self.trace.syncs += 1

    def _machine(self, session: Session) -> Machine:
        """Within the sync window every other day's work happens on the second machine."""
        second = len(self.machines) > 1 and session.day in self.sync_days and session.day % 2
        return self.machines[1] if second else self.machines[0]

    def _session(self, session: Session) -> None:
        machine = self._machine(session)
        cwd = self.work[session.project]
        sid = str(uuid.UUID(int=session.number + 1))
        folder = machine.claude / "projects" / str(cwd).replace("/", "-")
        folder.mkdir(parents=True, exist_ok=True)
        transcript = folder / f"{sid}.jsonl"
        now = START + timedelta(days=session.day, hours=session.number % 6)
        claude = {"claude_config_dir": str(machine.claude)}
        machine.op("sweep", claude, now)  # SessionStart: sweep, then the briefing
        env = {**machine.env, "VAULT_NOW": format_time(now)}
        if briefing(machine.vault.root, str(cwd), env):
            self.trace.briefings += 1
        for number, (_, text, question) in enumerate(session.turns):
            at = now + timedelta(minutes=2 * number + 1)
            if question is not None:
                self._ask(machine, question, text, sid, cwd, at)
            with transcript.open("a", encoding="utf-8") as handle:
                handle.write(_line("user", text, sid, cwd, at))
                handle.write(_line("assistant", REPLY, sid, cwd, at + timedelta(seconds=30)))
            if session.crashed and number == len(session.turns) - 1:
                return  # no Stop, no SessionEnd: the next sweep finds it
            stop = {**claude, "transcript": str(transcript), "session": sid, "project": ""}
            machine.op("capture", stop, at + timedelta(minutes=1))  # Stop
        machine.op("capture", stop, at + timedelta(minutes=2))  # SessionEnd

    def _ask(
        self, machine: Machine, question: Question, text: str, sid: str, cwd: Path, at: datetime
    ) -> None:
        event = {"prompt": text, "session_id": sid, "cwd": str(cwd),
                 "hook_event_name": "UserPromptSubmit"}  # fmt: skip
        started = time.perf_counter()
        reply = dispatch_reply(machine.service, "prompt_event",
                               {"event": event, "now": format_time(at)})  # fmt: skip
        millis = (time.perf_counter() - started) * 1000
        for step in (*reply.steps, *reply.idle_steps):
            step()
        output = str(reply.result.get("output", "")) if isinstance(reply.result, dict) else ""
        ids = INJECTED_ID.findall(output)
        texts = {memory_id: machine.service.index.body(memory_id) or "" for memory_id in ids}
        rows = {memory_id: machine.service.index.row(memory_id) for memory_id in ids}
        created = {memory_id: row.created for memory_id, row in rows.items() if row is not None}
        self.trace.answers.append(Answer(question, texts, created, millis, machine.name))
