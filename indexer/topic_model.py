"""TF-IDF centroid topic classifier (scikit-learn), kept under .index/.

Each topic's centroid is the normalised mean TF-IDF vector of the memories a
person filed under it; a text scores each topic by cosine to its centroid.
The saved model is derived state: plain arrays (no pickle) plus a fingerprint
of the labelled set it was trained on, so a changed label set means a refit.
"""

from __future__ import annotations

import json
import os
import tempfile
from pathlib import Path
from typing import Any

import numpy as np

_PARAMS: dict[str, Any] = {
    "sublinear_tf": True,
    "ngram_range": (1, 2),
    "stop_words": "english",
    "strip_accents": "unicode",
    "min_df": 1,
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
        from sklearn.feature_extraction.text import TfidfVectorizer
        from sklearn.preprocessing import normalize

        if not texts:
            return None
        vectorizer = TfidfVectorizer(**_PARAMS)
        try:
            matrix = vectorizer.fit_transform(texts)
        except ValueError:  # only stop words: no vocabulary
            return None
        topics = sorted(set(labels))
        rows = np.asarray(labels)
        centroids = np.vstack(
            [np.asarray(matrix[rows == topic].mean(axis=0)).ravel() for topic in topics]
        )
        return cls(vectorizer, topics, normalize(centroids), fingerprint)

    def scores(self, texts: list[str]) -> np.ndarray:
        """texts x topics cosine similarities."""
        matrix = self.vectorizer.transform(texts)
        return np.asarray(matrix @ self.centroids.T)

    def classify(self, texts: list[str]) -> list[tuple[str, float]]:
        """The best topic of each text with its cosine."""
        if not texts or not self.topics:
            return [("", 0.0) for _ in texts]
        scores = self.scores(texts)
        best = scores.argmax(axis=1)
        return [(self.topics[b], float(scores[i, b])) for i, b in enumerate(best)]

    # Files --------------------------------------------------------------

    def save(self, path: Path) -> None:
        vocabulary = sorted(self.vectorizer.vocabulary_.items(), key=lambda item: item[1])
        header = {"topics": self.topics, "fingerprint": self.fingerprint,
                  "terms": [term for term, _ in vocabulary]}  # fmt: skip
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=".topics.", suffix=".npz")
        os.close(fd)
        try:
            with open(tmp, "wb") as handle:
                np.savez(
                    handle,
                    header=np.frombuffer(json.dumps(header).encode(), dtype=np.uint8),
                    idf=self.vectorizer.idf_,
                    centroids=self.centroids,
                )
            os.replace(tmp, path)
        finally:
            if os.path.exists(tmp):
                os.unlink(tmp)

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
