"""The bundled all-MiniLM-L6-v2 on ONNX Runtime: what every index encodes with.

The graph comes from indexer/onnx_export.py (made once by torch's exporter and
ONNX Runtime's optimizer, then cached); this module tokenizes like
sentence-transformers (its max_seq_length, no padding inside the tokenizer),
batches texts of similar length, mean-pools over the real tokens and scales to
unit length. The model's config is read for its width; nothing is hard-coded.
ONNX Runtime's telemetry is switched off before its first session.
"""

from __future__ import annotations

import functools
import json
import os
import threading
from collections import OrderedDict
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from indexer.errors import ModelUnavailableError
from indexer.onnx_export import exported_model

if TYPE_CHECKING:
    import numpy as np

DEFAULT_MODEL_NAME = "all-MiniLM-L6-v2"
# Texts encoded lately, kept with their vectors (1.5 KB each): a captured statement
# was encoded four times (its index entry, the capture judge's, linking's and
# interference's searches); a daemon sees the same prompt text again.
RECENT_TEXTS = 1024


class OnnxEncoder:
    """A sentence-transformers BERT model from a folder (the bundled one by
    default), served by ONNX Runtime from its cached export."""

    def __init__(
        self, model_dir: Path, cache_dir: Path, batch_size: int = 64, threads: int | None = 2
    ) -> None:
        """`threads`: how many cores one encode may use (at most those this process
        may run on; None: ONNX Runtime's choice)."""
        self.name = DEFAULT_MODEL_NAME
        self._model_dir = model_dir
        self._cache_dir = cache_dir
        self._batch_size = batch_size
        self._threads = min(threads, _usable_cores()) if threads else 0
        self._session: Any = None
        self._tokenizer: Any = None
        self._lock = threading.Lock()
        self._recent: OrderedDict[str, np.ndarray] = OrderedDict()
        self._recent_lock = threading.Lock()
        self.encoded_texts = 0  # texts the model ran on (not those answered from recent ones)
        self.requested_texts = 0  # texts asked for, answered either way

    @functools.cached_property
    def dimension(self) -> int:
        return int(_read_json(self._model_dir / "config.json")["hidden_size"])

    def load(self) -> Any:
        """The tokenizer, the session made (and the model exported) first if needed."""
        with self._lock:
            if self._tokenizer is None:
                self._session, self._tokenizer = _session(
                    self._model_dir, self._cache_dir, self._threads
                )
            return self._tokenizer

    def encode(self, texts: Sequence[str]) -> np.ndarray:
        """Unit-length float32 vectors, one row per text; a text encoded lately is
        not run through the model again."""
        import numpy as np

        with self._recent_lock:
            self.requested_texts += len(texts)
            known = {t: self._recent[t] for t in dict.fromkeys(texts) if t in self._recent}
        missing = [t for t in dict.fromkeys(texts) if t not in known]
        if missing:
            vectors = self._encode(missing)
            with self._recent_lock:
                for text, vector in zip(missing, vectors, strict=True):
                    known[text] = self._recent[text] = vector.copy()
                    while len(self._recent) > RECENT_TEXTS:
                        self._recent.popitem(last=False)
        with self._recent_lock:
            for text in known:
                if text in self._recent:
                    self._recent.move_to_end(text)
        if not texts:
            return np.zeros((0, self.dimension), dtype=np.float32)
        return np.vstack([known[t] for t in texts])

    def _encode(self, texts: Sequence[str]) -> np.ndarray:
        import numpy as np

        tokenizer = self.load()
        token_ids = [list(e.ids) for e in tokenizer.encode_batch(list(texts))]
        vectors = np.zeros((len(token_ids), self.dimension), dtype=np.float32)
        order = sorted(range(len(token_ids)), key=lambda i: len(token_ids[i]))
        for start in range(0, len(order), self._batch_size):
            batch = order[start : start + self._batch_size]
            ids, mask = _padded([token_ids[i] for i in batch])
            hidden = self._session.run(None, {"input_ids": ids, "attention_mask": mask})[0]
            real = mask[:, :, None].astype(np.float32)
            pooled = (hidden * real).sum(axis=1) / real.sum(axis=1)
            vectors[batch] = pooled / np.linalg.norm(pooled, axis=1, keepdims=True)
        self.encoded_texts += len(token_ids)
        return vectors


def _usable_cores() -> int:
    """The cores this process may run on (its CPU affinity where the system has one)."""
    if hasattr(os, "sched_getaffinity"):  # Linux; macOS has none
        return len(os.sched_getaffinity(0))
    return os.cpu_count() or 1


def _read_json(path: Path) -> dict[str, Any]:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        raise ModelUnavailableError(f"cannot read {path}: {exc}") from exc
    if not isinstance(data, dict):
        raise ModelUnavailableError(f"{path} is not a JSON object")
    return data


@functools.cache  # one session per model, cache and thread setting in a process
def _session(model_dir: Path, cache_dir: Path, threads: int) -> tuple[Any, Any]:
    # ONNX Runtime's builds send usage telemetry and keep a device id under
    # ~/.cache unless this is set before its first session: nothing leaves here
    os.environ["ORT_DISABLE_TELEMETRY"] = "1"
    import onnxruntime  # type: ignore[import-untyped]

    tokenizer = _tokenizer(model_dir)
    options = onnxruntime.SessionOptions()
    options.intra_op_num_threads = threads  # 0: ONNX Runtime's default
    options.inter_op_num_threads = 1
    # Its threads sleep when idle instead of spinning: one query on two cores
    # took 7.0 ms idle and 11.7 ms with both cores busy elsewhere (one thread:
    # 10.1 and 10.6; spinning: 5.9 and 16.5).
    options.add_session_config_entry("session.intra_op.allow_spinning", "0")
    options.log_severity_level = 3  # errors only: the daemon's stderr is its log
    # no arena: it kept a 64-text batch's peak (816 MB resident, 316 without)
    options.enable_cpu_mem_arena = False
    graph = exported_model(model_dir, cache_dir)
    session = onnxruntime.InferenceSession(str(graph), options, providers=["CPUExecutionProvider"])
    return session, tokenizer


def _tokenizer(model_dir: Path) -> Any:
    """A tokenizer that truncates like sentence-transformers and never pads."""
    from tokenizers import Tokenizer

    max_length = int(_read_json(model_dir / "sentence_bert_config.json")["max_seq_length"])
    try:
        tokenizer = Tokenizer.from_file(str(model_dir / "tokenizer.json"))
    except Exception as exc:  # the tokenizers library raises its own Exception
        raise ModelUnavailableError(f"cannot load the tokenizer in {model_dir}: {exc}") from exc
    tokenizer.no_padding()
    tokenizer.enable_truncation(max_length)
    return tokenizer


def _padded(token_ids: list[list[int]]) -> tuple[np.ndarray, np.ndarray]:
    import numpy as np

    width = max(len(ids) for ids in token_ids)
    ids = np.zeros((len(token_ids), width), dtype=np.int64)
    mask = np.zeros((len(token_ids), width), dtype=np.int64)
    for row, row_ids in enumerate(token_ids):
        ids[row, : len(row_ids)] = row_ids
        mask[row, : len(row_ids)] = 1
    return ids, mask
