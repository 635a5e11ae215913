"""The derived index: embeddings, FAISS vectors, SQLite FTS5 and manifest,
delta sync and the file watcher. Everything here can be deleted and rebuilt
from the vault; nothing lives only here.
"""
