"""Calibrate the link bar and the topic bar on a labelled set of developer memories.

Data: benchmarks/data/association_set.json (groups of memories about one
subject, each group under a broader topic; written for this project). Links:
every memory links to its `links_max` nearest neighbours above the bar,
mirrored (what the sweep builds); a link is right when both memories are in
the same group. Topics: leave-one-group-out, so the classifier never saw the
subject it files. Run: .venv/bin/python -m benchmarks.association_bench
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import numpy as np

from indexer.embedder import SentenceTransformerEmbedder
from indexer.topic_model import TopicModel

DATA = Path(__file__).parent / "data" / "association_set.json"
LINKS_MAX = 5


def load() -> list[tuple[str, str, str]]:
    groups = json.loads(DATA.read_text(encoding="utf-8"))["groups"]
    return [(g["topic"], g["group"], text) for g in groups for text in g["memories"]]


def link_table(items: list[tuple[str, str, str]]) -> list[dict[str, float]]:
    vectors = SentenceTransformerEmbedder().encode([text for *_, text in items])
    similarity = vectors @ vectors.T
    np.fill_diagonal(similarity, -1.0)
    groups = [group for _, group, _ in items]
    truth = {
        (i, j)
        for i in range(len(items))
        for j in range(i + 1, len(items))
        if groups[i] == groups[j]
    }
    rows = []
    for bar in np.arange(0.25, 0.551, 0.025):
        edges = set()
        for i, row in enumerate(similarity):
            for j in np.argsort(-row)[:LINKS_MAX]:
                if row[j] >= bar:
                    edges.add((min(i, int(j)), max(i, int(j))))
        right = len(edges & truth)
        precision = right / len(edges) if edges else 1.0
        recall = right / len(truth)
        linked = {i for edge in edges & truth for i in edge}
        rows.append({
            "bar": round(float(bar), 3), "links": len(edges), "precision": round(precision, 3),
            "recall": round(recall, 3),
            "f1": round(2 * precision * recall / (precision + recall), 3) if right else 0.0,
            "memories_with_a_right_link": round(len(linked) / len(items), 3),
        })  # fmt: skip
    return rows


def topic_table(items: list[tuple[str, str, str]], hold: str) -> list[dict[str, float]]:
    """Leave one out: `memory` (its group's other memories are labelled) or
    `group` (a subject the classifier never saw)."""
    results: list[tuple[bool, float]] = []
    for n, (topic, group, text) in enumerate(items):
        train = [
            (t, x)
            for m, (t, g, x) in enumerate(items)
            if (g != group if hold == "group" else m != n)
        ]
        model = TopicModel.fit([x for _, x in train], [t for t, _ in train], "bench")
        assert model is not None
        guess, score = model.classify([text])[0]
        results.append((guess == topic, score))
    rows = []
    for bar in (0.0, 0.02, 0.03, 0.04, 0.05, 0.06, 0.08, 0.1):
        filed = [right for right, score in results if score >= bar]
        rows.append({
            "bar": bar, "filed": round(len(filed) / len(results), 3),
            "precision": round(sum(filed) / len(filed), 3) if filed else 1.0,
            "right_overall": round(sum(filed) / len(results), 3),
        })  # fmt: skip
    return rows


def main() -> None:
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    items = load()
    print(f"{len(items)} memories, {len({g for _, g, _ in items})} groups")
    print("links (top-5 neighbours above the bar, mirrored):")
    for row in link_table(items):
        print("  " + "  ".join(f"{k} {v}" for k, v in row.items()))
    for hold in ("memory", "group"):
        print(f"topics (leave one {hold} out):")
        for row in topic_table(items, hold):
            print("  " + "  ".join(f"{k} {v}" for k, v in row.items()))


if __name__ == "__main__":
    main()
