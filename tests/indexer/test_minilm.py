"""The bundled all-MiniLM-L6-v2 on ONNX Runtime (what every index serves) and in
numpy (its fallback) against sentence-transformers on the same weights."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from indexer.embedder import Embedder, SentenceTransformerEmbedder, serving_embedder
from indexer.minilm import MiniLMEmbedder
from indexer.onnx_minilm import OnnxMiniLMEmbedder

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


@pytest.fixture(scope="module", params=["onnx", "numpy"])
def bundled(request: pytest.FixtureRequest) -> Embedder:
    return OnnxMiniLMEmbedder() if request.param == "onnx" else MiniLMEmbedder()


def test_vectors_match_sentence_transformers(
    bundled: OnnxMiniLMEmbedder | MiniLMEmbedder, embedder: SentenceTransformerEmbedder
) -> None:
    ours, theirs = bundled.encode(TEXTS), embedder.encode(TEXTS)
    assert ours.dtype == np.float32
    assert ours.shape == theirs.shape == (len(TEXTS), 384)
    # 70 texts: two length-sorted, padded batches; one truncated at 256 tokens
    assert float(np.abs(ours - theirs).max()) < 1e-5
    assert np.allclose(np.linalg.norm(ours, axis=1), 1.0, atol=1e-5)
    assert bundled.encoded_texts >= len(TEXTS)


def test_a_text_alone_and_in_a_padded_batch_get_one_vector(bundled: Embedder) -> None:
    alone = bundled.encode([TEXTS[1]])
    among_longer = bundled.encode([TEXTS[5], TEXTS[1], TEXTS[2]])[1]
    assert float(np.abs(alone[0] - among_longer).max()) < 1e-5
    assert bundled.encode([]).shape == (0, 384)


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
    assert result.stdout.split(maxsplit=1) == ["OnnxMiniLMEmbedder", "[]\n"]
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


def test_without_onnxruntime_the_numpy_pass_serves(monkeypatch: pytest.MonkeyPatch) -> None:
    import importlib.util

    real = importlib.util.find_spec
    monkeypatch.setattr(
        importlib.util, "find_spec", lambda name: None if name == "onnxruntime" else real(name)
    )
    assert isinstance(serving_embedder(""), MiniLMEmbedder)


def test_one_encode_uses_at_most_the_cores_it_may_run_on(monkeypatch: pytest.MonkeyPatch) -> None:
    assert OnnxMiniLMEmbedder(threads=64)._threads == len(os.sched_getaffinity(0))
    assert OnnxMiniLMEmbedder(threads=1)._threads == 1
    monkeypatch.delattr(os, "sched_getaffinity")  # as on macOS
    monkeypatch.setattr(os, "cpu_count", lambda: 3)
    assert OnnxMiniLMEmbedder(threads=64)._threads == 3
