"""Builds memories.jsonl and queries.jsonl of the devmem set from source/*.txt.

Source format, one project per file: `# project NAME: IDENTITY`, `@S<n> <time>`
opens a session, `m<nn> S<n> text` is a memory, `Q question => m01, m02` a
question (`=> -`: the vault holds nothing about it). Run: python build.py
"""

from __future__ import annotations

import json
import re
from pathlib import Path

HERE = Path(__file__).parent
HELD_OUT = {"harbor", "quillmark", "frontdesk"}  # the other three projects are the tune half
_PROJECT = re.compile(r"^# project (\S+): (\S+)")
_SESSION = re.compile(r"^@(S\d+) (\S+)$")
_MEMORY = re.compile(r"^(m\d+) (S\d+) (.+)$")
_QUESTION = re.compile(r"^Q (.+?) => (.+)$")


def parse(path: Path) -> tuple[list[dict[str, object]], list[dict[str, object]]]:
    memories: list[dict[str, object]] = []
    queries: list[dict[str, object]] = []
    conv, project, sessions = "", "", {}
    for line in path.read_text(encoding="utf-8").splitlines():
        if found := _PROJECT.match(line):
            conv, project = found.groups()
        elif found := _SESSION.match(line):
            sessions[found.group(1)] = found.group(2)
        elif found := _MEMORY.match(line):
            key, session, text = found.groups()
            memories.append({"id": f"{conv}:{key}", "text": text, "session": f"{conv}:{session}",
                             "timestamp": sessions[session], "conv": conv, "project": project,
                             "seq": len(memories) + 1})  # fmt: skip
        elif found := _QUESTION.match(line):
            question, answer = found.groups()
            keys = [] if answer.strip() == "-" else [k.strip() for k in answer.split(",")]
            category = "absent" if not keys else "multi-hop" if len(keys) > 1 else "single"
            queries.append({"id": f"{conv}:q{len(queries)}", "conv": conv, "query": question,
                            "relevant": [f"{conv}:{k}" for k in keys], "category_name": category,
                            "split": "held-out" if conv in HELD_OUT else "tune"})  # fmt: skip
    known = {m["id"] for m in memories}
    missing = [r for q in queries for r in q["relevant"] if r not in known]  # type: ignore[attr-defined]
    if missing:
        raise SystemExit(f"{path.name}: questions name unknown memories {missing}")
    return memories, queries


def main() -> None:
    memories, queries = [], []
    for path in sorted((HERE / "source").glob("*.txt")):
        found = parse(path)
        memories += found[0]
        queries += found[1]
    for name, rows in (("memories.jsonl", memories), ("queries.jsonl", queries)):
        text = "".join(json.dumps(row, ensure_ascii=False) + "\n" for row in rows)
        (HERE / name).write_text(text, encoding="utf-8")
    print(f"{len(memories)} memories, {len(queries)} questions")


if __name__ == "__main__":
    main()
