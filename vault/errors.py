"""Errors raised by the vault layer.

Every message names the file or id involved and, where there is one, the fix.
"""

from __future__ import annotations

TYPE_CHECKING = False  # not typing's: on the prompt hook path `import typing` adds ~23 ms
if TYPE_CHECKING:
    from pathlib import Path


class VaultError(Exception):
    """Base class for every error of the vault layer."""


class InvalidIdError(VaultError):
    """An id (or a name that becomes a path) could leave the vault or is malformed."""


class MemoryNotFoundError(VaultError):
    """No memory file carries the requested id."""


class BrokenFileError(VaultError):
    """A memory file we cannot use: its frontmatter does not parse or validate,
    it is not text, empty or too large, or it is a symbolic link.

    Such a file is reported and never rewritten.
    """

    def __init__(self, path: Path, reason: str, fix: str = "fix the frontmatter by hand") -> None:
        super().__init__(f"{path}: {reason} ({fix}; the file is left untouched)")
        self.path = path
        self.reason = reason


class ConcurrentEditError(VaultError):
    """A file kept changing under us while we tried to update it."""
