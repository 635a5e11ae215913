"""The hand-written ONNX writer against ONNX Runtime: every field the encoder's
graph uses (symbolic and fixed dimensions, negative and float attributes, held
and external tensors, a contrib-domain operator) in a small model checked by value."""

from __future__ import annotations

import math
import struct

import numpy as np
import onnxruntime

from indexer import onnx_proto as proto


def test_a_small_model_runs_and_computes_what_it_says() -> None:
    gamma = np.array([1.0, 2.0, 3.0, 4.0], np.float32)
    nodes = [
        proto.node("Slice", ["x", "start", "stop", "axis"], ["kept"]),  # columns 1..4 of 6
        proto.node("LayerNormalization", ["kept", "gamma"], ["normed"], axis=-1, epsilon=1e-5),
        proto.node("BiasGelu", ["normed", "gamma"], ["y"], domain="com.microsoft"),
    ]
    held = [
        proto.tensor(name, proto.INT64, [1], struct.pack("<q", value))
        for name, value in (("start", 1), ("stop", 5), ("axis", -1))
    ]
    model = proto.model(
        "small",
        nodes,
        [*held, proto.tensor("gamma", proto.FLOAT, [4], None)],
        inputs=[proto.value_info("x", proto.FLOAT, ["rows", 6])],
        outputs=[proto.value_info("y", proto.FLOAT, ["rows", 4])],
        opsets={"": 17, "com.microsoft": 1},
    )
    options = onnxruntime.SessionOptions()
    options.add_external_initializers(["gamma"], [onnxruntime.OrtValue.ortvalue_from_numpy(gamma)])
    session = onnxruntime.InferenceSession(model, options, providers=["CPUExecutionProvider"])
    x = np.arange(12, dtype=np.float32).reshape(2, 6) ** 2
    kept = x[:, 1:5]
    normed = (kept - kept.mean(-1, keepdims=True)) / np.sqrt(kept.var(-1, keepdims=True) + 1e-5)
    z = normed * gamma + gamma
    expected = z * 0.5 * (1 + np.vectorize(math.erf)(z / np.sqrt(2)))
    assert np.allclose(session.run(None, {"x": x})[0], expected, atol=1e-5)


def test_negative_integers_are_ten_byte_varints_like_protobuf() -> None:
    assert proto._varint(-1) == b"\xff" * 9 + b"\x01"
    assert proto._varint(300) == b"\xac\x02"
