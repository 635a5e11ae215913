"""Memory ids: readable slug plus a short hash, and their validation.

An id is also a filename stem, so validation is what keeps every derived path
inside the vault: no separators, no `..`, no leading dot, no control characters.
"""

from __future__ import annotations

import hashlib
import re
import unicodedata
from datetime import datetime

from vault.errors import InvalidIdError
from vault.stopwords import STOPWORDS

MAX_ID_LENGTH = 200
_SLUG_WORDS = 6
_SLUG_MAX = 48


def slugify(text: str, max_words: int = _SLUG_WORDS) -> str:
    """A lowercase ASCII slug of the first meaningful words of `text`."""
    ascii_text = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode()
    ascii_text = re.sub(r"(?<=\w)'(?=\w)", "", ascii_text)
    words = [w for w in re.findall(r"[a-z0-9]+", ascii_text.lower()) if w not in STOPWORDS]
    slug = "-".join(words[:max_words])[:_SLUG_MAX].strip("-")
    return slug or "memory"


def make_id(text: str, created: datetime, salt: str = "") -> str:
    """`YYYY-MM-DD-<slug>-<4 hex>`; `salt` varies the hash to resolve collisions."""
    digest = hashlib.blake2b(f"{created.isoformat()}|{salt}|{text}".encode(), digest_size=2)
    return f"{created:%Y-%m-%d}-{slugify(text)}-{digest.hexdigest()}"


def validate_id(memory_id: str) -> str:
    """Return `memory_id` unchanged if it is safe to use as a filename stem."""
    if not isinstance(memory_id, str) or not memory_id.strip():
        raise InvalidIdError("memory id is empty")
    if len(memory_id) > MAX_ID_LENGTH:
        raise InvalidIdError(f"memory id is longer than {MAX_ID_LENGTH} characters")
    if any(sep in memory_id for sep in ("/", "\\", "\0")) or ".." in memory_id:
        raise InvalidIdError(
            f"invalid memory id {memory_id!r}: ids may not contain path separators or '..'"
        )
    if memory_id.startswith(".") or any(unicodedata.category(c) == "Cc" for c in memory_id):
        raise InvalidIdError(
            f"invalid memory id {memory_id!r}: no leading dot or control characters"
        )
    return memory_id
