"""The derived index: embeddings, FAISS vectors, SQLite FTS5 and manifest,
delta sync and the file watcher. Everything here can be deleted and rebuilt
from the vault; nothing lives only here.
"""

from indexer.catalog import ManifestRow
from indexer.embedder import DEFAULT_MODEL_NAME, Embedder, SentenceTransformerEmbedder
from indexer.errors import CorruptIndexError, IndexerError, ModelUnavailableError
from indexer.fusion import FusionWeights, fuse, normalise_bm25
from indexer.index import Candidate, Filters, VaultIndex
from indexer.keywords import match_expression, query_terms
from indexer.sync import SyncReport
from indexer.watch import Changes, VaultWatcher

__all__ = [
    "DEFAULT_MODEL_NAME",
    "Candidate",
    "Changes",
    "CorruptIndexError",
    "Embedder",
    "Filters",
    "FusionWeights",
    "IndexerError",
    "ManifestRow",
    "ModelUnavailableError",
    "SentenceTransformerEmbedder",
    "SyncReport",
    "VaultIndex",
    "VaultWatcher",
    "fuse",
    "match_expression",
    "normalise_bm25",
    "query_terms",
]
