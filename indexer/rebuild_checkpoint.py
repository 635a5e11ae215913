"""The embeddings of a full rebuild kept on disk as they are made, so a rebuild
that is interrupted (Ctrl-C, a kill, a crash) resumes where it stopped instead of
encoding everything again. Parts live in `.index/rebuild/`, each written
atomically, keyed by a hash of the text; they belong to one model and chunking
and are deleted once the rebuild is published. Derived and disposable: losing
them only costs the encoding again. Owns that folder; publishes nothing.
"""

from __future__ import annotations

import hashlib
import json
import shutil
from pathlib import Path
from typing import TYPE_CHECKING

from indexer.embedder import Embedder
from vault.atomic import atomic_replace, atomic_write

if TYPE_CHECKING:
    import numpy as np

FOLDER = "rebuild"
KEY_BYTES = 20
PART_MOST = 1024  # texts per part at most; at least one batch, about 1/20 of the work


def text_key(text: str) -> bytes:
    return hashlib.sha1(text.encode("utf-8")).digest()


def part_size(total: int, batch: int) -> int:
    """Texts per saved part: about a twentieth of the work, between one batch and
    PART_MOST, so an interruption loses little and a big rebuild writes few files."""
    return max(batch, min(PART_MOST, total // 20))


class RebuildCheckpoint:
    def __init__(self, index_dir: Path, embedder: Embedder, chunking: tuple[int, int]) -> None:
        """What the vectors depend on: the model, its dimension, the chunking."""
        self.folder = index_dir / FOLDER
        self.identity = {"model": embedder.name, "dimension": embedder.dimension,
                         "chunking": list(chunking)}  # fmt: skip
        self._parts = 0

    def load(self) -> dict[bytes, np.ndarray]:
        """The vectors saved by an interrupted rebuild of the same identity; a
        checkpoint of another model or chunking is dropped."""
        import numpy as np

        try:
            saved = json.loads((self.folder / "identity.json").read_text(encoding="utf-8"))
        except (OSError, ValueError):
            saved = None
        if saved != self.identity:
            self.clear()
            return {}
        found: dict[bytes, np.ndarray] = {}
        for path in sorted(self.folder.glob("part-*.npz")):
            number = path.stem.removeprefix("part-")
            self._parts = max(self._parts, int(number) + 1 if number.isdigit() else 0)
            try:
                with np.load(path) as part:
                    keys, vectors = part["keys"], part["vectors"]
            except (OSError, ValueError, KeyError):
                continue  # unreadable: those texts are encoded again
            found.update(zip((row.tobytes() for row in keys), vectors, strict=True))
        return found

    def start(self) -> None:
        """Ready the folder for new parts (after `load`, which keeps what matches)."""
        self.folder.mkdir(parents=True, exist_ok=True, mode=0o700)
        data = json.dumps(self.identity, sort_keys=True).encode("utf-8")
        atomic_write(self.folder / "identity.json", data, mode=0o600)

    def save(self, texts: list[str], vectors: np.ndarray) -> None:
        """One more part: these texts' vectors, durable once this returns."""
        import numpy as np

        digests = b"".join(text_key(t) for t in texts)
        keys = np.frombuffer(digests, dtype=np.uint8).reshape(len(texts), KEY_BYTES)
        path = self.folder / f"part-{self._parts:06d}.npz"
        self._parts += 1

        def write(tmp: str) -> None:
            with open(tmp, "wb") as handle:
                np.savez(handle, keys=keys, vectors=np.asarray(vectors, dtype=np.float32))

        atomic_replace(path, write, mode=0o600)

    def clear(self) -> None:
        shutil.rmtree(self.folder, ignore_errors=True)
        self._parts = 0
