"""The topic model's TF-IDF is scikit-learn's, computed without importing it: a
`vault jot` that files a memory no longer pays 2-3 s of CPU for scikit-learn and scipy."""

from __future__ import annotations

import os
import random
import subprocess
import sys
from pathlib import Path

import numpy as np
from sklearn.feature_extraction.text import TfidfVectorizer
from sklearn.preprocessing import normalize

from indexer.topic_model import TopicModel, terms, words

WORDS = (
    "billing deploy déploiement pytest fixtures Ünïcödé cache ttl owner release branch port "
    "queue worker cron nightly logs never card numbers cents the a of is to"
).split()


def corpus(rng: random.Random, count: int, extra: tuple[str, ...] = ()) -> list[str]:
    return [" ".join(rng.choice([*WORDS, *extra]) for _ in range(rng.randint(0, 14)))
            for _ in range(count)]  # fmt: skip


def test_centroids_and_scores_are_scikit_learns_tf_idf() -> None:
    rng = random.Random(3)
    texts = corpus(rng, 300)
    labels = [rng.choice(["billing", "tests", "ops", "infra"]) for _ in texts]
    ours = TopicModel.fit(texts, labels, "key")
    assert ours is not None
    theirs = TfidfVectorizer(sublinear_tf=True, ngram_range=(1, 2), tokenizer=words,
                             token_pattern=None, strip_accents="unicode", norm=None)  # fmt: skip
    rows = normalize(theirs.fit_transform(texts))
    centroids = normalize(np.vstack([np.asarray(rows[np.asarray(labels) == t].mean(axis=0))
                                     for t in sorted(set(labels))]))  # fmt: skip
    assert ours.vocabulary == theirs.vocabulary_  # bigrams and accents folded alike
    assert np.allclose(ours.idf, theirs.idf_, rtol=0, atol=1e-12)
    assert np.allclose(ours.centroids, centroids, rtol=0, atol=1e-12)
    probe = corpus(rng, 50, ("zebra", "unseen"))
    seen = theirs.transform(probe)
    norms = np.sqrt(np.asarray(seen.multiply(seen).sum(axis=1)).ravel())
    norms[norms == 0] = 1.0
    cosines = np.asarray(seen @ centroids.T) / norms[:, None]
    ours_scores = ours.scores(probe)
    # the norm also counts the words the model never saw: with none, scikit-learn's cosine
    plain = [i for i, t in enumerate(probe) if set(terms(t)) <= set(ours.vocabulary)]
    assert np.allclose(ours_scores[plain], cosines[plain], rtol=0, atol=1e-12)
    unseen = [i for i, t in enumerate(probe) if i not in plain and cosines[i].max() > 0]
    assert len(plain) > 5
    assert unseen
    assert (ours_scores[unseen] < cosines[unseen]).all(where=cosines[unseen] > 0)


def test_a_saved_model_loads_as_it_was_fitted(tmp_path: Path) -> None:
    rng = random.Random(5)
    texts = corpus(rng, 80)
    labels = [rng.choice(["billing", "ops"]) for _ in texts]
    fitted = TopicModel.fit(texts, labels, "key")
    assert fitted is not None
    fitted.save(tmp_path / "topics.npz")
    loaded = TopicModel.load(tmp_path / "topics.npz")
    assert loaded is not None
    probe = corpus(rng, 20)
    assert loaded.classify(probe) == fitted.classify(probe)
    assert TopicModel.fit(["the of a", "is to"], ["x", "y"], "key") is None  # stop words only


def test_filing_a_jot_imports_neither_scikit_learn_nor_scipy(tmp_path: Path) -> None:
    root = str(tmp_path / "vault")
    env = {**os.environ, "HF_HUB_OFFLINE": "1"}

    def vault(*args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run([sys.executable, "-m", "hooks.cli", "--vault", root, *args],
                              capture_output=True, text=True, env=env, timeout=300)  # fmt: skip

    assert vault("init").returncode == 0
    for text in ("Billing stores amounts in integer cents.", "Billing never logs card numbers."):
        assert vault("jot", text, "--topic", "billing").returncode == 0
    code = (
        "import sys\nfrom hooks.cli.main import main\n"
        "try:\n    main(sys.argv[1:])\nexcept SystemExit:\n    pass\n"
        "print(sorted({'sklearn', 'scipy'} & set(sys.modules)), file=sys.stderr)"
    )
    jotted = subprocess.run(  # no topic given: the model is fitted to suggest one
        [sys.executable, "-c", code, "--vault", root, "jot", "Billing amounts are integer cents."],
        capture_output=True, text=True, env=env, timeout=300,
    )  # fmt: skip
    assert jotted.returncode == 0
    assert jotted.stderr.strip().splitlines()[-1] == "[]"
    assert (tmp_path / "vault" / ".index" / "topics.npz").exists()
