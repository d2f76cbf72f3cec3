"""Checked cache entries on disk: one JSON file per key, verified before it is trusted.

The transcript cache (whisper results), the embedding cache (the semantic
observer's sentence vectors), parsed YAML documents and model-file digests are
derived values that are expensive to compute and cheap to check. All are
stored here, the same way:

- an entry lives at ``root/<key[:2]>/<key>.json`` and records its format, its
  key and a sha256 of its payload; an entry that does not verify (truncated,
  edited, another format) is removed and reported absent, so the caller
  recomputes and replaces it: never trusted;
- writes are atomic (temp file, then ``os.replace``), so processes sharing the
  folder never see half an entry, and two writers of one key write the same
  bytes;
- a write that fails (a full or read-only disk) is one warning per store, never
  an error: the value just computed is still correct.

:func:`cache_root` is the folder all of duplexbench's speech-side caches live
under (``DUPLEXBENCH_SPEECH_CACHE``, default ``~/.cache/duplexbench/speech``).
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import threading
import warnings
from pathlib import Path
from typing import Any

from duplexbench.files import write_text_atomic


def cache_root() -> Path:
    """The speech bank's folder; the transcript and embedding caches live inside it."""
    env = os.environ.get("DUPLEXBENCH_SPEECH_CACHE")
    if env:
        return Path(env).expanduser()
    return Path.home() / ".cache" / "duplexbench" / "speech"


def payload_sha(payload: Any) -> str:
    canonical = json.dumps(payload, ensure_ascii=False, separators=(",", ":"), sort_keys=True)
    return hashlib.sha256(canonical.encode("utf-8")).hexdigest()


class CheckedEntries:
    """JSON payloads on disk under `root`, keyed by a hex digest (module docstring).

    `what` names the store in the warning a failed write gives. `hits`, `misses`
    and `replaced` (entries that failed their check) count lookups.
    """

    def __init__(self, root: Path, fmt: int, what: str) -> None:
        self.root, self.format, self.what = root, fmt, what
        self._lock = threading.Lock()
        self._warned = False
        self.hits = self.misses = self.replaced = 0

    def path(self, key: str) -> Path:
        return self.root / key[:2] / f"{key}.json"

    def get(self, key: str) -> dict[str, Any] | None:
        """The payload stored under `key`; None when absent or when it failed its check
        (then the file is removed, to be recomputed and rewritten by the caller)."""
        path = self.path(key)
        try:
            raw = path.read_text(encoding="utf-8")
        except OSError:  # absent (or unreadable): computed again
            self._count(hit=False)
            return None
        try:
            data = json.loads(raw)
            payload = data["payload"]
            ok = (
                data.get("format") == self.format
                and data.get("key") == key
                and isinstance(payload, dict)
                and data.get("sha256") == payload_sha(payload)
            )
        except (ValueError, KeyError, TypeError, AttributeError):
            ok, payload = False, None
        if not ok:
            with self._lock:
                self.replaced += 1
            with contextlib.suppress(OSError):  # read-only: recomputed, still never trusted
                path.unlink(missing_ok=True)
            self._count(hit=False)
            return None
        self._count(hit=True)
        return dict(payload)

    def put(self, key: str, payload: dict[str, Any]) -> None:
        entry = {"format": self.format, "key": key, "payload": payload}
        entry["sha256"] = payload_sha(payload)
        try:
            self.path(key).parent.mkdir(parents=True, exist_ok=True)
            write_text_atomic(self.path(key), json.dumps(entry, ensure_ascii=False) + "\n")
        except OSError as exc:
            with self._lock:
                warned, self._warned = self._warned, True
            if not warned:
                warnings.warn(
                    f"{self.what}: could not write under {self.root}: {exc}; "
                    f"going on without storing {self.what} entries",
                    RuntimeWarning,
                    stacklevel=3,
                )

    def _count(self, hit: bool) -> None:
        with self._lock:
            if hit:
                self.hits += 1
            else:
                self.misses += 1


DIGEST_FORMAT = 1


def file_digest(path: Path) -> str:
    """sha256 of a large file (a model), hashed once per (path, size, mtime): the
    digest is kept as a checked entry under ``cache_root()/digests``, so a new process
    reads it instead of hashing the file again. A file rewritten in place gets a new
    mtime, hence a new entry."""
    info = path.stat()
    identity = f"{DIGEST_FORMAT}\0{path.resolve()}\0{info.st_size}\0{info.st_mtime_ns}"
    key = hashlib.sha256(identity.encode()).hexdigest()
    store = CheckedEntries(cache_root() / "digests", DIGEST_FORMAT, "file digest cache")
    stored = store.get(key)
    if stored is not None and isinstance(stored.get("sha256"), str):
        return str(stored["sha256"])
    digest = hashlib.sha256()
    with path.open("rb") as fh:
        for block in iter(lambda: fh.read(1 << 20), b""):
            digest.update(block)
    store.put(key, {"sha256": digest.hexdigest()})
    return digest.hexdigest()
