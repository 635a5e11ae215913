"""The hedged ids shown to a session, kept for its next prompt's "yes"."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from hooks.claude_code import confirmation
from hooks.claude_code.confirmation import Shown, affirms, previous, settle
from hooks.claude_code.prompt_answer import answer_prompt

NOTHING = Shown([], -1.0, True)  # a prompt that took nothing


def remember(root: Path, session: str, ids: list[str], at: float) -> None:
    settle(root, session, NOTHING, ids, at)


def test_shown_ids_are_taken_once_by_their_session(tmp_path: Path) -> None:
    remember(tmp_path, "s1", ["a", "b"], 1.0)
    remember(tmp_path, "s2", ["c"], 2.0)
    before = previous(tmp_path, "s1")
    assert before.ids == ["a", "b"]
    assert settle(tmp_path, "s1", before, [], 3.0) == ["a", "b"]
    assert previous(tmp_path, "s1").ids == []  # consumed
    assert settle(tmp_path, "s1", before, [], 4.0) == []  # a second look takes nothing
    assert settle(tmp_path, "s2", previous(tmp_path, "s2"), [], 5.0) == ["c"]
    assert affirms("yeah, still applies")
    assert not affirms("no, that's outdated")


def test_a_late_write_never_undoes_a_later_prompt(tmp_path: Path) -> None:
    remember(tmp_path, "s1", [], 2.0)  # the second prompt's state, written first
    remember(tmp_path, "s1", ["a"], 1.0)  # the first prompt's, late
    assert previous(tmp_path, "s1").ids == []


def test_the_oldest_sessions_make_room_not_the_first_in_sorted_order(tmp_path: Path) -> None:
    # names that sort against their age: "z..." recorded first, "a..." last
    names = [f"{chr(ord('z') - n // 10)}{n:03d}" for n in range(200)]
    for at, name in enumerate(names, 1):
        remember(tmp_path, name, [name], float(at))
    remember(tmp_path, "newest", ["x"], 1000.0)
    kept = json.loads((tmp_path / ".state" / "shown.json").read_text(encoding="utf-8"))
    assert len(kept) == 200
    assert names[0] not in kept  # the oldest went
    assert names[-1] in kept
    assert "newest" in kept


def test_an_entry_written_by_an_older_version_is_still_read(tmp_path: Path) -> None:
    state = tmp_path / ".state"
    state.mkdir()
    (state / "shown.json").write_text(json.dumps({"s1": ["a"]}), encoding="utf-8")
    remember(tmp_path, "s2", ["b"], 1.0)
    assert settle(tmp_path, "s1", previous(tmp_path, "s1"), [], 2.0) == ["a"]
    assert settle(tmp_path, "s2", previous(tmp_path, "s2"), [], 3.0) == ["b"]


def test_only_the_hedges_that_fit_the_injected_text_are_remembered(tmp_path: Path) -> None:
    """Five hedged memories, room for one: a later "yes" confirms only that one."""
    from hooks.claude_code.prompt_answer import answer_prompt

    long_text = "The staging database is refreshed from production every night. " * 8
    activated = [
        {"id": f"hedge-{n}", "text": long_text, "tier": "episodic", "age_days": 19.0}
        for n in range(5)
    ]
    confirmed: list[str] = []
    answer = answer_prompt(
        tmp_path, "how is staging refreshed?", "s1",
        lambda: {"confident": [], "activated": activated}, confirmed.extend, 700,
    )  # fmt: skip
    injected = json.loads(answer.line)["hookSpecificOutput"]["additionalContext"]
    visible = [hit["id"] for hit in activated if f"id {hit['id']}]" in injected]
    assert visible == ["hedge-0"]
    assert not (tmp_path / ".state").exists()  # nothing written before the line is out
    for step in answer.later:
        step()
    assert previous(tmp_path, "s1").ids == ["hedge-0"]
    yes = answer_prompt(
        tmp_path, "yeah, still applies", "s1",
        lambda: {"confident": [], "activated": []}, confirmed.extend, 700,
    )  # fmt: skip
    assert confirmed == []  # confirming waits for the line too
    for step in yes.later:
        step()
    assert confirmed == ["hedge-0"]


# previous + settle from real processes (the hook answering on its own, no daemon):
# each waits at a barrier inside JsonState.update (the lock's way in), so every
# process has done its unlocked look before any takes.
TAKER = """
import json, os, sys, time
from pathlib import Path
import vault.state
from hooks.claude_code.confirmation import previous, settle

