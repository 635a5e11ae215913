"""An editor saving a file while memory-vault rewrites it: the editor's change
survives. Real processes: the rewriting one is paused at the moment between its
read and its write (a seam in the subprocess), the editor saves, it goes on."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
import time
from pathlib import Path

from vault.clock import parse_time
from vault.daily import append_daily, daily_path
from vault.layout import Vault
from vault.store import MemoryStore

# Rewrites memory `note` with a new body; pauses after composing the new text
# (before writing) until the test has edited the file.
REWRITER = textwrap.dedent(
    """
    import sys, time
    from pathlib import Path
    import vault.store
    from vault.layout import Vault

    root, ready, edited = Path(sys.argv[1]), Path(sys.argv[2]), Path(sys.argv[3])
    composed = vault.store._updated
    paused = []

    def pause_once(*args, **kwargs):
        text = composed(*args, **kwargs)
        if not paused:
            paused.append(True)
            ready.touch()
            deadline = time.monotonic() + 60
            while not edited.exists() and time.monotonic() < deadline:
                time.sleep(0.01)
        return text

    vault.store._updated = pause_once
    record = vault.store.MemoryStore(Vault(root)).rewrite("note", {"recalls": 3}, "New body.\\n")
    print(record.extra.get("editor"))
    """
)


def _wait_for(path: Path) -> None:
    deadline = time.monotonic() + 60
    while not path.exists():
        assert time.monotonic() < deadline, f"{path} never appeared"
        time.sleep(0.01)


def test_rewrite_keeps_an_edit_saved_between_its_read_and_its_write(
    vault: Vault, tmp_path: Path
) -> None:
    path = vault.memories_dir / "note.md"
    path.write_text("---\nid: note\ntier: curated\n---\nOld body.\n")
    ready, edited = tmp_path / "ready", tmp_path / "edited"
    rewriter = subprocess.Popen(
        [sys.executable, "-c", REWRITER, str(vault.root), str(ready), str(edited)],
        stdout=subprocess.PIPE,
        text=True,
    )
    _wait_for(ready)
    # The editor saves its own key the way editors do: a new file renamed over it.
    saved = path.with_name(".note.md.editor")
    saved.write_text("---\nid: note\ntier: curated\neditor: kept\n---\nOld body.\n")
    os.replace(saved, path)
    edited.touch()
    out, _ = rewriter.communicate(timeout=120)
    assert rewriter.returncode == 0
    record = MemoryStore(vault).read("note")
    assert record.extra.get("editor") == "kept"  # the editor's save is not dropped
    assert (record.body, record.recalls) == ("New body.\n", 3)  # and the rewrite happened
    assert out.strip() == "kept"


def test_a_note_with_an_empty_frontmatter_block_stays_curated(vault: Vault) -> None:
    """`---` `---` and a body: curated as read, and curated after we add fields."""
    path = vault.memories_dir / "handwritten.md"
    path.write_text("---\n---\nDeploys go out on Tuesdays after the change review.\n")
    store = MemoryStore(vault)
    assert store.read("handwritten").tier == "curated"
    updated = store.update("handwritten", lambda record: {"confidence": 0.6})
    assert updated.tier == "curated"
    assert "tier: curated" in path.read_text()


# Appends daily entries in a loop until told to stop.
APPENDER = textwrap.dedent(
    """
    import sys
    from pathlib import Path
    from vault.clock import parse_time
    from vault.daily import append_daily
    from vault.layout import Vault

    vault, stop = Vault(Path(sys.argv[1])), Path(sys.argv[2])
    moment = parse_time("2026-03-02T10:00:00Z")
    n = 0
    while not stop.exists():
        append_daily(vault, moment, f"- entry {n}")
        n += 1
    print(n)
    """
)


def test_daily_appends_never_drop_an_editors_saves(vault: Vault, tmp_path: Path) -> None:
    """A person edits today's note (saving whole files, as editors do) while
    capture appends to it from another process: every line they saved stays."""
    moment = parse_time("2026-03-02T10:00:00Z")
    append_daily(vault, moment, "- first")
    path = daily_path(vault, moment.date())
    stop = tmp_path / "stop"
    appender = subprocess.Popen(
        [sys.executable, "-c", APPENDER, str(vault.root), str(stop)],
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        _wait_for_text(path, "- entry 0")
        for n in range(150):
            text = path.read_text()
            saved = path.with_name(f".edit-{n}")
            saved.write_text(text + f"my note {n}\n")
            os.replace(saved, path)
            time.sleep(0.002)
    finally:
        stop.touch()
        appender.communicate(timeout=120)
    final = path.read_text()
    lost = [n for n in range(150) if f"my note {n}\n" not in final]
    assert lost == []


def _wait_for_text(path: Path, text: str) -> None:
    deadline = time.monotonic() + 60
    while text not in path.read_text():
        assert time.monotonic() < deadline
        time.sleep(0.01)
