"""Just enough of the ONNX protobuf format to write a model graph.

The `onnx` package would do this, but importing it costs ~1.3 s on the reference
machine (its ml_dtypes extension), paid on every daemon start; a graph is a few
nested messages, so they are written here with the protobuf wire format. Field
numbers are those of onnx/onnx.proto (ModelProto, GraphProto, NodeProto, ...).
"""

from __future__ import annotations

import struct
from collections.abc import Iterable, Sequence

FLOAT, INT32, INT64 = 1, 6, 7  # TensorProto.DataType
_ATTRIBUTE_FLOAT, _ATTRIBUTE_INT = 1, 2  # AttributeProto.AttributeType
IR_VERSION = 8  # the IR of opset 17


def _varint(value: int) -> bytes:
    value &= (1 << 64) - 1  # negative int64 as ten bytes, like protobuf
    out = bytearray()
    while value > 0x7F:
        out.append(value & 0x7F | 0x80)
        value >>= 7
    out.append(value)
    return bytes(out)


def _int(field: int, value: int) -> bytes:
    return _varint(field << 3) + _varint(value)


def _bytes(field: int, value: bytes) -> bytes:
    return _varint(field << 3 | 2) + _varint(len(value)) + value


def _text(field: int, value: str) -> bytes:
    return _bytes(field, value.encode())


def _float(field: int, value: float) -> bytes:
    return _varint(field << 3 | 5) + struct.pack("<f", value)


def tensor(name: str, data_type: int, dims: Sequence[int], raw: bytes | None) -> bytes:
    """TensorProto holding its (little-endian) data, or, with `raw` None, marked as
    external: ONNX Runtime's add_external_initializers then supplies it from
    memory, so the weights are never serialized."""
    head = b"".join(_int(1, d) for d in dims) + _int(2, data_type) + _text(8, name)
    if raw is not None:
        return head + _bytes(9, raw)
    return head + _bytes(13, _text(1, "location") + _text(2, "memory")) + _int(14, 1)


def value_info(name: str, data_type: int, shape: Sequence[int | str]) -> bytes:
    """ValueInfoProto of a tensor; a str dimension is symbolic (batch, tokens)."""
    dims = b"".join(_bytes(1, _text(2, d) if isinstance(d, str) else _int(1, d)) for d in shape)
    tensor_type = _int(1, data_type) + _bytes(2, dims)
    return _text(1, name) + _bytes(2, _bytes(1, tensor_type))


def node(
    op_type: str,
    inputs: Iterable[str],
    outputs: Iterable[str],
    domain: str = "",
    **attributes: int | float,
) -> bytes:
    """NodeProto; int and float attributes only (all this graph needs)."""
    parts = [_text(1, name) for name in inputs] + [_text(2, name) for name in outputs]
    parts.append(_text(4, op_type))
    for name, value in attributes.items():
        if isinstance(value, float):
            attribute = _text(1, name) + _float(2, value) + _int(20, _ATTRIBUTE_FLOAT)
        else:
            attribute = _text(1, name) + _int(3, value) + _int(20, _ATTRIBUTE_INT)
        parts.append(_bytes(5, attribute))
    if domain:
        parts.append(_text(7, domain))
    return b"".join(parts)


def model(
    name: str,
    nodes: Sequence[bytes],
    initializers: Sequence[bytes],
    inputs: Sequence[bytes],
    outputs: Sequence[bytes],
    opsets: dict[str, int],
) -> bytes:
    """A serialized ModelProto: graph (nodes in topological order) and opset imports."""
    graph = b"".join(
        [
            *(_bytes(1, n) for n in nodes),
            _text(2, name),
            *(_bytes(5, t) for t in initializers),
            *(_bytes(11, i) for i in inputs),
            *(_bytes(12, o) for o in outputs),
        ]
    )
    imports = b"".join(_bytes(8, _text(1, d) + _int(2, v)) for d, v in opsets.items())
    return _int(1, IR_VERSION) + imports + _bytes(7, graph)
