"""The transcript cache: each exact clip transcribed once per ASR model and decode settings.

Whisper is most of an audio episode's time, and the same audio comes back again
and again (a caller's "All right." from the speech bank, an agent's repeated
line). ASR is deterministic, so a transcript is keyed by a sha256 over the
engine's identity (its name, model and every decode setting: `cache_identity`)
and the exact PCM bytes, and kept at ``root/transcripts/<key[:2]>/<key>.json``
beside the speech bank (``DUPLEXBENCH_SPEECH_CACHE``; the transcripts folder
alone is moved by ``DUPLEXBENCH_TRANSCRIPT_CACHE``, and ``off`` disables it).

Entries are stored by :mod:`duplexbench.entries`: each records a sha256 of its
own payload; one that does not verify (truncated, edited) is recomputed and
replaced, never trusted. Writes are atomic (temp file, then ``os.replace``), so
workers sharing the folder never see half an entry; a write that fails (a full
disk) is a warning, never a failed episode. Only checked transcripts are
stored, so the cache holds nothing an engine without it would not have returned.
An entry holds the whole :class:`Transcript`: text, word timings and segments with
their confidence (floats round-trip exactly through JSON); entries of an older
:data:`FORMAT` are not found, so they are decoded again, never read back without
their segments.
"""

from __future__ import annotations

import hashlib
import os
import threading
from collections import OrderedDict
from functools import cache
from pathlib import Path
from typing import Any

import numpy as np

from duplexbench.audio import Int16Array
from duplexbench.entries import CheckedEntries, cache_root
from duplexbench.speech._asr_types import Transcript, TranscriptSegment, Word

FORMAT = 3
"""Bumped when the entry layout changes (old entries are then simply not found).
3: segments with their confidence (entries of 2 have none: they are decoded again)."""


class TranscriptCache:
    """Transcripts on disk (and in a small memory LRU), keyed by engine identity + PCM."""

    def __init__(self, root: Path, memory_items: int = 1024) -> None:
        self.root = root
        self.memory_items = memory_items
        self._disk = CheckedEntries(root, FORMAT, "transcript cache")
        self._memory: OrderedDict[str, Transcript] = OrderedDict()
        self._lock = threading.Lock()
        self.memory_hits = 0

    @property
    def hits(self) -> int:
        return self.memory_hits + self._disk.hits

    @property
    def misses(self) -> int:
        return self._disk.misses

    @property
    def replaced(self) -> int:
        return self._disk.replaced

    @staticmethod
    def key(identity: str, samples: Int16Array) -> str:
        digest = hashlib.sha256(f"{FORMAT}\0{identity}\0".encode())
        digest.update(np.ascontiguousarray(samples, dtype="<i2").tobytes())
        return digest.hexdigest()

    def path(self, key: str) -> Path:
        return self._disk.path(key)

    def get(self, key: str) -> Transcript | None:
        """The transcript kept under `key`, or None (absent, or failed its checksum: then
        removed; or of another shape)."""
        with self._lock:
            if key in self._memory:
                self._memory.move_to_end(key)
                self.memory_hits += 1
                return self._memory[key]
        entry = _parse(self._disk.get(key))
        if entry is not None:
            with self._lock:
                self._remember(key, entry)
        return entry

    def put(self, key: str, transcript: Transcript) -> None:
        with self._lock:
            self._remember(key, transcript)
        self._disk.put(key, _payload(transcript))

    def _remember(self, key: str, entry: Transcript) -> None:
        self._memory[key] = entry
        self._memory.move_to_end(key)
        while len(self._memory) > self.memory_items:
            self._memory.popitem(last=False)


def _payload(t: Transcript) -> dict[str, Any]:
    words = [[w.text, w.start_ms, w.end_ms] for w in t.words]
    segments = [[s.text, s.start_ms, s.end_ms, s.avg_logprob, s.no_speech_prob] for s in t.segments]
    return {"text": t.text, "words": words, "segments": segments}


def _parse(payload: dict[str, Any] | None) -> Transcript | None:
    if payload is None:
        return None
    try:
        text = payload["text"]
        words = tuple(Word(str(w), int(s), int(e)) for w, s, e in payload["words"])
        segments = tuple(
            TranscriptSegment(str(t), int(s), int(e), float(p), float(n))
            for t, s, e, p, n in payload["segments"]
        )
    except (KeyError, TypeError, ValueError):  # a checked entry of another shape
        return None
    return Transcript(text, words, segments) if isinstance(text, str) else None


def default_root() -> Path | None:
    """Where transcripts live (None: the cache is off)."""
    env = os.environ.get("DUPLEXBENCH_TRANSCRIPT_CACHE", "")
    if env.strip().lower() == "off":
        return None
    if env:
        return Path(env).expanduser()
    return cache_root() / "transcripts"


@cache
def _shared(root: Path) -> TranscriptCache:
    return TranscriptCache(root)


def shared_cache() -> TranscriptCache | None:
    """The process-wide cache for the current root (None when off)."""
    root = default_root()
    return None if root is None else _shared(root)
