"""TF-IDF centroid topic classifier, kept under .index/.

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
import unicodedata
from collections import Counter
from pathlib import Path

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


def terms(text: str) -> Counter[str]:
    """A text's terms and their counts: its words and each pair of neighbouring
    words, lower-cased, accents stripped (scikit-learn's TfidfVectorizer with
    ngram_range (1, 2), lowercase and strip_accents "unicode", which this replaces)."""
    text = text.lower()
    if not text.isascii():
        text = "".join(
            c for c in unicodedata.normalize("NFKD", text) if not unicodedata.combining(c)
        )
    tokens = words(text)
    return Counter([*tokens, *(f"{a} {b}" for a, b in zip(tokens, tokens[1:], strict=False))])


class TopicModel:
    """TF-IDF with a smoothed IDF and a sublinear term frequency, written in numpy:
    importing scikit-learn (and with it scipy) took 2-3 s of CPU in every `vault jot`
    process with a topic, more than the jot itself."""

    def __init__(
        self,
        vocabulary: dict[str, int],
        idf: np.ndarray,
        topics: list[str],
        centroids: np.ndarray,
        key: str,
    ) -> None:
        self.vocabulary = vocabulary
        self.idf = idf
        self.topics = topics
        self.centroids = centroids  # topics x vocabulary, rows normalised
        self.fingerprint = key

    @classmethod
    def fit(cls, texts: list[str], labels: list[str], fingerprint: str) -> TopicModel | None:
        """None when there is nothing to learn from (no labelled memory, or only stop words)."""
        counted = [terms(text) for text in texts]
        documents: Counter[str] = Counter(term for counts in counted for term in counts)
        if not documents:
            return None
        vocabulary = {term: n for n, term in enumerate(sorted(documents))}
        frequency = np.array([documents[term] for term in vocabulary], dtype=np.float64)
        idf = np.log((1.0 + len(texts)) / (1.0 + frequency)) + 1.0
        topics = sorted(set(labels))
        row_of = {topic: n for n, topic in enumerate(topics)}
        centroids = np.zeros((len(topics), len(vocabulary)))
        for counts, label in zip(counted, labels, strict=True):
            columns, weights, _ = _weighted(counts, vocabulary, idf)
            norm = float(np.linalg.norm(weights))
            if norm:
                centroids[row_of[label], columns] += weights / norm
        centroids /= np.array([labels.count(topic) for topic in topics], dtype=np.float64)[:, None]
        return cls(vocabulary, idf, topics, _unit_rows(centroids), fingerprint)

    def scores(self, texts: list[str]) -> np.ndarray:
        """texts x topics cosine similarities."""
        return self._scored(texts)[0]

    def _scored(self, texts: list[str]) -> tuple[np.ndarray, np.ndarray]:
        """Cosines, and how many of each text's terms each topic's centroid has."""
        scores = np.zeros((len(texts), len(self.topics)))
        shared = np.zeros((len(texts), len(self.topics)))
        top = float(self.idf.max()) if len(self.idf) else 1.0
        for row, text in enumerate(texts):
            columns, weights, unseen = _weighted(terms(text), self.vocabulary, self.idf)
            # the text's norm counts the terms the model never saw, at the highest IDF
            unseen_weights = (1.0 + np.log(unseen)) * top
            norm = math.sqrt(float(weights @ weights + unseen_weights @ unseen_weights)) or 1.0
            known = self.centroids[:, columns]
            scores[row] = known @ weights / norm
            shared[row] = (known > 0).sum(axis=1)
        return scores, shared

    def classify(self, texts: list[str]) -> list[tuple[str, float]]:
        """The best topic of each text with its cosine."""
        if not texts or not self.topics:
            return [("", 0.0) for _ in texts]
        scores, shared = self._scored(texts)
        scores[shared < MIN_SHARED_TERMS] = 0.0
        best = scores.argmax(axis=1)
        return [(self.topics[b], float(scores[i, b])) for i, b in enumerate(best)]

    # Files --------------------------------------------------------------

    def save(self, path: Path) -> None:
        vocabulary = sorted(self.vocabulary.items(), key=lambda item: item[1])
        header = {"topics": self.topics, "fingerprint": self.fingerprint,
                  "terms": [term for term, _ in vocabulary]}  # fmt: skip

        def write(tmp: str) -> None:
            with open(tmp, "wb") as handle:  # a handle: savez would add ".npz" to a name
                np.savez(
                    handle,
                    header=np.frombuffer(json.dumps(header).encode(), dtype=np.uint8),
                    idf=self.idf,
                    centroids=self.centroids,
                )

        atomic_replace(path, write)

    @classmethod
    def load(cls, path: Path) -> TopicModel | None:
        """The saved model, or None if missing or unreadable (then refit)."""
        try:
            with np.load(path, allow_pickle=False) as data:
                header = json.loads(bytes(data["header"]).decode())
                idf = np.asarray(data["idf"])
                centroids = np.asarray(data["centroids"])
            vocabulary = {str(term): n for n, term in enumerate(header["terms"])}
            topics = [str(t) for t in header["topics"]]
            if centroids.shape != (len(topics), len(idf)) or len(vocabulary) != len(idf):
                return None
            return cls(vocabulary, idf, topics, centroids, str(header["fingerprint"]))
        except (OSError, ValueError, KeyError, TypeError):
            return None


def _weighted(
    counts: Counter[str], vocabulary: dict[str, int], idf: np.ndarray
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The columns of a text's known terms, their TF-IDF weights (1 + ln count, times
    the IDF), and the counts of the terms the model never saw."""
    known = [(vocabulary[term], count) for term, count in counts.items() if term in vocabulary]
    columns = np.array([column for column, _ in known], dtype=np.intp)
    tf = 1.0 + np.log(np.array([count for _, count in known], dtype=np.float64))
    unseen = np.array([c for t, c in counts.items() if t not in vocabulary], dtype=np.float64)
    return columns, tf * idf[columns], unseen


def _unit_rows(matrix: np.ndarray) -> np.ndarray:
    norms = np.linalg.norm(matrix, axis=1, keepdims=True)
    norms[norms == 0] = 1.0
    unit: np.ndarray = matrix / norms
    return unit
