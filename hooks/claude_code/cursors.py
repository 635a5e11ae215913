"""How far each transcript was captured, in two places so none is captured
twice: .state/cursors.json and an append-only journal, .state/captured.jsonl
(compacted when large). A cursors file that does not parse is set aside and
rebuilt from the journal and the broken file's readable entries (vault/state.py).
"""

from __future__ import annotations

import json
import logging
import os
import re
from pathlib import Path
from typing import Any

from vault.atomic import atomic_write
from vault.state import JsonState

JOURNAL_MAX_BYTES = 1_000_000
# An entry as cursors.json writes it (sorted keys: the offset comes first).
_ENTRY = re.compile(rb'"((?:[^"\\]|\\.)*)":\s*\{\s*"offset":\s*(\d+)')
log = logging.getLogger(__name__)


class Cursors:
    def __init__(self, state_dir: Path) -> None:
        self.journal = state_dir / "captured.jsonl"
        self.state = JsonState(state_dir / "cursors.json", recover=self._recover)

    def offsets(self) -> dict[str, int]:
        """Each transcript's captured byte offset."""
        return {key: _offset(entry) for key, entry in self.state.read().items()}

    def offset(self, key: str) -> int:
        return _offset(self.state.read().get(key))

    def position(self, key: str) -> tuple[int, int]:
        """The transcript's captured byte offset and the last `seq` given out."""
        entry = self.state.read().get(key)
        seq = entry.get("seq", 0) if isinstance(entry, dict) else 0
        return _offset(entry), seq if isinstance(seq, int) and seq >= 0 else 0

    def advance(self, key: str, offset: int, session: str, updated: str, seq: int) -> None:
        """Record the transcript read up to `offset`, the last `seq` given out in it."""
        entry = {"offset": offset, "session": session, "updated": updated, "seq": seq}

        def change(data: dict[str, Any]) -> None:
            data[key] = entry
            self._record(data, key)

        self.state.update(change)

    def _record(self, data: dict[str, Any], key: str) -> None:
        """Journal the advance of `key` (under the cursors lock). A missing or
        large journal is rewritten whole from `data`; otherwise one line is appended."""
        try:
            size = self.journal.stat().st_size
        except FileNotFoundError:
            size = -1
        if size < 0 or size > JOURNAL_MAX_BYTES:
            lines = "".join(_line(name, entry) for name, entry in sorted(data.items()))
            atomic_write(self.journal, lines.encode())
            return
        with open(self.journal, "ab") as handle:
            handle.write(_line(key, data[key]).encode())
            handle.flush()
            os.fsync(handle.fileno())

    def _recover(self, corrupt: bytes) -> dict[str, Any]:
        """The cursors from the journal, and from the entries of the broken file
        that still read (a file cut short keeps the ones before the cut)."""
        found: dict[str, Any] = {}
        for match in _ENTRY.finditer(corrupt):
            try:
                key = json.loads(b'"' + match[1] + b'"')
            except (ValueError, UnicodeDecodeError):
                continue
            found[key] = {"offset": int(match[2]), "session": "", "updated": ""}
        journal = self._from_journal()
        for key, entry in journal.items():
            if _offset(entry) >= _offset(found.get(key)):
                found[key] = entry
        if not journal:
            log.warning("no capture journal; %d cursors read back from the broken file", len(found))
        return found

    def _from_journal(self) -> dict[str, Any]:
        """The cursors as the journal last recorded them."""
        found: dict[str, Any] = {}
        try:
            raw = self.journal.read_bytes()
        except FileNotFoundError:
            return found
        for line in raw.splitlines():
            try:
                item = json.loads(line)
            except (ValueError, UnicodeDecodeError):
                continue  # a torn line
            if isinstance(item, dict) and isinstance(item.get("transcript"), str):
                fields = ("offset", "session", "updated", "seq")
                found[item["transcript"]] = {k: item.get(k) for k in fields}
        return found


def _line(key: str, entry: dict[str, Any]) -> str:
    return json.dumps({"transcript": key, **entry}, ensure_ascii=False) + "\n"


def _offset(entry: object) -> int:
    value = entry.get("offset", 0) if isinstance(entry, dict) else 0
    return value if isinstance(value, int) and value >= 0 else 0
