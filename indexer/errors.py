"""Errors of the derived index. Each names the file and the fix."""

from __future__ import annotations


class IndexerError(Exception):
    """Base class for every error of the indexer."""


class CorruptIndexError(IndexerError):
    """An index file is truncated, garbage or inconsistent; rebuild it from the vault."""


class ModelUnavailableError(IndexerError):
    """The embedding model cannot be loaded offline."""


class IndexBusyError(IndexerError):
    """Another process holds the index lock (a long write or rebuild); try again."""
