"""Progress on stderr for work a person waits for, only when stderr is a terminal
(pipes and scripts see nothing): `progress_bar` when the work counts its steps
(embedding, linking), `stage_bars` for work in named stages (one bar each:
prune's moves then its indexing; consolidation's reading, comparing, judging,
applying), `waiting` with the seconds so far when it cannot (a call
into the daemon, a consolidation, an import), shown once it has lasted a second.
"""

from __future__ import annotations

import contextlib
import sys
import threading
import time
from collections.abc import Iterator
from typing import TYPE_CHECKING

import click

if TYPE_CHECKING:
    from indexer.sync import Progress, Stages

SHOW_AFTER = 1.0  # seconds: shorter work stays silent
TICK = 0.5
_showing = threading.Lock()  # one line at a time: nested work shows the outer label


@contextlib.contextmanager
def waiting(label: str) -> Iterator[None]:
    """`label ... N s` on stderr while the block runs past SHOW_AFTER; the line is
    cleared when it ends."""
    if not sys.stderr.isatty() or not _showing.acquire(blocking=False):
        yield
        return
    done = threading.Event()
    started = time.monotonic()
    shown = threading.Event()

    def tick() -> None:
        delay = SHOW_AFTER
        while not done.wait(delay):
            seconds = time.monotonic() - started
            sys.stderr.write(f"\r{label} ... {seconds:.0f} s")
            sys.stderr.flush()
            shown.set()
            delay = TICK

    ticker = threading.Thread(target=tick, name="progress", daemon=True)
    ticker.start()
    try:
        yield
    finally:
        done.set()
        ticker.join()
        if shown.is_set():
            sys.stderr.write("\r\x1b[K")  # the line goes: the result follows on stdout
            sys.stderr.flush()
        _showing.release()


@contextlib.contextmanager
def progress_bar(label: str) -> Iterator[Progress | None]:
    """A progress callback `(done, total)` drawing click's bar on stderr when
    stderr is a terminal; None when it is not, so nothing is printed when piped."""
    if not sys.stderr.isatty():
        yield None
        return
    with click.progressbar(length=1, label=label, file=sys.stderr) as bar:

        def advance(done: int, total: int) -> None:
            bar.length = max(total, 1)
            bar.update(done - bar.pos)

        yield advance


@contextlib.contextmanager
def stage_bars() -> Iterator[Stages | None]:
    """`stage(label)` ends the last stage's bar and starts the next, each on its
    own line on stderr when it is a terminal; None when it is not."""
    if not sys.stderr.isatty():
        yield None
        return
    with contextlib.ExitStack() as current:

        def stage(label: str) -> Progress | None:
            current.close()
            return current.enter_context(progress_bar(label))

        yield stage
