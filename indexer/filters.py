"""Search filters: which manifest rows a search may return (archived or not,
project, topic, tier, tags, kind, and the category the `category_rules` give a
row's path). Plain values; nothing here reads a file or the index.
"""

from __future__ import annotations

from dataclasses import dataclass

from indexer.catalog import ManifestRow
from vault.categories import category_of


@dataclass(frozen=True)
class Filters:
    archived: bool | None = False
    project: str | None = None
    topic: str | None = None
    tier: str | None = None
    tags: tuple[str, ...] = ()
    kind: str | None = None
    category: str | None = None  # by the `category_rules` given with it
    category_rules: tuple[str, ...] = ()

    @property
    def narrows(self) -> bool:
        return self.archived is not False or bool(
            self.project or self.topic or self.tier or self.tags or self.kind or self.category
        )

    def admits(self, row: ManifestRow) -> bool:
        return (
            (self.archived is None or row.archived == self.archived)
            and (self.project is None or row.project == self.project)
            and (self.topic is None or row.topic == self.topic)
            and (self.tier is None or row.tier == self.tier)
            and all(tag in row.tags for tag in self.tags)
            and (self.kind is None or row.kind == self.kind)
            and (
                self.category is None or category_of(row.path, self.category_rules) == self.category
            )
        )
