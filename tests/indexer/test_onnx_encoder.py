"""The bundled all-MiniLM-L6-v2 on ONNX Runtime (what every index serves), from
the graph torch's exporter and ONNX Runtime's optimizer make once and cache,
against sentence-transformers on the same weights."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from indexer.embedder import (
    Embedder,
    SentenceTransformerEmbedder,
    bundled_encoder,
    bundled_model_path,
    serving_embedder,
)
from indexer.errors import ModelUnavailableError
from indexer.onnx_encoder import OnnxEncoder
from indexer.onnx_export import exported_model, model_key

pytestmark = pytest.mark.model
STORY = (
    "let's always use pytest fixtures instead of setUp/tearDown for this codebase — tried "
    "unittest style on a past project and sharing fixtures across test files was a pain."
)
TEXTS = [
    STORY,
    "should I use TestCase.setUp() here or something else?",
    "hi",
    "",
    "Ünïcödé, émojis 🎉 and 中文字符 in one line",
    "a long note " + "about billing in integer cents and never logging card numbers " * 60,
    *(f"runbook {i}: restart the worker when its queue stalls" * (1 + i % 5) for i in range(70)),
]


@pytest.fixture(scope="module")
def bundled() -> OnnxEncoder:
    return bundled_encoder()


@pytest.fixture(scope="module")
def sentence_transformers() -> SentenceTransformerEmbedder:
    """The same weights through sentence-transformers (torch): what the export must match."""
    return SentenceTransformerEmbedder()


def test_vectors_match_sentence_transformers(
    bundled: OnnxEncoder, sentence_transformers: SentenceTransformerEmbedder
) -> None:
    ours, theirs = bundled.encode(TEXTS), sentence_transformers.encode(TEXTS)
    assert ours.dtype == np.float32
    assert ours.shape == theirs.shape == (len(TEXTS), 384)
    # 70 texts: two length-sorted, padded batches; one truncated at 256 tokens
    assert float(np.abs(ours - theirs).max()) < 1e-5
    assert np.allclose(np.linalg.norm(ours, axis=1), 1.0, atol=1e-5)
    assert bundled.encoded_texts >= len(TEXTS)


def test_a_text_alone_and_in_a_padded_batch_get_one_vector(bundled: Embedder) -> None:
    alone = bundled_encoder().encode([TEXTS[1]])  # two encoders: neither recalls the other's
    among_longer = bundled_encoder().encode([TEXTS[5], TEXTS[1], TEXTS[2]])[1]
    assert float(np.abs(alone[0] - among_longer).max()) < 1e-5
    assert bundled.encode([]).shape == (0, 384)


def test_a_text_encoded_lately_is_not_run_through_the_model_again(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr("indexer.onnx_encoder.RECENT_TEXTS", 3)
    encoder = bundled_encoder()
    first = encoder.encode(TEXTS[:3])
    assert encoder.encoded_texts == 3
    again = encoder.encode([TEXTS[2], TEXTS[0], TEXTS[2]])
    assert encoder.encoded_texts == 3
    assert encoder.requested_texts == 6  # what was asked, answered from recent texts or not
    assert np.array_equal(again, first[[2, 0, 2]])
    again[0] = 0.0  # a caller's copy: what the encoder keeps is untouched
    assert np.array_equal(encoder.encode([TEXTS[2]])[0], first[2])
    encoder.encode([TEXTS[4]])  # past three texts, the one used longest ago (TEXTS[1]) goes
    assert encoder.encoded_texts == 4
    encoder.encode([TEXTS[0], TEXTS[2], TEXTS[4]])
    assert encoder.encoded_texts == 4
    encoder.encode([TEXTS[1]])
    assert encoder.encoded_texts == 5


def test_the_story_and_its_question_are_as_close_as_before(bundled: Embedder) -> None:
    story, question = bundled.encode(TEXTS[:2])
    assert float(story @ question) == pytest.approx(0.41, abs=0.03)  # ARCHITECTURE.md's ~0.41


def test_serving_the_bundled_model_never_imports_torch() -> None:
    code = (
        "import sys\n"
        "from indexer.embedder import serving_embedder\n"
        "model = serving_embedder('')\n"
        "model.encode(['warm up'])\n"
        "heavy = ('torch', 'transformers', 'sentence_transformers', 'sklearn', 'scipy')\n"
        "print(type(model).__name__, sorted(m for m in heavy if m in sys.modules))\n"
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                            timeout=120)  # fmt: skip
    assert result.returncode == 0, result.stderr
    assert result.stdout.split(maxsplit=1) == ["OnnxEncoder", "[]\n"]
    assert isinstance(serving_embedder("some/other-model"), SentenceTransformerEmbedder)


def test_onnx_runtime_writes_nothing_to_home_and_sends_no_telemetry(tmp_path: Path) -> None:
    code = (
        "import os\n"
        "from indexer.embedder import serving_embedder\n"
        "serving_embedder('').encode(['a memory'])\n"
        "print(os.environ.get('ORT_DISABLE_TELEMETRY'))\n"
    )
    env = {**os.environ, "HOME": str(tmp_path), "XDG_CACHE_HOME": str(tmp_path / ".cache")}
    env.pop("ORT_DISABLE_TELEMETRY", None)
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                            env=env, timeout=120)  # fmt: skip
    assert result.returncode == 0, result.stderr
    assert result.stdout == "1\n"  # ONNX Runtime's documented opt-out, set before its session
    assert list(tmp_path.rglob("*")) == []  # no device id, no offline event cache


def test_one_encode_uses_at_most_the_cores_it_may_run_on(monkeypatch: pytest.MonkeyPatch) -> None:
    assert _encoder(threads=64)._threads == len(os.sched_getaffinity(0))
    assert _encoder(threads=1)._threads == 1
    monkeypatch.delattr(os, "sched_getaffinity")  # as on macOS
    monkeypatch.setattr(os, "cpu_count", lambda: 3)
    assert _encoder(threads=64)._threads == 3


def _encoder(threads: int) -> OnnxEncoder:
    return OnnxEncoder(Path(bundled_model_path()), Path("unused"), threads=threads)


def test_the_export_is_cached_by_the_models_hash(tmp_path: Path) -> None:
    """A copy of the model whose weights differ by one byte gets its own export;
    the same model asks for no second export."""
    model = Path(bundled_model_path())
    cache = Path(os.environ["VAULT_MODEL_CACHE"])
    graph = exported_model(model, cache)
    assert graph.is_file()
    assert graph.name.startswith(model.name)
    assert exported_model(model, cache) == graph
    copy = tmp_path / model.name
    shutil.copytree(model, copy)
    with open(copy / "model.safetensors", "r+b") as weights:
        weights.seek(-1, os.SEEK_END)
        last = weights.read(1)
        weights.seek(-1, os.SEEK_END)
        weights.write(bytes([last[0] ^ 1]))
    assert model_key(copy, tmp_path / "cache") != model_key(model, cache)


def test_a_model_that_cannot_be_exported_is_one_clear_error(tmp_path: Path) -> None:
    broken = tmp_path / "broken-model"
    shutil.copytree(bundled_model_path(), broken)
    (broken / "model.safetensors").write_bytes(b"not weights")
    with pytest.raises(ModelUnavailableError, match="cannot export broken-model to ONNX"):
        exported_model(broken, tmp_path / "cache")
    assert not list((tmp_path / "cache").glob("*.onnx"))  # nothing half-written is kept
