"""The change/restatement judge on the labelled pairs
(benchmarks/data/consolidation_pairs.json, see its .md): supersede and merge
precision and recall on each split of the file (and all together), each pair
judged as consolidation judges it (real model cosine of the two texts, the
word-weighted similarity over the set). Run:
.venv/bin/python -m benchmarks.consolidation_pairs_bench
(--data PATH: another file of pairs in the same format, e.g. the fresh held-out
set, data/consolidation_pairs_fresh.json; --errors lists the pairs judged wrong;
--rules-only judges without the learned layer; --held-out prints only totals
and per-label counts, for a set nobody may read; --json prints the report).
"""

from __future__ import annotations

import argparse
import json
import os
from collections import Counter
from pathlib import Path
from typing import Any

from indexer.embedder import SentenceTransformerEmbedder
from memory.consolidation.relations import Item, Judgement, WordWeights, judge, similarity
from memory.consolidation.text import analyse
from vault.config import load_settings

DATA = Path(__file__).parent / "data" / "consolidation_pairs.json"
EXPECTED = {"change": "change", "restatement": "restatement"}  # every other label: "distinct"


def item(name: str, text: str, created: str) -> Item:
    return Item(name, "github.com/acme/api", "fact", "", created, text, analyse(text))


def judged(
    pairs: list[dict[str, Any]], rules_only: bool = False
) -> list[tuple[dict[str, Any], Judgement]]:
    texts = sorted({p[side] for p in pairs for side in ("older", "newer")})
    vectors = dict(zip(texts, SentenceTransformerEmbedder().encode(texts), strict=True))
    weights = WordWeights(analyse(t).tokens for t in texts)
    settings = load_settings(None, {})
    found = []
    for pair in pairs:
        older = item("a", pair["older"], "2025-01-01T00:00:00Z")
        newer = item("b", pair["newer"], "2025-06-01T00:00:00Z")
        cosine = float(vectors[pair["older"]] @ vectors[pair["newer"]])
        alike = similarity(cosine, older.facts, newer.facts, weights)
        verdict = judge(older, newer, cosine, alike, settings.contradiction_cosine,
                        settings.merge_bar, rules_only)  # fmt: skip
        found.append((pair, verdict))
    return found


def scores(rows: list[tuple[dict[str, Any], Judgement]], relation: str) -> dict[str, Any]:
    said = [p for p, v in rows if v.relation == relation]
    truth = [p for p, _ in rows if EXPECTED.get(p["label"]) == relation]
    right = [p for p in said if EXPECTED.get(p["label"]) == relation]
    return {"said": len(said), "right": len(right), "labelled": len(truth),
            "precision": round(len(right) / len(said), 3) if said else 1.0,
            "recall": round(len(right) / len(truth), 3) if truth else 1.0}  # fmt: skip


def splits(rows: list[tuple[dict[str, Any], Judgement]]) -> list[str]:
    """The file's splits in the order they first appear, then "all"."""
    return [*dict.fromkeys(p["split"] for p, _ in rows), "all"]


def report(rows: list[tuple[dict[str, Any], Judgement]]) -> dict[str, Any]:
    out: dict[str, Any] = {"splits": splits(rows)}
    for split in out["splits"]:
        part = [r for r in rows if split in ("all", r[0]["split"])]
        out[split] = {"pairs": len(part), "supersede": scores(part, "change"),
                      "merge": scores(part, "restatement")}  # fmt: skip
    out["errors"] = [
        {"id": p["id"], "split": p["split"], "label": p["label"], "judged": v.relation,
         "reason": v.reason, "older": p["older"], "newer": p["newer"]}
        for p, v in rows if EXPECTED.get(p["label"], "distinct") != v.relation
    ]  # fmt: skip
    return out


def run(path: Path = DATA, rules_only: bool = False) -> dict[str, Any]:
    data = json.loads(path.read_text(encoding="utf-8"))
    return report(judged(data["pairs"], rules_only))


def lines(result: dict[str, Any], errors: bool = False) -> list[str]:
    shown = []
    for split in result["splits"]:
        part = result[split]
        for relation in ("supersede", "merge"):
            s = part[relation]
            shown.append(f"pairs {split:8} {relation:9} precision {s['precision']:.3f} "
                         f"recall {s['recall']:.3f} ({s['right']} right of {s['said']} said, "
                         f"{s['labelled']} labelled; {part['pairs']} pairs)")  # fmt: skip
    if errors:
        for e in result["errors"]:
            shown.append(f"  {e['id']} {e['split']} {e['label']} -> {e['judged']} "
                         f"({e['reason']}): {e['older']} | {e['newer']}")  # fmt: skip
    return shown


def held_out_lines(rows: list[tuple[dict[str, Any], Judgement]]) -> list[str]:
    """What a held-out run may show: the totals and, per label, how many pairs
    were judged each way, how many changes capture would retire at once and how
    many only the learned layer found; never a pair's text."""
    shown = [line for line in lines(report(rows)) if " all " in line]
    labels = sorted({p["label"] for p, _ in rows})
    for label in labels:
        judged_as = Counter(v.relation for p, v in rows if p["label"] == label)
        counts = ", ".join(f"{r} {judged_as[r]}" for r in ("change", "restatement", "distinct"))
        shown.append(f"  {label} -> {counts}")
    for name, chosen in (
        ("confident changes (capture retires at once)", lambda v: v.confident),
        ("changes only the learned layer found", lambda v: v.reason.startswith("learned")),
    ):
        said = [p for p, v in rows if v.relation == "change" and chosen(v)]
        right = sum(p["label"] == "change" for p in said)
        shown.append(f"  {name}: {right} right of {len(said)}")
    return shown


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", type=Path, default=DATA, help="a JSON file of labelled pairs")
    parser.add_argument("--errors", action="store_true", help="list the pairs judged wrong")
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--rules-only", action="store_true", help="without the learned layer")
    parser.add_argument("--held-out", action="store_true",
                        help="totals and per-label counts only, never a pair's text")  # fmt: skip
    args = parser.parse_args(argv)
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    if args.held_out:
        pairs = json.loads(args.data.read_text(encoding="utf-8"))["pairs"]
        print("\n".join(held_out_lines(judged(pairs, args.rules_only))))
        return
    result = run(args.data, args.rules_only)
    if args.json:
        print(json.dumps(result, indent=2))
        return
    print("\n".join(lines(result, args.errors)))


if __name__ == "__main__":
    main()
