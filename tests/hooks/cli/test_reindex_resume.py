"""`vault reindex --full` interrupted midway (Ctrl-C or a kill) and run again:
the second run keeps what the first embedded, and the index ends complete."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import threading
from pathlib import Path

import pytest
from watchdog.events import FileSystemEvent, FileSystemEventHandler
from watchdog.observers import Observer

from benchmarks.scale_bench_vault import generate
from tests.hooks.cli.test_cli import run

pytestmark = pytest.mark.model
# Five saved parts (32 texts each): once the first lands, the rest take the model a
# second or two, time enough to stop the rebuild there. Short bodies: a text's length,
# not the count, is what the model's time goes to (48 generated bodies took ~15 s).
MEMORIES = 160
SHORT = 12  # words in a body at most


class PartSaved(FileSystemEventHandler):
    """Once a part of the rebuild's checkpoint lands (renamed into place), pauses the
    rebuild (SIGSTOP) right there: on two busy cores the test once reacted after the
    rebuild had already finished, so its Ctrl-C interrupted nothing."""

    def __init__(self) -> None:
        self.saved = threading.Event()
        self.pid = 0

    def on_any_event(self, event: FileSystemEvent) -> None:
        path = str(getattr(event, "dest_path", "") or event.src_path)
        if Path(path).name.startswith("part-") and path.endswith(".npz") and self.pid:
            if not self.saved.is_set():
                os.kill(self.pid, signal.SIGSTOP)
            self.saved.set()


def interrupted_rebuild(root: Path, how: signal.Signals) -> None:
    """Start `vault reindex --full` and stop it by `how` once its first part is saved."""
    (root / ".index").mkdir(exist_ok=True)
    handler = PartSaved()
    observer = Observer()
    observer.schedule(handler, str(root / ".index"), recursive=True)
    observer.start()
    # As at a person's terminal: a job started in the background (`make check &`)
    # ignores SIGINT, its children inherit that, and Python then never raises
    # KeyboardInterrupt. A handled signal is reset to the default at exec.
    previous = signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        process = subprocess.Popen(
            [sys.executable, "-m", "hooks.cli", "reindex", "--full"],
            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        )  # fmt: skip
    finally:
        signal.signal(signal.SIGINT, previous)
    handler.pid = process.pid  # the model loads for seconds before the first part
    try:
        assert handler.saved.wait(timeout=300), "no part of the rebuild was saved"
        process.send_signal(how)
        os.kill(process.pid, signal.SIGCONT)  # the Ctrl-C is taken as it resumes
        # Ctrl-C lands after the batch being encoded (seconds; with the other
        # worker's tests on the same two cores it once took over 60 s).
        _, stderr = process.communicate(timeout=300)
    finally:
        observer.stop()
        observer.join()
        if process.poll() is None:  # never leave it running into the next test
            process.kill()
            process.communicate()
    assert process.returncode != 0, "the rebuild finished before it could be interrupted"
    assert "Traceback" not in stderr


@pytest.mark.timeout(900)  # two rebuilds with the real model
@pytest.mark.parametrize("how", [signal.SIGINT, signal.SIGKILL], ids=["ctrl-c", "kill"])
def test_an_interrupted_full_reindex_resumes_where_it_stopped(
    tmp_path: Path, how: signal.Signals
) -> None:
    root = tmp_path / "vault"
    generate(root, MEMORIES, workers=1, longest=SHORT)
    interrupted_rebuild(root, how)
    assert list((root / ".index" / "rebuild").glob("part-*.npz"))

    again = subprocess.run([sys.executable, "-m", "hooks.cli", "reindex", "--full", "--json",
                            "--stats"], capture_output=True, text=True, timeout=600)  # fmt: skip
    assert again.returncode == 0, again.stderr
    result = json.loads(again.stdout)
    assert result["resumed"] >= 32  # at least the first part was kept
    assert result["resumed"] < result["stats"]["chunks"]  # and the rest embedded now
    assert result["stats"]["memories"] == MEMORIES
    assert result["stats"]["vectors"] == result["stats"]["chunks"]
    assert not (root / ".index" / "rebuild").exists()  # published: nothing left to resume
    assert run("reindex", "--check").stdout.startswith("Would change: 0 added")
