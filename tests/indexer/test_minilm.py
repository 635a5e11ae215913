"""The numpy all-MiniLM-L6-v2 against sentence-transformers on the same weights."""

from __future__ import annotations

import subprocess
import sys

import numpy as np
import pytest

from indexer.embedder import SentenceTransformerEmbedder
from indexer.minilm import MiniLMEmbedder, serving_embedder

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
def numpy_model() -> MiniLMEmbedder:
    return MiniLMEmbedder()


def test_vectors_match_sentence_transformers(
    numpy_model: MiniLMEmbedder, embedder: SentenceTransformerEmbedder
) -> None:
    ours, theirs = numpy_model.encode(TEXTS), embedder.encode(TEXTS)
    assert ours.dtype == np.float32
    assert ours.shape == theirs.shape == (len(TEXTS), 384)
    assert float(np.abs(ours - theirs).max()) < 1e-5  # 70 texts: two length-sorted batches
    assert np.allclose(np.linalg.norm(ours, axis=1), 1.0, atol=1e-5)
    assert numpy_model.encoded_texts >= len(TEXTS)


def test_the_story_and_its_question_are_as_close_as_before(numpy_model: MiniLMEmbedder) -> None:
    story, question = numpy_model.encode(TEXTS[:2])
    assert float(story @ question) == pytest.approx(0.41, abs=0.03)  # ARCHITECTURE.md's ~0.41


def test_serving_the_bundled_model_never_imports_torch() -> None:
    code = (
        "import sys\n"
        "from indexer.minilm import serving_embedder\n"
        "model = serving_embedder('')\n"
        "model.encode(['warm up'])\n"
        "heavy = ('torch', 'transformers', 'sentence_transformers', 'sklearn', 'scipy')\n"
        "print(type(model).__name__, sorted(m for m in heavy if m in sys.modules))\n"
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                            timeout=120)  # fmt: skip
    assert result.returncode == 0, result.stderr
    assert result.stdout.split(maxsplit=1) == ["MiniLMEmbedder", "[]\n"]
    assert isinstance(serving_embedder("some/other-model"), SentenceTransformerEmbedder)
