"""Recall: ordinary (similarity x strength, above the retrieval floor),
associative (the confident and activated tiers) and cold (the archive only).
Ranking reads only manifest rows; texts are read for the winners. Direct hits
may be reinforced; see-also memories (spreading activation) never are.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from datetime import datetime

from indexer.catalog import ManifestRow
from indexer.filters import Filters
from indexer.index import Candidate
from memory.context import ServiceContext
from memory.decay import days_between
from memory.errors import RecallError
from memory.lifecycle.access_stats import refresh_usage, usage_factor
from memory.lifecycle.reinforcement import reinforce_hits
from memory.recall.spreading import Scored, spread
from memory.recall.tiers import classify, recall_boost, score, why
from memory.results import Associative, Hit
from vault.categories import UnknownCategoryError, category_of, check_category
from vault.clock import parse_time

# A ranked candidate with the similarity that breaks ties between equal scores.
Ranked = tuple[float, float, Scored]


@dataclass(frozen=True)
class RecallOptions:
    limit: int = 5
    project: str | None = None  # the caller's current project: boosted, not filtered
    topic_hint: str | None = None
    exclude_topic: str | None = None
    reinforce: bool = True
    decay: bool = True  # False: rank by similarity alone (static-knowledge benchmarks)
    see_also: bool = True  # spreading activation to linked and same-session memories
    signal: str = "hybrid"  # hybrid | vector (cosine alone) | keyword (BM25 alone)
    kind: str | None = None  # filters: only memories of this kind, topic, project
    topic: str | None = None
    project_filter: str | None = None
    category: str | None = None  # only memories and documents of this category


def recall(service: ServiceContext, query: str, options: RecallOptions | None = None) -> list[Hit]:
    """Rank by similarity x strength; hide strength < retrieval floor; reinforce hits."""
    opts = options or RecallOptions()
    now = service.clock()
    ranked = []
    # keyword-only: any keyword match counts (the bar is set on the fused scale)
    bar = 0.0 if opts.signal == "keyword" else service.config.min_similarity
    for candidate in candidates(service, query, opts):
        current = service.strength_of(candidate.row, now) if opts.decay else 1.0
        if current < service.config.retrieval_floor:
            continue
        if candidate.similarity < bar and candidate.cosine < service.config.min_cosine:
            continue  # neither shares enough words nor means it closely enough
        boost = _boost(service, candidate.row, opts, now)
        ranked.append(Scored(score(candidate.similarity, current, boost), current, candidate))
    ranked.sort(key=lambda item: item.score, reverse=True)
    chosen = _with_see_also(service, ranked, opts, now)
    texts = service.index.bodies(item.id for item in chosen)
    hits = [_scored_hit(service, item, opts, now, "recall", texts) for item in chosen]
    if opts.reinforce:  # only direct hits are reinforced, never see-also
        reinforced = {h.id: h for h in reinforce_hits(service, [h for h in hits if not h.via])}
        hits = [reinforced.get(h.id, h) if not h.via else h for h in hits]
    return hits


def _with_see_also(
    service: ServiceContext, ranked: list[Scored], opts: RecallOptions, now: datetime
) -> list[Scored]:
    """The best `limit` of the direct hits and their see-also memories. Direct
    hits past the limit stay in the running: a see-also memory only displaces a
    direct hit it outscores, and one that matched the query on its own keeps the
    better of its two scores."""
    pool = {item.id: item for item in ranked[: 2 * opts.limit]}
    own = {item.id: item for item in ranked[2 * opts.limit :]}
    for item in _spread(service, ranked[: opts.limit], opts, now) if opts.see_also else []:
        best = pool.get(item.id) or own.get(item.id)
        pool[item.id] = item if best is None or best.score < item.score else best
    return sorted(pool.values(), key=lambda item: item.score, reverse=True)[: opts.limit]


def recall_associative(
    service: ServiceContext, query: str, options: RecallOptions | None = None
) -> Associative:
    """Confident tier (reinforced) and activated tier (hedged, not reinforced)."""
    opts = options or RecallOptions()
    return associative_tiers(service, candidates(service, query, opts), opts)


def associative_tiers(
    service: ServiceContext, matches: list[Candidate], opts: RecallOptions
) -> Associative:
    """The tiers of searched candidates (`vault bench retrieval` re-tiers one
    search under other bars). Without decay every memory counts as fresh."""
    now = service.clock()
    tiers: dict[str, list[Ranked]] = {"confident": [], "activated": []}
    for candidate in matches:
        current = service.strength_of(candidate.row, now) if opts.decay else 1.0
        boost = _boost(service, candidate.row, opts, now)
        tier = classify(
            candidate.similarity, current, boost, service.config, cosine=candidate.cosine
        )
        if tier is not None:
            value = score(candidate.similarity, current, boost)
            tiers[tier].append((value, candidate.similarity, Scored(value, current, candidate)))
    shown: dict[str, list[Scored]] = {}
    for label, items in tiers.items():
        items.sort(key=lambda item: (item[0], item[1]), reverse=True)
        shown[label] = [item for _, _, item in items[: opts.limit]]
    shown_hits = shown["confident"] + shown["activated"]
    found = _spread(service, shown_hits, opts, now) if opts.see_also else []  # best first
    texts = service.index.bodies(item.id for item in shown_hits + found)
    best = {
        label: [_scored_hit(service, item, opts, now, label, texts) for item in items]
        for label, items in shown.items()
    }
    see_also = [_scored_hit(service, item, opts, now, "see-also", texts) for item in found]
    chosen = reinforce_hits(service, best["confident"]) if opts.reinforce else best["confident"]
    return Associative(chosen, best["activated"], see_also)


def recall_cold(service: ServiceContext, query: str, limit: int = 5) -> list[Hit]:
    """Search only the archive, with the stricter cold bar on similarity alone."""
    opts = RecallOptions(limit=limit, reinforce=False)
    now = service.clock()
    found = [
        c for c in candidates(service, query, opts, archived=True)
        if c.similarity >= service.config.cold_bar
    ]  # fmt: skip
    found.sort(key=lambda c: c.similarity, reverse=True)
    texts = service.index.bodies(c.row.id for c in found[:limit])
    return [
        _hit(
            service, c, service.strength_of(c.row, now), opts, now, "cold", texts.get(c.row.id, "")
        )
        for c in found[:limit]
    ]


def candidates(
    service: ServiceContext, query: str, opts: RecallOptions, archived: bool = False
) -> list[Candidate]:
    """The searched matches recall ranks (archived: the archive's instead)."""
    if not query.strip():
        raise RecallError("the query is empty")
    if opts.limit < 1:
        raise RecallError("the number of results must be at least 1")
    if opts.category is not None:
        settings = service.settings
        try:
            check_category(opts.category, settings.categories, settings.category_rules)
        except UnknownCategoryError as exc:
            raise RecallError(str(exc)) from None
    service.fresh()
    refresh_usage(service)
    rules = service.settings.category_rules
    filters = Filters(archived, opts.project_filter, opts.topic, kind=opts.kind,
                      category=opts.category, category_rules=rules)  # fmt: skip
    found = service.index.search(query, k=max(opts.limit * 4, 20), filters=filters)
    if not archived:  # a superseded memory leaves ordinary recall (cold recall still finds it)
        found = [c for c in found if not c.row.superseded_by]
    kept = [c for c in found if not opts.exclude_topic or c.row.topic != opts.exclude_topic]
    return by_signal(kept, opts.signal)


def by_signal(candidates: list[Candidate], signal: str) -> list[Candidate]:
    """Candidates scored by one signal: `vector` (cosine) or `keyword` (normalised
    BM25; candidates without a keyword match drop out), else the fused hybrid."""
    if signal == "vector":
        scored = [replace(c, similarity=max(0.0, c.cosine)) for c in candidates]
    elif signal == "keyword":
        scored = [replace(c, similarity=c.keyword) for c in candidates if c.keyword > 0]
    elif signal == "hybrid":
        return candidates
    else:
        raise RecallError(f"signal must be hybrid, vector or keyword, not {signal!r}")
    return sorted(scored, key=lambda c: c.similarity, reverse=True)


def _passes_filters(service: ServiceContext, row: ManifestRow, opts: RecallOptions) -> bool:
    """The kind, topic, project and category filters (see-also memories obey them too)."""
    return (
        (opts.kind is None or row.kind == opts.kind)
        and (opts.topic is None or row.topic == opts.topic)
        and (opts.project_filter is None or row.project == opts.project_filter)
        and (
            opts.category is None
            or category_of(row.path, service.settings.category_rules) == opts.category
        )
    )


def _boost(service: ServiceContext, row: ManifestRow, opts: RecallOptions, now: datetime) -> float:
    """Project and topic hints, validated confidence, appearances in results and
    links from periodic notes (README: How recall decides)."""
    usage = usage_factor(service, row.id, now)
    project_match = bool(opts.project) and row.project == opts.project
    topic_match = bool(opts.topic_hint) and row.topic == opts.topic_hint
    return recall_boost(service.config, usage, project_match, topic_match, row.confidence)


def _spread(
    service: ServiceContext, hits: list[Scored], opts: RecallOptions, now: datetime
) -> list[Scored]:
    def admit(row: ManifestRow) -> float | None:
        if row.archived or row.superseded_by:
            return None
        if opts.exclude_topic and row.topic == opts.exclude_topic:
            return None
        if not _passes_filters(service, row, opts):
            return None
        current = service.strength_of(row, now) if opts.decay else 1.0
        return current if current >= service.config.retrieval_floor else None

    return spread(hits, service.index, service.config, admit, opts.limit)


def _scored_hit(
    service: ServiceContext, item: Scored, opts: RecallOptions, now: datetime, label: str,
    texts: Mapping[str, str],
) -> Hit:  # fmt: skip
    label = "see-also" if item.via else label
    hit = _hit(service, item.candidate, item.strength, opts, now, label, texts.get(item.id, ""))
    if not item.via:
        return hit
    return replace(hit, score=item.score, via=item.via, reason=item.note)


def _hit(
    service: ServiceContext,
    candidate: Candidate,
    current: float,
    opts: RecallOptions,
    now: datetime,
    label: str,
    text: str,
) -> Hit:
    row = candidate.row
    boost = _boost(service, row, opts, now)
    explained = why(candidate.similarity, current, boost, service.config,
                    cosine=candidate.cosine, keyword=candidate.keyword)  # fmt: skip
    return Hit(
        id=row.id,
        text=text.strip(),
        path=row.path,
        tier=row.tier,
        kind=row.kind,
        topic=row.topic,
        tags=row.tags,
        project=row.project,
        created=row.created,
        last_access=row.last_access,
        stability=service.stability_of(row),
        strength=current,
        similarity=candidate.similarity,
        cosine=candidate.cosine,
        keyword=candidate.keyword,
        boost=boost,
        score=score(candidate.similarity, current, boost),
        age_days=days_between(parse_time(row.created), now),
        recall_tier=label,
        confidence=row.confidence,
        source=row.source,
        category=category_of(row.path, service.settings.category_rules),
        reason=f"cosine {candidate.cosine:.3f}, keyword {candidate.keyword:.3f} -> {explained}",
    )
