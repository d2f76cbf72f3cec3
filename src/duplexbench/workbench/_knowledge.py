"""BM25 search over an item's knowledge documents (deterministic ranking)."""

from __future__ import annotations

import math
import re
from collections import Counter
from dataclasses import dataclass

from duplexbench.items import KnowledgeDoc

_TOKEN = re.compile(r"[a-z0-9]+")
K1, B = 1.5, 0.75


def tokenize(text: str) -> list[str]:
    """Lowercased alphanumeric tokens."""
    return _TOKEN.findall(text.casefold())


@dataclass(frozen=True)
class Hit:
    doc: KnowledgeDoc
    score: float


class KnowledgeIndex:
    """Okapi BM25 (k1 = 1.5, b = 0.75) over title + text.

    Ties are broken by document order in the item, so rankings never depend
    on hash order or floating-point noise between runs.
    """

    def __init__(self, docs: list[KnowledgeDoc]) -> None:
        self._docs = docs
        self._tfs = [Counter(tokenize(f"{d.title} {d.text}")) for d in docs]
        self._lens = [sum(tf.values()) for tf in self._tfs]
        self._avg = (sum(self._lens) / len(docs)) if docs else 0.0
        df: Counter[str] = Counter()
        for tf in self._tfs:
            df.update(tf.keys())
        n = len(docs)
        self._idf = {t: math.log(1 + (n - c + 0.5) / (c + 0.5)) for t, c in df.items()}

    def search(self, query: str, top_k: int = 3) -> list[Hit]:
        terms = tokenize(query)
        scored: list[tuple[float, int]] = []
        for i, tf in enumerate(self._tfs):
            score = 0.0
            norm = K1 * (1 - B + B * self._lens[i] / self._avg) if self._avg else K1
            for term in terms:
                freq = tf.get(term, 0)
                if freq:
                    score += self._idf[term] * freq * (K1 + 1) / (freq + norm)
            if score > 0:
                scored.append((round(score, 6), i))
        scored.sort(key=lambda s: (-s[0], s[1]))
        return [Hit(self._docs[i], score) for score, i in scored[:top_k]]
