"""Filing: a topic for every memory a person did not file themselves.

Memories whose topic a person chose (jot --topic, ingest, a hand edit) are the
labelled set; the TF-IDF centroid model learns from them. A memory without a
topic is filed under the nearest centroid when its cosine clears the topic
bar, and marked `filed: auto` so a later sweep may change its mind; below the
bar it stays unfiled. Remove `filed: auto` from a file to make its topic a label.
"""

from __future__ import annotations

import hashlib
import logging
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from indexer.catalog import ManifestRow
from indexer.index import VaultIndex
from indexer.sync import Progress
from memory.config import MemoryConfig
from vault.errors import BrokenFileError, MemoryNotFoundError
from vault.schema import FILED_AUTO, MemoryRecord
from vault.store import MemoryStore

if TYPE_CHECKING:
    from indexer.topic_model import TopicModel

log = logging.getLogger(__name__)
MODEL_FILE = "topics.npz"


@dataclass
class FilingReport:
    considered: int = 0
    filed: dict[str, str] = field(default_factory=dict)  # id -> new topic ("" = unfiled)
    skipped: list[str] = field(default_factory=list)  # files vanished or broken meanwhile

    def to_dict(self) -> dict[str, Any]:
        return {
            "considered": self.considered,
            "changed": len(self.filed),
            "filed": self.filed,
            "skipped": self.skipped,
        }


@dataclass(frozen=True)
class TopicCount:
    topic: str
    labelled: int
    auto: int


class Filer:
    def __init__(self, store: MemoryStore, index: VaultIndex, config: MemoryConfig) -> None:
        self.store = store
        self.index = index
        self.config = config
        self._model: TopicModel | None = None

    @property
    def model_path(self) -> Path:
        return self.index.vault.index_dir / MODEL_FILE

    def model(self) -> TopicModel | None:
        """The topic model of the current labelled set (loaded, or refit and saved)."""
        from indexer.topic_model import TopicModel

        labelled = self.index.labelled_rows()  # only these rows: this runs on every jot
        key = _fingerprint(labelled)
        if self._model is not None and self._model.fingerprint == key:
            return self._model
        model = TopicModel.load(self.model_path) if self.model_path.exists() else None
        if model is None or model.fingerprint != key:
            texts = [self._text(r) for r in labelled]
            model = TopicModel.fit(texts, [r.topic for r in labelled], key)
            if model is not None:
                model.save(self.model_path)
        self._model = model
        return model

    def suggest(self, rows: list[ManifestRow]) -> dict[str, tuple[str, float]]:
        """Best topic and cosine for each row ("" when no topic is known yet). The model
        is fitted only when there is a row to classify: an edit of a filed memory changes
        the labelled set, and refitting it over every labelled text took seconds."""
        model = self.model() if rows else None
        if model is None:
            return {r.id: ("", 0.0) for r in rows}
        found = model.classify([self._text(r) for r in rows])
        return {r.id: result for r, result in zip(rows, found, strict=True)}

    def file_new(self, memory_ids: list[str]) -> dict[str, str]:
        """File fresh memories that have no topic; returns id -> topic for those filed."""
        rows = self.index.rows_for(memory_ids)
        unfiled = [r for r in rows.values() if not r.topic]
        chosen = {
            memory_id: topic
            for memory_id, (topic, score) in self.suggest(unfiled).items()
            if topic and score >= self.config.topic_bar
        }
        return self._write(chosen)

    def sweep(self, dry_run: bool = False, progress: Progress | None = None) -> FilingReport:
        """Reclassify every memory the classifier filed, and every unfiled one;
        `progress(done, total)` hears as the changed files are written."""
        rows = [r for r in self.index.rows(archived=None) if not r.topic or r.filed == FILED_AUTO]
        report = FilingReport(considered=len(rows))
        current = {r.id: r.topic for r in rows}
        for memory_id, (topic, score) in self.suggest(rows).items():
            wanted = topic if topic and score >= self.config.topic_bar else ""
            if wanted != current[memory_id]:
                report.filed[memory_id] = wanted
        if not dry_run:
            done = self._write(report.filed, progress, report.skipped)
            report.filed = {m: t for m, t in report.filed.items() if m in done}
        return report

    def counts(self) -> list[TopicCount]:
        labelled: Counter[str] = Counter()
        auto: Counter[str] = Counter()
        for row in self.index.rows(archived=False):
            (auto if row.filed == FILED_AUTO else labelled)[row.topic] += 1
        topics = sorted(set(labelled) | set(auto), key=lambda t: (t == "", t))
        return [TopicCount(t, labelled[t], auto[t]) for t in topics]

    def _text(self, row: ManifestRow) -> str:
        return " ".join([self.index.body(row.id), *row.tags])

    def _write(
        self,
        topics: dict[str, str],
        progress: Progress | None = None,
        skipped: list[str] | None = None,
    ) -> dict[str, str]:
        paths = []
        done = {}
        for count, (memory_id, topic) in enumerate(topics.items(), 1):
            if progress is not None:
                progress(count, len(topics))

            def mutate(record: MemoryRecord, topic: str = topic) -> dict[str, Any]:
                if record.topic and record.filed != FILED_AUTO:
                    return {}  # a person filed it meanwhile
                return {"topic": topic, "filed": FILED_AUTO if topic else ""}

            try:
                record = self.store.update(memory_id, mutate)
            except (MemoryNotFoundError, BrokenFileError) as exc:  # vanished or broken
                log.warning("topic of %s not updated: %s", memory_id, exc)
                if skipped is not None:
                    skipped.append(memory_id)
                continue
            paths.append(record.path)
            done[memory_id] = topic
        if paths:
            self.index.apply(paths, allow_embed=False)
        return done


def _fingerprint(rows: list[ManifestRow]) -> str:
    from indexer.topic_model import TOKENIZER_VERSION

    digest = hashlib.blake2b(digest_size=12)
    digest.update(f"tokenizer {TOKENIZER_VERSION}\n".encode())
    for row in rows:  # in id order
        digest.update(f"{row.id}|{row.topic}|{row.body_hash}|{','.join(row.tags)}\n".encode())
    return digest.hexdigest()
