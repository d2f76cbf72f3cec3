"""The transcript cache: each exact clip transcribed once per ASR model and decode settings.

Whisper is most of an audio episode's time, and the same audio comes back again
and again (a caller's "All right." from the speech bank, an agent's repeated
line). ASR is deterministic, so a transcript is keyed by a sha256 over the
engine's identity (its name, model and every decode setting: `cache_identity`)
and the exact PCM bytes, and kept at ``root/transcripts/<key[:2]>/<key>.json``
beside the speech bank (``DUPLEXBENCH_SPEECH_CACHE``; the transcripts folder
alone is moved by ``DUPLEXBENCH_TRANSCRIPT_CACHE``, and ``off`` disables it).

Every entry records a sha256 of its own payload; an entry that does not verify
(truncated, edited) is recomputed and replaced, never trusted. Writes are
atomic (temp file, then ``os.replace``), so workers sharing the folder never see
half an entry; a write that fails (a full disk) is a warning, never a failed
episode. Only checked transcripts are stored, so the cache holds nothing an
engine without it would not have returned.
"""

from __future__ import annotations

import hashlib
import json
import os
import threading
import warnings
from collections import OrderedDict
from functools import cache
from pathlib import Path
from typing import Any

import numpy as np

from duplexbench.audio.pcm import Int16Array
from duplexbench.files import write_text_atomic

FORMAT = 1
"""Bumped when the entry layout changes (old entries are then simply not found)."""


def _payload_sha(text: str, words: list[list[Any]]) -> str:
    canonical = json.dumps([text, words], ensure_ascii=False, separators=(",", ":"))
    return hashlib.sha256(canonical.encode("utf-8")).hexdigest()


class TranscriptCache:
    """Transcripts on disk (and in a small memory LRU), keyed by engine identity + PCM."""

    def __init__(self, root: Path, memory_items: int = 1024) -> None:
        self.root = root
        self.memory_items = memory_items
        self._memory: OrderedDict[str, tuple[str, tuple[tuple[str, int, int], ...]]]
        self._memory = OrderedDict()
        self._lock = threading.Lock()
        self._warned = False
        self.hits = self.misses = self.replaced = 0

    @staticmethod
    def key(identity: str, samples: Int16Array) -> str:
        digest = hashlib.sha256(f"{FORMAT}\0{identity}\0".encode())
        digest.update(np.ascontiguousarray(samples, dtype="<i2").tobytes())
        return digest.hexdigest()

    def path(self, key: str) -> Path:
        return self.root / key[:2] / f"{key}.json"

    def get(self, key: str) -> tuple[str, tuple[tuple[str, int, int], ...]] | None:
        """(text, words) for `key`, or None (absent, or failed its checksum: then removed)."""
        with self._lock:
            if key in self._memory:
                self._memory.move_to_end(key)
                self.hits += 1
                return self._memory[key]
        entry = self._load(key)
        with self._lock:
            if entry is None:
                self.misses += 1
                return None
            self.hits += 1
            self._remember(key, entry)
        return entry

    def put(self, key: str, text: str, words: tuple[tuple[str, int, int], ...]) -> None:
        with self._lock:
            self._remember(key, (text, words))
        listed = [list(w) for w in words]
        entry = {
            "format": FORMAT,
            "key": key,
            "text": text,
            "words": listed,
            "sha256": _payload_sha(text, listed),
        }
        try:
            self.path(key).parent.mkdir(parents=True, exist_ok=True)
            write_text_atomic(self.path(key), json.dumps(entry, ensure_ascii=False) + "\n")
        except OSError as exc:  # a full or read-only disk: the transcript is still correct
            if not self._warned:
                self._warned = True
                warnings.warn(
                    f"transcript cache: could not write under {self.root}: {exc}; "
                    "going on without storing transcripts",
                    RuntimeWarning,
                    stacklevel=2,
                )

    def _remember(self, key: str, entry: tuple[str, tuple[tuple[str, int, int], ...]]) -> None:
        self._memory[key] = entry
        self._memory.move_to_end(key)
        while len(self._memory) > self.memory_items:
            self._memory.popitem(last=False)

    def _load(self, key: str) -> tuple[str, tuple[tuple[str, int, int], ...]] | None:
        path = self.path(key)
        try:
            raw = path.read_text(encoding="utf-8")
        except OSError:  # absent (or unreadable): decoded again
            return None
        try:
            data = json.loads(raw)
            text, words = data["text"], data["words"]
            ok = (
                isinstance(data, dict)
                and data.get("format") == FORMAT
                and data.get("key") == key
                and isinstance(text, str)
                and data.get("sha256") == _payload_sha(text, words)
            )
            parsed = tuple((str(w), int(s), int(e)) for w, s, e in words)
        except (ValueError, KeyError, TypeError):
            ok, parsed = False, ()
        if not ok:
            with self._lock:
                self.replaced += 1
            path.unlink(missing_ok=True)  # recomputed and rewritten by the caller
            return None
        return text, parsed


def default_root() -> Path | None:
    """Where transcripts live (None: the cache is off)."""
    env = os.environ.get("DUPLEXBENCH_TRANSCRIPT_CACHE", "")
    if env.strip().lower() == "off":
        return None
    if env:
        return Path(env).expanduser()
    from duplexbench.speech.bank import default_root as bank_root  # noqa: PLC0415

    return bank_root() / "transcripts"


@cache
def _shared(root: Path) -> TranscriptCache:
    return TranscriptCache(root)


def shared_cache() -> TranscriptCache | None:
    """The process-wide cache for the current root (None when off)."""
    root = default_root()
    return None if root is None else _shared(root)
