"""Pieces of long lines, each rendered once: the piece cache.

piper speaks a long line (more than ``PIPER_PIECE_CHARS`` characters) as
independent pieces joined by a fixed silence (:mod:`duplexbench.speech._engines`).
Long lines repeat with small changes: the reference agent's read-back of every
field is predicted before the episode from the text channel, and a value
misheard in the audio episode changes one piece of it, not the others. So each
piece's audio is cached on its own: a line is the same samples whether its
pieces were rendered now or read back, and only the pieces never spoken before
are rendered.

Entries are the engine's own output (int16 at the engine's rate, before the
bank resamples and levels the whole line), keyed by a sha256 over the engine's
identity (its version, the voice and every setting the engine uses) and the
piece's text, kept at ``<bank>/pieces/<key[:2]>/<key>.json`` as
:mod:`duplexbench.entries` stores them: checked before they are trusted (one
that does not verify is rendered again and replaced), written atomically, and a
failed write is a warning, never a failed render.
"""

from __future__ import annotations

import base64
import hashlib
from collections.abc import Callable
from pathlib import Path
from typing import Protocol, runtime_checkable

import numpy as np

from duplexbench.audio import Int16Array
from duplexbench.entries import CheckedEntries
from duplexbench.speech._tts_types import SynthesisSettings

__all__ = ["FORMAT", "PieceStore", "PiecewiseTTS", "joined", "speak_pieces"]

FORMAT = 1
"""Bumped when the entry layout changes (old entries are then simply not found)."""


class PieceStore:
    """Engine audio of single pieces, on disk under `root` (module docstring)."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self.disk = CheckedEntries(root, FORMAT, "speech piece cache")
        """The entries; its `hits`, `misses` and `replaced` count the lookups."""

    @staticmethod
    def key(identity: str, piece: str) -> str:
        return hashlib.sha256(f"{FORMAT}\0{identity}\0{piece}".encode()).hexdigest()

    def get(self, key: str) -> Int16Array | None:
        payload = self.disk.get(key)
        if payload is None:
            return None
        try:
            raw = base64.b64decode(str(payload["pcm"]), validate=True)
        except (KeyError, ValueError):  # a checked entry of another shape
            return None
        if len(raw) % 2:
            return None
        return np.frombuffer(raw, dtype="<i2").astype(np.int16, copy=False)  # read-only

    def put(self, key: str, samples: Int16Array) -> None:
        pcm = np.ascontiguousarray(samples, dtype="<i2").tobytes()
        self.disk.put(key, {"pcm": base64.b64encode(pcm).decode("ascii")})


@runtime_checkable
class PiecewiseTTS(Protocol):
    """A TTS engine that speaks long text as independent pieces and can reuse them."""

    def synthesize_pieces(
        self, text: str, voice: str, settings: SynthesisSettings, store: PieceStore | None
    ) -> tuple[Int16Array, int]:
        """What ``synthesize`` returns, the same samples, with pieces from `store`."""
        ...


def speak_pieces(
    pieces: list[str],
    speak: Callable[[str], Int16Array],
    gap_samples: int,
    store: PieceStore | None = None,
    identity: str = "",
) -> Int16Array:
    """The pieces' audio in order, `gap_samples` of silence between two that are not
    empty. A piece comes from `store` (under its key for `identity`) when it holds
    it; otherwise `speak(piece)` renders it and it is stored. No pieces: no samples."""
    parts: list[Int16Array] = []
    for piece in pieces:
        key = PieceStore.key(identity, piece) if store is not None else ""
        audio = store.get(key) if store is not None else None
        if audio is None:
            audio = np.asarray(speak(piece), dtype=np.int16).reshape(-1)
            if store is not None:
                store.put(key, audio)
        if audio.size:
            parts.append(audio)
    return joined(parts, gap_samples)


def joined(parts: list[Int16Array], gap_samples: int) -> Int16Array:
    """`parts` in order with `gap_samples` of silence between each two."""
    if not parts:
        return np.zeros(0, dtype=np.int16)
    gap = np.zeros(gap_samples, dtype=np.int16)
    out: list[Int16Array] = [parts[0]]
    for part in parts[1:]:
        out += [gap, part]
    return np.concatenate(out)
