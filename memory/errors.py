"""Errors of the memory model."""

from __future__ import annotations


class RecallError(Exception):
    """Base class for errors of the memory model (bad input to the service)."""


class ConsolidationError(RecallError):
    """A consolidation run or its undo cannot be done as asked (the message says why)."""