root, barrier, parties = Path(sys.argv[1]), Path(sys.argv[2]), int(sys.argv[3])
original = vault.state.JsonState.update

def at_the_barrier(self, change):
    (barrier / str(os.getpid())).touch()
    deadline = time.monotonic() + 60
    while len(list(barrier.iterdir())) < parties and time.monotonic() < deadline:
        time.sleep(0.01)
    return original(self, change)

vault.state.JsonState.update = at_the_barrier
before = previous(root, "s1")
print(json.dumps(settle(root, "s1", before, [], time.time())))
"""


def test_two_prompts_at_once_never_both_take_the_hedges(tmp_path: Path) -> None:
    import subprocess
    import sys

    remember(tmp_path, "s1", ["hedge-a"], 1.0)
    barrier = tmp_path / "barrier"
    barrier.mkdir()
    takers = [
        subprocess.Popen(
            [sys.executable, "-c", TAKER, str(tmp_path), str(barrier), "4"],
            stdout=subprocess.PIPE,
            text=True,
        )
        for _ in range(4)
    ]
    taken = [json.loads(p.communicate(timeout=120)[0]) for p in takers]
    assert sorted(taken) == [[], [], [], ["hedge-a"]]  # a "yes" confirms once, not 4 times


@pytest.mark.parametrize(
    ("reply", "confirms"),
    [
        ("yeah, still applies", True),
        ("Yes.", True),
        ("that's right", True),
        ("good call", True),
        ("no, that's outdated", False),
        ("yeah, but that's not true any more", False),
        ("yes it doesn't apply to this repo", False),
        ("right, we don't do that now", False),
        ("correct me if I'm wrong, but", False),
        ("how do I rename a git branch?", False),
        ("", False),
        ("yesterday's deploy failed", False),
    ],
)
def test_only_a_clear_yes_without_a_negation_affirms(reply: str, confirms: bool) -> None:
    assert affirms(reply) is confirms


# What a reply does, through answer_prompt (the hook's and the daemon's path) -------

ONE_HEDGE = {"confident": [], "activated": [{"id": "hedge-a", "text": "Staging is refreshed "
             "nightly.", "tier": "episodic", "age_days": 19.0}]}  # fmt: skip
NO_HITS: dict[str, list[dict[str, object]]] = {"confident": [], "activated": []}


def reply(root: Path, prompt: str, session: str, tiers: dict, confirmed: list[str]) -> str:
    """The hook's line, after which the writes that waited for it are done."""
    answer = answer_prompt(root, prompt, session, lambda: tiers, confirmed.extend, 700)
    for step in answer.later:
        step()
    return answer.line


def test_a_no_or_another_sessions_yes_confirms_nothing(tmp_path: Path) -> None:
    confirmed: list[str] = []
    reply(tmp_path, "how is staging refreshed?", "s1", ONE_HEDGE, confirmed)
    reply(tmp_path, "yes, exactly", "s2", NO_HITS, confirmed)  # another session's yes
    reply(tmp_path, "no, that changed last month", "s1", NO_HITS, confirmed)
    reply(tmp_path, "yes, exactly", "s1", NO_HITS, confirmed)  # the no consumed the record
    assert confirmed == []


def test_a_yes_answered_before_the_previous_prompts_write_still_confirms(tmp_path: Path) -> None:
    """The daemon answers a session's prompts in order, but a step may yield: the
    "yes" is answered and its writes done before the hedged prompt's own write."""
    confirmed: list[str] = []
    shown = answer_prompt(tmp_path, "how is staging refreshed?", "s1", lambda: ONE_HEDGE,
                          confirmed.extend, 700)  # fmt: skip
    yes = answer_prompt(tmp_path, "yes, exactly", "s1", lambda: NO_HITS, confirmed.extend, 700)
    for step in (*yes.later, *shown.later):
        step()
    assert confirmed == ["hedge-a"]
    assert reply(tmp_path, "yes, exactly", "s1", NO_HITS, confirmed) == ""
    assert confirmed == ["hedge-a"]  # taken once


