"""Split long texts into overlapping word windows for embedding.

A short memory is one chunk; a long curated note is embedded in windows of
about 400 words sharing 80 with the next, and scores by its best chunk.
"""

from __future__ import annotations


def chunk_words(text: str, size: int = 400, overlap: int = 80) -> list[str]:
    words = text.split()
    if len(words) <= size:
        return [text.strip()] if text.strip() else [""]
    step = max(1, size - overlap)
    chunks = []
    for start in range(0, len(words), step):
        chunks.append(" ".join(words[start : start + size]))
        if start + size >= len(words):
            break
    return chunks
