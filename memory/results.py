"""What the service hands back: recall hits, the two associative tiers,
listings, status, and one memory as JSON-ready data."""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any

from vault.indexed_folders import is_document_path
from vault.schema import DEFAULT_CONFIDENCE, MemoryRecord


@dataclass(frozen=True)
class Hit:
    id: str
    text: str
    path: str
    tier: str  # episodic | semantic | curated
    kind: str
    topic: str
    tags: tuple[str, ...]
    project: str
    created: str
    last_access: str
    stability: float
    strength: float
    similarity: float
    cosine: float
    keyword: float
    boost: float
    score: float
    age_days: float
    recall_tier: str  # confident | activated | recall | cold | see-also
    reason: str
    reinforced: bool = False
    via: str = ""  # see-also: the hit that brought this memory in
    confidence: float = DEFAULT_CONFIDENCE  # from validation (0.3-0.9)
    source: str = ""  # jot, transcript, ... or `folder` for a document indexed in place
    category: str = ""  # by the category_rules ("" when none matches)

    @property
    def document(self) -> bool:
        """A document of a folder indexed in place (its path is absolute): read,
        never written, so no lifecycle step touches it."""
        return is_document_path(self.path)

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Hit:
        return cls(**{**data, "tags": tuple(data.get("tags", ()))})

    def to_dict(self) -> dict[str, Any]:
        data = asdict(self)
        data["tags"] = list(self.tags)
        for key in ("stability", "strength", "similarity", "cosine", "keyword", "score"):
            data[key] = round(data[key], 4)
        data["age_days"] = round(self.age_days, 1)
        return data


@dataclass(frozen=True)
class Associative:
    confident: list[Hit]
    activated: list[Hit]
    see_also: list[Hit] = field(default_factory=list)  # linked to the hits above

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Associative:
        return cls(
            [Hit.from_dict(h) for h in data.get("confident", [])],
            [Hit.from_dict(h) for h in data.get("activated", [])],
            [Hit.from_dict(h) for h in data.get("see_also", [])],
        )

    def to_dict(self) -> dict[str, Any]:
        return {
            "confident": [h.to_dict() for h in self.confident],
            "activated": [h.to_dict() for h in self.activated],
            "see_also": [h.to_dict() for h in self.see_also],
        }


@dataclass(frozen=True)
class Listing:
    id: str
    path: str
    tier: str
    kind: str
    topic: str
    project: str
    archived: bool
    strength: float
    stability: float
    last_access: str
    preview: str

    def to_dict(self) -> dict[str, Any]:
        data = asdict(self)
        data["strength"] = round(self.strength, 4)
        data["stability"] = round(self.stability, 3)
        return data


@dataclass(frozen=True)
class Status:
    vault: str
    active: dict[str, int]
    archived: int
    archive_bytes: int
    histogram: list[tuple[str, int]]
    problems: list[tuple[str, str]]
    index: dict[str, Any] = field(default_factory=dict)
    consolidation: dict[str, Any] = field(default_factory=dict)  # last run, learned salience

    def to_dict(self) -> dict[str, Any]:
        return {
            "vault": self.vault,
            "active": self.active,
            "archived": self.archived,
            "archive_bytes": self.archive_bytes,
            "strength_histogram": dict(self.histogram),
            "problems": [{"path": p, "reason": r} for p, r in self.problems],
            "index": self.index,
            "consolidation": self.consolidation,
        }


def memory_dict(record: MemoryRecord, strength: float) -> dict[str, Any]:
    """One memory with its current strength, as `vault show --json`, the daemon
    and the MCP server hand it out."""
    return {
        "id": record.id,
        "path": str(record.path),
        "archived": record.archived,
        "tier": record.tier,
        "kind": record.kind,
        "topic": record.topic,
        "tags": list(record.tags),
        "project": record.project,
        "stability": record.stability,
        "strength": round(strength, 4),
        "recalls": record.recalls,
        "confirmations": record.confirmations,
        "created": record.created.isoformat(),
        "last_access": record.last_access.isoformat(),
        "links": list(record.links),
        "confidence": record.confidence,
        "salience": record.salience,
        "text": record.body,
    }
