"""Retrieval levers tried for issues 28 and 32, simulated on the real index: each
data set's vaults are built and indexed once (as `vault bench retrieval` builds
them), then every lever turns a question into the candidates recall would rank.

    HF_HUB_OFFLINE=1 nice .venv/bin/python -m benchmarks.retrieval_levers
        --data ../shared/bench/locomo-dev --data benchmarks/data/devmem
        [--lever base --lever second-hop ...] [--hook-curve] [--split held-out]

Rank path (R@5, R@10, by category): recall's gate, then similarity order, decay
off, no see-also (so `base` is `vault bench retrieval --path rank --no-see-also`).
`--hook-curve` instead re-applies the prompt hook's evidence rule (memory/recall/
evidence.py) to one search per question and vault under other bars: own
injected-recall, precision, median characters and foreign "anything at all".
Simulations, not the shipped path: the figures name themselves "simulated".
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from collections import defaultdict
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path
from typing import Any

import numpy as np

from hooks.claude_code.context_text import render_recall
from indexer.embedder import serving_embedder
from indexer.fusion import fuse
from indexer.index import Candidate
from indexer.keywords import query_terms
from indexer.search_scores import memory_cosines
from memory.config import MemoryConfig
from memory.evaluation.retrieval import _category, _open, _relevant, build_vault, load
from memory.recall.ranking import RecallOptions, associative_tiers, candidates
from memory.results import Associative
from memory.service import MemoryService
from vault.config import load_settings

RANK = RecallOptions(limit=10, reinforce=False, decay=False, see_also=False)
HOP_SHARE = 0.8  # a second-search candidate joins at this share of its similarity
Lever = Callable[[MemoryService, str, RecallOptions], list[Candidate]]


def base(service: MemoryService, text: str, opts: RecallOptions) -> list[Candidate]:
    return candidates(service, text, opts)


def _gated(service: MemoryService, found: list[Candidate]) -> list[Candidate]:
    bar, cosine = service.config.min_similarity, service.config.min_cosine
    return [c for c in found if c.similarity >= bar or c.cosine >= cosine]


def _merge(
    service: MemoryService, text: str, first: list[Candidate], second: list[Candidate]
) -> list[Candidate]:
    """Second-search candidates join at HOP_SHARE x their similarity; every
    candidate keeps its own cosine to the question (the tiers' evidence)."""
    by_id = {c.row.id: c for c in first}
    new = [c.row.id for c in second if c.row.id not in by_id]
    query = service.index.embedder.encode([text])[0]
    with service.index.published.reading() as snapshot:
        cosine = memory_cosines(snapshot.catalog, snapshot.vectors, new, query) if new else {}
    for found in second:
        similarity = HOP_SHARE * found.similarity
        old = by_id.get(found.row.id)
        if old is None:
            by_id[found.row.id] = Candidate(
                found.row, similarity, cosine.get(found.row.id, 0.0), found.keyword
            )
        elif similarity > old.similarity:
            by_id[found.row.id] = replace(old, similarity=similarity)
    return sorted(by_id.values(), key=lambda c: c.similarity, reverse=True)


def expansion(service: MemoryService, text: str, opts: RecallOptions) -> list[Candidate]:
    """Query expansion from the vault's vocabulary: the four rarest words (in at
    least two memories) of the best match that the question lacks, searched with it."""
    first = candidates(service, text, opts)
    top = _gated(service, first)[:1]
    if not top:
        return first
    body = service.index.body(top[0].row.id)
    own = set(query_terms(text))
    words = [w for w in query_terms(body) if w not in own and not w.isdigit()]
    with service.index.published.catalog_only() as catalog:
        total = catalog.counts()["memories"]
        sql = "SELECT COUNT(*) FROM fts WHERE fts MATCH ?"
        count = {w: catalog.db.execute(sql, (f'"{w}"',)).fetchone()[0] for w in words}
    usable = sorted((w for w in words if 2 <= count[w] <= max(3, total // 20)), key=count.get)
    if not usable:
        return first
    return _merge(service, text, first, candidates(service, f"{text} {' '.join(usable[:4])}", opts))


def second_hop(service: MemoryService, text: str, opts: RecallOptions) -> list[Candidate]:
    """A second hop: the question searched again with the best match's whole text."""
    first = candidates(service, text, opts)
    top = _gated(service, first)[:1]
    if not top:
        return first
    hop = candidates(service, f"{text} {service.index.body(top[0].row.id)}", opts)
    return _merge(service, text, first, [c for c in hop if c.row.id != top[0].row.id])


def feedback(service: MemoryService, text: str, opts: RecallOptions) -> list[Candidate]:
    """Pseudo-relevance feedback on meaning: the query vector moved halfway toward
    the mean of the two best matches' vectors; a candidate keeps the better fused score."""
    first = candidates(service, text, opts)
    top = _gated(service, first)[:2]
    vectors = service.index.memory_vectors(c.row.id for c in top)
    if not vectors:
        return first
    moved = service.index.embedder.encode([text])[0] + 0.5 * np.mean(list(vectors.values()), 0)
    moved = moved / np.linalg.norm(moved)
    with service.index.published.reading() as snapshot:
        ids = [c.row.id for c in first]
        cosine = memory_cosines(snapshot.catalog, snapshot.vectors, ids, moved)
    weights = service.index.weights

    def refused(c: Candidate) -> float:
        return max(c.similarity, fuse(cosine.get(c.row.id, 0.0), c.keyword, weights))

    fused = [replace(c, similarity=refused(c)) for c in first]
    return sorted(fused, key=lambda c: c.similarity, reverse=True)


LEVERS: dict[str, Lever] = {"base": base, "expansion": expansion, "second-hop": second_hop,
                            "feedback": feedback}  # fmt: skip


def rank(services: dict[str, MemoryService], queries: dict[str, list[dict[str, Any]]],
         lever: Lever) -> dict[str, Any]:  # fmt: skip
    by_category: dict[str, list[tuple[float, float]]] = defaultdict(list)
    millis = []
    for conv, service in services.items():
        for query in queries.get(conv, []):
            relevant = _relevant(query)
            if not relevant:
                continue
            started = time.perf_counter()
            found = _gated(service, lever(service, str(query["query"]), RANK))
            millis.append((time.perf_counter() - started) * 1000)
            ids = [c.row.id for c in sorted(found, key=lambda c: c.similarity, reverse=True)]
            at = [len(set(ids[:k]) & relevant) / len(relevant) for k in (5, 10)]
            by_category["all"].append((at[0], at[1]))
            by_category[_category(query)].append((at[0], at[1]))
    return {
        category: tuple(round(statistics.fmean(r[i] for r in rows), 3) for i in (0, 1))
        for category, rows in sorted(by_category.items())
    } | {"p50_ms": round(statistics.median(millis), 1) if millis else 0.0}


def hook_tiers(
    services: dict[str, MemoryService], queries: dict[str, list[dict[str, Any]]]
) -> list[tuple[bool, set[str], Associative]]:
    """The hook's tiers (before evidence) for each question in every vault."""
    from hooks.claude_code.prompt_recall import prompt_options

    opts = prompt_options(None, decay=False)
    found = []
    for conv in services:
        for query in queries.get(conv, []):
            for other, vault in services.items():
                matches = candidates(vault, str(query["query"]), opts)
                tiers = associative_tiers(vault, matches, opts)
                found.append((other == conv, _relevant(query), tiers))
    return found


def evidence_curve(
    tiers: list[tuple[bool, set[str], Associative]], config: MemoryConfig
) -> list[tuple[str, dict[str, float]]]:
    """The hook's choice under other bars and caps: hedged cosine, hedged gap, a
    floor on a hedged memory's fused similarity, the confident and hedged caps."""
    cosine, gap = config.hedged_cosine, config.hedged_gap
    # (label, hedged cosine, hedged gap, hedged similarity floor, confident cap, hedged cap)
    points: list[tuple[str, float, float, float, int, int]] = [
        ("shipped", cosine, gap, 0.0, 2, 2),
        ("hook_confident_max 3", cosine, gap, 0.0, 3, 2),
        ("hook_confident_max 1", cosine, gap, 0.0, 1, 2),
        ("1 confident, 1 hedged", cosine, gap, 0.0, 1, 1),
        ("hook_hedged_max 1", cosine, gap, 0.0, 2, 1),
        ("hook_hedged_max 0", cosine, gap, 0.0, 2, 0),
        *((f"hedged_cosine {v}", v, gap, 0.0, 2, 2) for v in (0.41, 0.42)),
        *((f"hedged_gap {v}", cosine, v, 0.0, 2, 2) for v in (0.02, 0.03)),
        *((f"hedged similarity >= {v}", cosine, gap, v, 2, 2) for v in (0.2, 0.25)),
        ("hedged_gap 0.02 and similarity >= 0.2", cosine, 0.02, 0.2, 2, 2),
    ]
    curve = []
    for label, hedged_cosine, hedged_gap, floor, confident_max, hedged_max in points:
        own: list[tuple[list[str], set[str], int]] = []
        foreign: list[bool] = []
        for is_own, relevant, found in tiers:
            best = max((h.similarity for h in found.confident + found.activated), default=0.0)
            bar = max(best - hedged_gap, floor)
            hedged = [
                h for h in found.activated if h.cosine >= hedged_cosine and h.similarity >= bar
            ]
            chosen = Associative(found.confident[:confident_max], hedged[:hedged_max], [])
            text, ids = render_recall(chosen.to_dict(), 2000)
            if is_own and relevant:
                own.append((ids, relevant, len(text)))
            elif not is_own:
                foreign.append(bool(ids))
        chars = sorted(n for _, _, n in own)
        curve.append((label, {
            "injected_recall": statistics.fmean(len(set(i) & r) / len(r) for i, r, _ in own),
            "precision": statistics.fmean(sum(m in r for m in i) / len(i) for i, r, _ in own if i),
            "chars_p50": chars[(len(chars) - 1) // 2],
            "foreign_any": statistics.fmean(foreign) if foreign else 0.0,
        }))  # fmt: skip
    return curve


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", type=Path, action="append", required=True)
    parser.add_argument("--lever", action="append", choices=sorted(LEVERS))
    parser.add_argument("--hook-curve", action="store_true")
    parser.add_argument("--split", help="only the questions of this half (tune, held-out)")
    args = parser.parse_args(argv)
    settings = load_settings(None, {})
    embedder = serving_embedder(settings.model)
    for data in args.data:
        memories, queries = load(data, args.split)
        with tempfile.TemporaryDirectory(prefix="vault-levers-") as tmp:
            services = {
                conv: _open(build_vault(Path(tmp) / conv, items), settings, embedder, items)
                for conv, items in sorted(memories.items())
            }
            try:
                if args.hook_curve:
                    config = next(iter(services.values())).config
                    for label, row in evidence_curve(hook_tiers(services, queries), config):
                        print(f"{data.name}\t{label}\t" + "\t".join(
                            f"{k} {v:.3f}" for k, v in row.items()), flush=True)  # fmt: skip
                for name in args.lever or ([] if args.hook_curve else list(LEVERS)):
                    print(f"{data.name}\t{name}\t{rank(services, queries, LEVERS[name])}",
                          flush=True)  # fmt: skip
            finally:
                for service in services.values():
                    service.index.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
