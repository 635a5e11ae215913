"""The derived index: embeddings, FAISS vectors, SQLite FTS5 and manifest,
delta sync and the file watcher. Everything here can be deleted and rebuilt
from the vault; nothing lives only here.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from indexer.catalog import (
        ManifestRow as ManifestRow,
    )
    from indexer.embedder import (
        DEFAULT_MODEL_NAME as DEFAULT_MODEL_NAME,
        Embedder as Embedder,
        SentenceTransformerEmbedder as SentenceTransformerEmbedder,
    )
    from indexer.errors import (
        CorruptIndexError as CorruptIndexError,
        IndexerError as IndexerError,
        ModelUnavailableError as ModelUnavailableError,
    )
    from indexer.fusion import (
        FusionWeights as FusionWeights,
        fuse as fuse,
        normalise_bm25 as normalise_bm25,
    )
    from indexer.index import (
        Candidate as Candidate,
        Filters as Filters,
        VaultIndex as VaultIndex,
    )
    from indexer.keywords import (
        match_expression as match_expression,
        query_terms as query_terms,
    )
    from indexer.sync import (
        SyncReport as SyncReport,
    )
    from indexer.watch import (
        Changes as Changes,
        VaultWatcher as VaultWatcher,
    )

# Public names and the module that defines each; loaded on first use, so that
# importing one light submodule (the hook fast path does) loads nothing else.
_EXPORTS = {
    "Candidate": "indexer.index",
    "Changes": "indexer.watch",
    "CorruptIndexError": "indexer.errors",
    "DEFAULT_MODEL_NAME": "indexer.embedder",
    "Embedder": "indexer.embedder",
    "Filters": "indexer.index",
    "FusionWeights": "indexer.fusion",
    "IndexerError": "indexer.errors",
    "ManifestRow": "indexer.catalog",
    "ModelUnavailableError": "indexer.errors",
    "SentenceTransformerEmbedder": "indexer.embedder",
    "SyncReport": "indexer.sync",
    "VaultIndex": "indexer.index",
    "VaultWatcher": "indexer.watch",
    "fuse": "indexer.fusion",
    "match_expression": "indexer.keywords",
    "normalise_bm25": "indexer.fusion",
    "query_terms": "indexer.keywords",
}
__all__ = sorted(_EXPORTS)


def __getattr__(name: str) -> Any:
    if name in _EXPORTS:
        return getattr(importlib.import_module(_EXPORTS[name]), name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
