"""TF-IDF centroid topic classifier (scikit-learn), kept under .index/.

Each topic's centroid is the normalised mean TF-IDF vector of the memories a
person filed under it; a text scores each topic by cosine to its centroid. The
text's norm counts its words the model never saw (at the highest IDF), so a
memory that shares one common word with a topic and nothing else scores low;
one shared term is never enough (MIN_SHARED_TERMS).
The saved model is derived state: plain arrays (no pickle) plus a fingerprint
of the labelled set it was trained on, so a changed label set means a refit.
"""

from __future__ import annotations

import json
import math
import re
from pathlib import Path
from typing import Any

import numpy as np

from vault.atomic import atomic_replace
from vault.stopwords import STOPWORDS

MIN_SHARED_TERMS = 2
TOKENIZER_VERSION = 2  # part of a saved model's fingerprint: a new tokenizer means a refit
_TOKEN = re.compile(r"(?u)\b\w\w+\b")


def words(text: str) -> list[str]:
    """Tokens without English stop words, plurals folded (fixtures -> fixture)."""
    found = []
    for token in _TOKEN.findall(text):
        if token in STOPWORDS:
            continue
        if len(token) > 4 and token.endswith("ies"):
            token = token[:-3] + "y"
        elif len(token) > 3 and token.endswith("s") and not token.endswith(("ss", "us", "is")):
            token = token[:-1]
        found.append(token)
    return found


_PARAMS: dict[str, Any] = {
    "sublinear_tf": True,
    "ngram_range": (1, 2),
    "tokenizer": words,
    "token_pattern": None,
    "lowercase": True,
    "strip_accents": "unicode",
    "min_df": 1,
    "norm": None,  # rows are normalised here, counting unseen words too
}


class TopicModel:
    def __init__(self, vectorizer: Any, topics: list[str], centroids: np.ndarray, key: str) -> None:
        self.vectorizer = vectorizer
        self.topics = topics
        self.centroids = centroids  # topics x vocabulary, rows normalised
        self.fingerprint = key

    @classmethod
    def fit(cls, texts: list[str], labels: list[str], fingerprint: str) -> TopicModel | None:
        """None when there is nothing to learn from (no labelled memories)."""
        if not texts:  # before scikit-learn's import: 1-2 s of CPU in every jot process
            return None
        from sklearn.feature_extraction.text import TfidfVectorizer
        from sklearn.preprocessing import normalize

        vectorizer = TfidfVectorizer(**_PARAMS)
        try:
            matrix = vectorizer.fit_transform(texts)
        except ValueError:  # only stop words: no vocabulary
            return None
        matrix = normalize(matrix)
        topics = sorted(set(labels))
        rows = np.asarray(labels)
        centroids = np.vstack(
            [np.asarray(matrix[rows == topic].mean(axis=0)).ravel() for topic in topics]
        )
        return cls(vectorizer, topics, normalize(centroids), fingerprint)

    def scores(self, texts: list[str]) -> np.ndarray:
        """texts x topics cosine similarities."""
        matrix = self.vectorizer.transform(texts)
        known = np.asarray(matrix.multiply(matrix).sum(axis=1)).ravel()
        unseen = np.array([self._unseen_weight(text) for text in texts])
        norms = np.sqrt(known + unseen)
        norms[norms == 0] = 1.0
        scores: np.ndarray = np.asarray(matrix @ self.centroids.T) / norms[:, None]
        return scores

    def _unseen_weight(self, text: str) -> float:
        """Squared TF-IDF weight of the terms the model never saw."""
        counts: dict[str, int] = {}
        vocabulary = self.vectorizer.vocabulary_
        for term in self.vectorizer.build_analyzer()(text):
            if term not in vocabulary:
                counts[term] = counts.get(term, 0) + 1
        top = float(self.vectorizer.idf_.max()) if len(self.vectorizer.idf_) else 1.0
        return float(sum(((1.0 + math.log(n)) * top) ** 2 for n in counts.values()))

    def classify(self, texts: list[str]) -> list[tuple[str, float]]:
        """The best topic of each text with its cosine."""
        if not texts or not self.topics:
            return [("", 0.0) for _ in texts]
        scores = self.scores(texts)
        present = (self.vectorizer.transform(texts) > 0).astype(np.float64)
        shared = np.asarray(present @ (self.centroids > 0).astype(np.float64).T)
        scores[shared < MIN_SHARED_TERMS] = 0.0
        best = scores.argmax(axis=1)
        return [(self.topics[b], float(scores[i, b])) for i, b in enumerate(best)]

    # Files --------------------------------------------------------------

    def save(self, path: Path) -> None:
        vocabulary = sorted(self.vectorizer.vocabulary_.items(), key=lambda item: item[1])
        header = {"topics": self.topics, "fingerprint": self.fingerprint,
                  "terms": [term for term, _ in vocabulary]}  # fmt: skip

        def write(tmp: str) -> None:
            with open(tmp, "wb") as handle:  # a handle: savez would add ".npz" to a name
                np.savez(
                    handle,
                    header=np.frombuffer(json.dumps(header).encode(), dtype=np.uint8),
                    idf=self.vectorizer.idf_,
                    centroids=self.centroids,
                )

        atomic_replace(path, write)

    @classmethod
    def load(cls, path: Path) -> TopicModel | None:
        """The saved model, or None if missing or unreadable (then refit)."""
        from sklearn.feature_extraction.text import TfidfVectorizer

        try:
            with np.load(path, allow_pickle=False) as data:
                header = json.loads(bytes(data["header"]).decode())
                idf = np.asarray(data["idf"])
                centroids = np.asarray(data["centroids"])
            vectorizer = TfidfVectorizer(**_PARAMS)
            vectorizer.vocabulary_ = {term: n for n, term in enumerate(header["terms"])}
            vectorizer.idf_ = idf
            topics = [str(t) for t in header["topics"]]
            if centroids.shape != (len(topics), len(idf)):
                return None
            return cls(vectorizer, topics, centroids, str(header["fingerprint"]))
        except (OSError, ValueError, KeyError, TypeError):
            return None
