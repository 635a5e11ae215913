"""MemoryService: the memory model over one vault.

Encoding (jot, ingest), recall (ordinary, associative, cold), reinforcement and
confirmation, forgetting (prune, forget, revive, purge) and status. Files are
written through the vault layer; ranking reads only the index's manifest. The
clock is injected, so every time-dependent behaviour can be simulated.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable
from dataclasses import dataclass, replace
from datetime import datetime
from pathlib import Path
from typing import Any

from indexer.catalog import ManifestRow
from indexer.index import Candidate, Filters, VaultIndex
from indexer.sync import SyncReport
from memory.associate import Edge, Linker, LinkReport
from memory.config import MemoryConfig
from memory.decay import days_between, reinforce, strength
from memory.errors import RecallError
from memory.filing import Filer, FilingReport, TopicCount
from memory.recall_tiers import classify, score, why
from memory.redact import redact
from memory.results import Associative, Hit, Listing, Status
from memory.spreading import Scored, spread
from vault.clock import Clock, parse_time, utc_now
from vault.config import Settings, default_config_text
from vault.errors import VaultError
from vault.ids import make_id, slugify, validate_id
from vault.layout import Vault
from vault.schema import MemoryRecord
from vault.store import MemoryStore

HISTOGRAM = ((0.0, 0.02), (0.02, 0.1), (0.1, 0.35), (0.35, 0.7), (0.7, 1.01))
BULK_LINKING = 100  # more new memories than this in one sync: sweep instead of linking each


@dataclass(frozen=True)
class RecallOptions:
    limit: int = 5
    project: str | None = None  # the caller's current project: boosted, not filtered
    topic_hint: str | None = None
    exclude_topic: str | None = None
    reinforce: bool = True
    decay: bool = True  # False: rank by similarity alone (static-knowledge benchmarks)
    see_also: bool = True  # spreading activation to linked and same-session memories


class MemoryService:
    def __init__(
        self,
        vault: Vault,
        settings: Settings,
        clock: Clock = utc_now,
        index: VaultIndex | None = None,
        auto_sync: bool = True,
        embed_on_write: bool = True,
    ) -> None:
        self.vault = vault
        self.settings = settings
        self.config = MemoryConfig.from_settings(settings)
        self.clock = clock
        self.store = MemoryStore(vault)
        self.index = index or VaultIndex(vault, settings)
        self.auto_sync = auto_sync
        self.embed_on_write = embed_on_write
        self.linker = Linker(self.store, self.index, self.config)
        self.filer = Filer(self.store, self.index, self.config)

    # Set-up ----------------------------------------------------------------

    @staticmethod
    def init_vault(vault: Vault) -> bool:
        """Create the folders and a commented config.toml; False if it existed."""
        existed = vault.exists()
        vault.create_folders()
        if not vault.config_path.exists():
            vault.config_path.write_text(default_config_text(), encoding="utf-8")
        return not existed

    def require_vault(self) -> None:
        if not self.vault.exists():
            raise VaultError(f"no vault at {self.vault.root}; run `vault init` first")

    def sync(self) -> SyncReport:
        """Bring the index up to date; memories embedded now for the first time
        (written without vectors, or dropped in by hand) get their links."""
        self.require_vault()
        report = self.index.sync()
        if report.added:
            self.filer.file_new(report.added)
            if len(report.added) > BULK_LINKING:  # a rebuild: one write per changed file
                self.linker.sweep()
            else:
                self.linker.link_new(report.added, only_unlinked=True)
        return report

    def _fresh(self) -> None:
        if self.auto_sync:
            self.sync()

    # Encoding --------------------------------------------------------------

    def jot(
        self,
        text: str,
        *,
        topic: str = "",
        tags: Iterable[str] = (),
        project: str = "",
        session: str = "",
        kind: str = "fact",
        source: str = "jot",
        salience: float = 1.0,
        created: datetime | None = None,
    ) -> MemoryRecord:
        """A cheap episodic fragment (base stability 7 days). `created` is when it
        was said (a transcript's timestamp; never later than now); its strength
        starts now either way."""
        self.require_vault()
        body = redact(text).strip()
        if not body:
            raise RecallError("nothing to remember: the text is empty (or entirely private)")
        now = self.clock()
        meta: dict[str, Any] = {
            "id": "",
            "created": min(created, now) if created else now,
            "last_access": now,
            "stability": self.config.episodic_base_stability,
            "tier": "episodic",
            "kind": kind,
            "topic": topic,
            "tags": [slugify(t, 4) for t in tags if t.strip()],
            "project": project,
            "session": session,
            "source": source,
            "recalls": 0,
            "confirmations": 0,
            "salience": salience,
            "links": [],
        }
        for attempt in range(20):
            memory_id = make_id(body, meta["created"], salt=str(attempt) if attempt else "")
            meta["id"] = memory_id
            try:
                path = self.store.create(memory_id, meta, body + "\n")
            except FileExistsError:
                continue
            self.index.apply([path], allow_embed=self.embed_on_write)
            return self._associate(memory_id, path)
        raise RecallError("could not find a free id for this memory")

    def ingest(
        self, source: Path, *, topic: str = "", tags: Iterable[str] = (), project: str = ""
    ) -> MemoryRecord:
        """A curated memory from a Markdown or text file; re-ingesting updates it."""
        self.require_vault()
        source = source.expanduser().absolute()
        if not source.is_file():
            raise RecallError(f"{source}: no such file")
        try:
            text = source.read_text(encoding="utf-8")
        except UnicodeDecodeError as exc:
            raise RecallError(f"{source}: not UTF-8 text; only Markdown and text files") from exc
        from vault.frontmatter import FrontmatterError, parse

        try:
            parsed = parse(text)
        except FrontmatterError:
            parsed = None
        body = redact(parsed.body if parsed and parsed.has_frontmatter else text)
        if not body.strip():
            raise RecallError(f"{source}: the file is empty")
        found_tags = list(tags) or _as_list(parsed.meta.get("tags") if parsed else None)
        digest = hashlib.blake2b(str(source).encode(), digest_size=2).hexdigest()
        memory_id = validate_id(f"{slugify(source.stem, 8)}-{digest}")
        now = self.clock()
        changes: dict[str, Any] = {
            "topic": topic or str((parsed.meta.get("topic") if parsed else "") or ""),
            "tags": found_tags,
            "project": project,
            "source": "ingest",
            "source_path": str(source),
        }
        try:
            existing = self.store.read(memory_id)
        except VaultError:
            existing = None
        if existing is None:
            meta: dict[str, Any] = {
                "id": memory_id,
                "created": now,
                "last_access": now,
                "stability": self.config.curated_base_stability,
                "tier": "curated",
                "kind": "note",
                **changes,
                "recalls": 0,
                "confirmations": 0,
                "salience": 1.0,
                "links": [],
            }
            path = self.store.create(memory_id, meta, body if body.endswith("\n") else body + "\n")
        else:
            path = self.store.rewrite(memory_id, {**changes, "last_access": now}, body).path
        self.index.apply([path], allow_embed=self.embed_on_write)
        return self._associate(memory_id, path)

    def _associate(self, memory_id: str, path: Path) -> MemoryRecord:
        """File a new or changed memory and link it to its neighbours. Without
        vectors yet (a quick CLI jot), the sync that embeds it does both."""
        if self.embed_on_write:
            self.filer.file_new([memory_id])
            self.linker.link_new([memory_id])
        return self.store.read_path(path)

    # Recall ----------------------------------------------------------------

    def recall(self, query: str, options: RecallOptions | None = None) -> list[Hit]:
        """Rank by similarity x strength; hide strength < retrieval floor; reinforce hits."""
        opts = options or RecallOptions()
        now = self.clock()
        ranked = []
        for candidate in self._candidates(query, opts, archived=False):
            current = self._strength(candidate.row, now) if opts.decay else 1.0
            if current < self.config.retrieval_floor:
                continue
            if candidate.similarity < self.config.min_similarity:
                continue
            boost = self._boost(candidate.row, opts)
            ranked.append(Scored(score(candidate.similarity, current, boost), current, candidate))
        ranked.sort(key=lambda item: item.score, reverse=True)
        # Direct hits past the limit stay in the running: a see-also memory only
        # displaces a direct hit it outscores. One that matched the query on its
        # own keeps the better of its two scores.
        pool = {item.id: item for item in ranked[: 2 * opts.limit]}
        own = {item.id: item for item in ranked[2 * opts.limit :]}
        for item in self._spread(ranked[: opts.limit], opts, now) if opts.see_also else []:
            best = pool.get(item.id) or own.get(item.id)
            if best is None or best.score < item.score:
                pool[item.id] = item
            else:
                pool[item.id] = best
        chosen = sorted(pool.values(), key=lambda item: item.score, reverse=True)[: opts.limit]
        hits = [self._scored_hit(item, opts, now, "recall") for item in chosen]
        if opts.reinforce:  # only direct hits are reinforced, never see-also
            reinforced = {h.id: h for h in self.reinforce_hits([h for h in hits if not h.via])}
            hits = [reinforced.get(h.id, h) if not h.via else h for h in hits]
        return hits

    def _spread(self, hits: list[Scored], opts: RecallOptions, now: Any) -> list[Scored]:
        def admit(row: ManifestRow) -> float | None:
            if row.archived or (opts.exclude_topic and row.topic == opts.exclude_topic):
                return None
            current = self._strength(row, now) if opts.decay else 1.0
            return current if current >= self.config.retrieval_floor else None

        return spread(hits, self.index, self.config, admit)

    def _scored_hit(self, item: Scored, opts: RecallOptions, now: Any, label: str) -> Hit:
        hit = self._hit(item.candidate, item.strength, opts, now, "see-also" if item.via else label)
        if not item.via:
            return hit
        return replace(hit, score=item.score, via=item.via, reason=item.note)

    def recall_associative(self, query: str, options: RecallOptions | None = None) -> Associative:
        """Confident tier (reinforced) and activated tier (hedged, not reinforced)."""
        opts = options or RecallOptions()
        now = self.clock()
        tiers: dict[str, list[tuple[float, float, float, Candidate]]] = {
            "confident": [],
            "activated": [],
        }
        for candidate in self._candidates(query, opts, archived=False):
            current = self._strength(candidate.row, now)
            boost = self._boost(candidate.row, opts)
            tier = classify(candidate.similarity, current, boost, self.config)
            if tier is not None:
                value = score(candidate.similarity, current, boost)
                tiers[tier].append((value, candidate.similarity, current, candidate))
        best = {}
        for label, items in tiers.items():
            items.sort(key=lambda item: (item[0], item[1]), reverse=True)
            best[label] = [self._hit(c, s, opts, now, label) for _, _, s, c in items[: opts.limit]]
        chosen = best["confident"]
        shown = [
            Scored(value, current, candidate)
            for label in ("confident", "activated")
            for value, _, current, candidate in tiers[label][: opts.limit]
        ]
        spread = self._spread(shown, opts, now) if opts.see_also else []
        spread.sort(key=lambda i: i.score, reverse=True)
        see_also = [self._scored_hit(item, opts, now, "see-also") for item in spread[: opts.limit]]
        if opts.reinforce:
            chosen = self.reinforce_hits(chosen)
        return Associative(chosen, best["activated"], see_also)

    def recall_cold(self, query: str, limit: int = 5) -> list[Hit]:
        """Search only the archive, with the stricter cold bar on similarity alone."""
        opts = RecallOptions(limit=limit, reinforce=False)
        now = self.clock()
        hits = [
            self._hit(c, self._strength(c.row, now), opts, now, "cold")
            for c in self._candidates(query, opts, archived=True)
            if c.similarity >= self.config.cold_bar
        ]
        hits.sort(key=lambda h: h.similarity, reverse=True)
        return hits[:limit]

    def _candidates(self, query: str, opts: RecallOptions, archived: bool) -> list[Candidate]:
        if not query.strip():
            raise RecallError("the query is empty")
        if opts.limit < 1:
            raise RecallError("the number of results must be at least 1")
        self._fresh()
        candidates = self.index.search(query, k=max(opts.limit * 4, 20), filters=Filters(archived))
        return [
            c for c in candidates if not opts.exclude_topic or c.row.topic != opts.exclude_topic
        ]

    def _strength(self, row: ManifestRow, now: Any) -> float:
        stability = row.stability or self.config.base_stability(row.tier)
        return strength(days_between(parse_time(row.last_access), now), stability)

    def _boost(self, row: ManifestRow, opts: RecallOptions) -> float:
        boost = 1.0
        if opts.project and row.project == opts.project:
            boost *= self.config.project_boost
        if opts.topic_hint and row.topic == opts.topic_hint:
            boost *= self.config.topic_boost
        return boost

    def _hit(
        self, candidate: Candidate, current: float, opts: RecallOptions, now: Any, label: str
    ) -> Hit:
        row = candidate.row
        boost = self._boost(row, opts)
        return Hit(
            id=row.id,
            text=self.index.body(row.id).strip(),
            path=row.path,
            tier=row.tier,
            kind=row.kind,
            topic=row.topic,
            tags=row.tags,
            project=row.project,
            created=row.created,
            last_access=row.last_access,
            stability=row.stability or self.config.base_stability(row.tier),
            strength=current,
            similarity=candidate.similarity,
            cosine=candidate.cosine,
            keyword=candidate.keyword,
            boost=boost,
            score=score(candidate.similarity, current, boost),
            age_days=days_between(parse_time(row.created), now),
            recall_tier=label,
            reason=(
                f"cosine {candidate.cosine:.3f}, keyword {candidate.keyword:.3f} -> "
                + why(candidate.similarity, current, boost, self.config)
            ),
        )

    def reinforce_hits(self, hits: list[Hit]) -> list[Hit]:
        """Reinforce recall hits (x1.5 each); returns them with their new stability."""
        done = []
        paths = []
        for hit in hits:
            record = self._grow(hit.id, self.config.reinforce_factor, "recalls")
            paths.append(record.path)
            done.append(
                replace(hit, reinforced=True, stability=record.stability or 0.0, tier=record.tier)
            )
        if paths:
            self.index.apply(paths, allow_embed=False)
        return done

    # Reinforcement ---------------------------------------------------------

    def _grow(self, memory_id: str, factor: float, counter: str) -> MemoryRecord:
        now = self.clock()

        def mutate(record: MemoryRecord) -> dict[str, Any]:
            grown = reinforce(record.stability, record.tier, factor, self.config)
            return {
                "last_access": now,
                "stability": grown.stability,
                "tier": grown.tier,
                counter: getattr(record, counter) + 1,
            }

        return self.store.update(validate_id(memory_id), mutate)

    def reinforce(self, memory_id: str) -> MemoryRecord:
        """What a recall hit does: stability x1.5 (capped), last access now."""
        record = self._grow(memory_id, self.config.reinforce_factor, "recalls")
        self.index.apply([record.path], allow_embed=False)
        return record

    def confirm_activation(self, memory_id: str) -> MemoryRecord:
        """The person confirmed a hedged memory: stability x2.5 (capped)."""
        record = self._grow(memory_id, self.config.confirm_factor, "confirmations")
        self.index.apply([record.path], allow_embed=False)
        return record

    # Forgetting ------------------------------------------------------------

    def prune(self, dry_run: bool = False) -> list[Listing]:
        """Archive every active memory weaker than the archive floor."""
        self._fresh()
        now = self.clock()
        due = [
            row
            for row in self.index.rows(archived=False)
            if self._strength(row, now) < self.config.archive_floor
            and (row.tier != "curated" or self.config.prune_curated)
        ]
        listings = [self._listing(row, now) for row in due]
        if not dry_run:
            moved = [self.store.move(row.id, to_archive=True).path for row in due]
            moved += [self.vault.root / row.path for row in due]
            self.index.apply(moved, allow_embed=False)
        return listings

    def forget(self, memory_id: str) -> MemoryRecord:
        """Archive a memory now (reversible with revive)."""
        record = self.store.move(validate_id(memory_id), to_archive=True)
        self._moved(memory_id, record)
        return record

    def revive_from_cold(self, memory_id: str) -> MemoryRecord:
        """Bring an archived memory back; it counts as accessed now."""
        now = self.clock()
        record = self.store.move(
            validate_id(memory_id), to_archive=False, mutate=lambda _: {"last_access": now}
        )
        self._moved(memory_id, record)
        return record

    def _moved(self, memory_id: str, record: MemoryRecord) -> None:
        row = self.index.row(memory_id)
        old = [self.vault.root / row.path] if row else []
        self.index.apply([record.path, *old], allow_embed=self.embed_on_write)

    def purge(self, memory_id: str) -> Path:
        """Delete a memory for good: the only true deletion."""
        path = self.store.delete(validate_id(memory_id))
        self.index.apply([path], allow_embed=False)
        return path

    # Association -----------------------------------------------------------

    def sweep_links(self, dry_run: bool = False) -> LinkReport:
        """Recompute every memory's links (after edits, purges, consolidation)."""
        self._fresh()
        return self.linker.sweep(dry_run=dry_run)

    def links(self, memory_id: str) -> tuple[list[ManifestRow | str], list[ManifestRow]]:
        """A memory's links and backlinks."""
        self._fresh()
        return self.linker.links_of(validate_id(memory_id))

    def graph(self) -> tuple[list[ManifestRow], list[Edge]]:
        self._fresh()
        return self.linker.edges()

    # Filing ----------------------------------------------------------------

    def sweep_topics(self, dry_run: bool = False) -> FilingReport:
        """Reclassify auto-filed and unfiled memories against the current labels."""
        self._fresh()
        return self.filer.sweep(dry_run=dry_run)

    def topics(self) -> list[TopicCount]:
        self._fresh()
        return self.filer.counts()

    # Reading ---------------------------------------------------------------

    def show(self, memory_id: str) -> tuple[MemoryRecord, float]:
        record = self.store.read(validate_id(memory_id))
        stability = record.stability or self.config.base_stability(record.tier)
        current = strength(days_between(record.last_access, self.clock()), stability)
        return record, current

    def list_memories(
        self, tier: str | None = None, archived: bool = False, tag: str | None = None
    ) -> list[Listing]:
        self._fresh()
        now = self.clock()
        rows = [
            r
            for r in self.index.rows(archived=archived)
            if (tier is None or r.tier == tier) and (tag is None or tag in r.tags)
        ]
        listings = [self._listing(r, now) for r in rows]
        listings.sort(key=lambda item: item.strength, reverse=True)
        return listings

    def _listing(self, row: ManifestRow, now: Any) -> Listing:
        body = " ".join(self.index.body(row.id).split())
        return Listing(
            id=row.id,
            path=row.path,
            tier=row.tier,
            kind=row.kind,
            topic=row.topic,
            project=row.project,
            archived=row.archived,
            strength=self._strength(row, now),
            stability=row.stability or self.config.base_stability(row.tier),
            last_access=row.last_access,
            preview=body[:100],
        )

    def status(self) -> Status:
        report = self.sync()
        now = self.clock()
        active = self.index.rows(archived=False)
        archived = self.index.rows(archived=True)
        counts = {tier: 0 for tier in ("episodic", "semantic", "curated")}
        histogram = {f"{low:.2f}-{min(high, 1.0):.2f}": 0 for low, high in HISTOGRAM}
        for row in active:
            counts[row.tier] = counts.get(row.tier, 0) + 1
            value = self._strength(row, now)
            for (low, high), label in zip(HISTOGRAM, histogram, strict=True):
                if low <= value < high:
                    histogram[label] += 1
        archive_bytes = sum(f.stat().st_size for f in self.vault.memory_files(archived=True))
        stats = self.index.stats()
        stats["last_sync"] = report.summary()
        return Status(
            vault=str(self.vault.root),
            active=counts,
            archived=len(archived),
            archive_bytes=archive_bytes,
            histogram=list(histogram.items()),
            problems=self.index.problems(),
            index=stats,
        )


def _as_list(value: object) -> list[str]:
    if isinstance(value, list):
        return [str(v) for v in value]
    if isinstance(value, str) and value:
        return [v.strip() for v in value.split(",") if v.strip()]
    return []