def test_after_the_daemon_stops_a_yes_still_confirms_what_the_hook_showed(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Two quick prompts answered by the daemon, then it stops: the hooks that
    answer the next prompts (each a new process, with nothing in memory) record
    the hedge they show after the daemon's entries, so a "yes" confirms it."""
    confirmed: list[str] = []
    reply(tmp_path, "how is staging refreshed?", "s1", ONE_HEDGE, confirmed)
    reply(tmp_path, "and production?", "s1", NO_HITS, confirmed)
    other = {"confident": [], "activated": [{**ONE_HEDGE["activated"][0], "id": "hedge-b"}]}
    for prompt, tiers in (("what about the demo stack?", other), ("yes, exactly", NO_HITS)):
        monkeypatch.setattr(confirmation, "_answered", {})  # a new hook process
        reply(tmp_path, prompt, "s1", tiers, confirmed)
    assert confirmed == ["hedge-b"]


def test_a_prompt_without_hedges_leaves_the_state_file_alone(tmp_path: Path) -> None:
    """Most prompts show no hedge: they neither create nor rewrite .state/shown.json."""
    confirmed: list[str] = []
    state = tmp_path / ".state" / "shown.json"
    assert reply(tmp_path, "what is the deploy command?", "s1", NO_HITS, confirmed) == ""
    assert not state.exists()
    reply(tmp_path, "how is staging refreshed?", "s1", ONE_HEDGE, confirmed)
    before = state.stat()
    reply(tmp_path, "what is the deploy command?", "s2", NO_HITS, confirmed)
    after = state.stat()
    assert (after.st_ino, after.st_mtime_ns) == (before.st_ino, before.st_mtime_ns)


@pytest.mark.parametrize("content", [b"{not json", b"\xff\xfe\x00garbage", b"[]"])
def test_a_damaged_state_file_costs_the_prompt_nothing(tmp_path: Path, content: bytes) -> None:
    state = tmp_path / ".state" / "shown.json"
    state.parent.mkdir()
    state.write_bytes(content)
    confirmed: list[str] = []
    line = reply(tmp_path, "yes, still applies", "s1", ONE_HEDGE, confirmed)
    assert "Staging is refreshed nightly." in line
    assert confirmed == []
    assert previous(tmp_path, "s1").ids == ["hedge-a"]  # remembered for the next yes


def test_the_yes_is_read_in_the_reply_s_first_120_characters() -> None:
    """A long reply that opens with "yes" and says "no" only past its first 120
    characters still affirms; a "no" inside them cancels it."""
    opening = "yes, that is how we do it, " + "and the rest of this reply is detail " * 3
    inside = (opening[:117] + " no").ljust(130, ".")  # "no" ends at character 120
    past = (opening[:118] + " no").ljust(130, ".")  # "no" runs past character 120
    assert affirms(past)
    assert not affirms(inside)


@pytest.mark.parametrize(
    ("event", "fields"),
    [
        ({"prompt": "p", "session_id": "s1", "cwd": "/w"}, ("p", "s1", "/w")),
        ({"prompt": "p", "session_id": 7, "cwd": None}, ("p", "", "")),
        ({"prompt": "   ", "session_id": "s1"}, None),
        ({"prompt": 3}, None),
        (["prompt", "p"], None),
    ],
)
def test_the_hook_reads_prompt_session_and_folder_from_the_event(
    event: object, fields: tuple[str, str, str] | None
) -> None:
    from hooks.claude_code.prompt_answer import event_fields

    assert event_fields(event) == fields


# confirm(): with a daemon, and without one ----------------------------------------

MEMORY = """---
id: {id}
created: 2026-01-01T09:00:00Z
last_access: 2026-01-01T09:00:00Z
stability: 7.0
tier: episodic
kind: preference
---
Staging is refreshed nightly ({id}).
"""


def test_without_a_daemon_a_yes_confirms_each_hedge_through_the_cli(tmp_path: Path) -> None:
    import os
    import subprocess
    import sys
    import time

    from vault.layout import Vault

    vault = Vault(tmp_path / "vault")
    vault.create_folders()
    for memory_id in ("hedge-a", "hedge-b"):
        (vault.memories_dir / f"{memory_id}.md").write_text(MEMORY.format(id=memory_id))
    hook = (
        "import os, sys\n"
        "from pathlib import Path\n"
        "from hooks.claude_code.confirmation import confirm\n"
        "confirm(Path(sys.argv[1]), ['hedge-a', 'hedge-b'], os.environ)\n"
    )  # the hook's process: it returns at once, `vault confirm` runs detached per hedge
    env = {**os.environ, "VAULT_NOW": "2026-01-20T09:00:00Z"}
    done = subprocess.run([sys.executable, "-c", hook, str(vault.root)], env=env, timeout=60)
    assert done.returncode == 0
    deadline = time.monotonic() + 120
    texts = [""]
    while time.monotonic() < deadline:
        texts = [p.read_text() for p in sorted(vault.memories_dir.glob("*.md"))]
        if all("stability: 17.5" in text for text in texts):
            break
        time.sleep(0.05)
    assert all("stability: 17.5" in text and "confirmations: 1" in text for text in texts), texts


def test_with_a_daemon_a_purged_hedge_does_not_stop_the_others(tmp_path: Path) -> None:
    """The first hedge was purged since it was shown: the daemon says so, and the
    second is still confirmed (nothing is started in the background)."""
    import socket
    import threading

    from hooks.claude_code.confirmation import confirm
    from hooks.client.protocol import make_socket_folder, socket_path

    path = socket_path(tmp_path)
    make_socket_folder(path)
    server = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    server.bind(str(path))
    server.listen(4)
    asked: list[dict[str, object]] = []

    def answer() -> None:
        for _ in range(2):
            connection, _ = server.accept()
            with connection, connection.makefile("rwb") as stream:
                asked.append(json.loads(stream.readline()))
                found = asked[-1]["args"]["id"] != "purged"  # type: ignore[index]
                stream.write(json.dumps({"ok": True, "result": {}} if found else
                             {"ok": False, "error": "no memory purged", "kind": "missing"})
                             .encode() + b"\n")  # fmt: skip
                stream.flush()

    daemon = threading.Thread(target=answer)
    daemon.start()
    with server:
        confirm(tmp_path, ["purged", "hedge-b"], {"VAULT_NOW": "2026-01-20T09:00:00Z"})
        daemon.join(timeout=30)
    assert [(a["op"], a["args"]) for a in asked] == [
        ("confirm", {"id": "purged", "now": "2026-01-20T09:00:00Z"}),
        ("confirm", {"id": "hedge-b", "now": "2026-01-20T09:00:00Z"}),
    ]
    assert not (tmp_path / ".index" / "run" / "starting").exists()


def test_a_busy_daemon_that_took_the_yes_is_not_confirmed_twice(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The daemon took the request but is busy past the hook's wait (a capture
    step): it will confirm the memory itself, so no `vault confirm` is started
    beside it (that would multiply stability by 2.5 twice)."""
    import socket

    from hooks.claude_code.confirmation import confirm
    from hooks.client import client
    from hooks.client.protocol import make_socket_folder, socket_path

    started: list[list[str]] = []
    monkeypatch.setattr(client, "run_detached", lambda root, args, environ: started.append(args))
    path = socket_path(tmp_path)
    make_socket_folder(path)
    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as busy:
        busy.bind(str(path))
        busy.listen(4)  # takes the requests, never answers in time
        confirm(tmp_path, ["hedge-a", "hedge-b"], {"VAULT_NOW": "2026-01-20T09:00:00Z"})
        taken = []
        for _ in range(2):
            connection, _ = busy.accept()
            with connection, connection.makefile("rb") as stream:
                taken.append(json.loads(stream.readline())["args"]["id"])
    assert started == []
    assert taken == ["hedge-a", "hedge-b"]  # the daemon has both to do
