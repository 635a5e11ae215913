"""The installed package's version, read from its metadata (pyproject.toml is the
one place it is written). The daemon reports the version it started with; a client
that finds another one restarts it. Never imported on the prompt hook's fast path.
"""

from __future__ import annotations

from importlib import metadata

DISTRIBUTION = "memory-vault"
UNKNOWN = "unknown"  # running from a source tree that was never installed


def installed_version() -> str:
    try:
        return metadata.version(DISTRIBUTION)
    except metadata.PackageNotFoundError:
        return UNKNOWN
