"""Agent playback: what the user hears, and when each word is heard.

Agent audio is queued as it arrives and delivered one frame at a time on the
agent channel. Audio counts as heard only once delivered. Text is aligned to
audio per chunk: a transcript delta starts a chunk, the audio that follows
belongs to it, and the chunk's words are spread over its samples by
character count. A chunk's words become audible only once the chunk is
sealed (next transcript delta, response done or cancel), so the user never
reacts to words not yet played. Cancelling drops everything not yet played.
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass, field

import numpy as np

from duplexbench.audio import SAMPLE_RATE, Int16Array


@dataclass(frozen=True, slots=True)
class HeardWord:
    word: str
    t_ms: int


@dataclass
class _Chunk:
    text: str
    parts: list[Int16Array] = field(default_factory=list)
    size: int = 0
    played: int = 0
    sealed: bool = False
    ends: list[tuple[int, str]] = field(default_factory=list)  # (sample offset, word)
    next_word: int = 0

    def seal(self) -> None:
        if self.sealed:
            return
        self.sealed = True
        if self.size == 0:
            return  # text without audio is never heard
        words = self.text.split()
        total = sum(len(w) + 1 for w in words)
        acc = 0
        for word in words:
            acc += len(word) + 1
            self.ends.append((self.size * acc // total if total else 0, word))


@dataclass(frozen=True)
class Delivered:
    samples: Int16Array
    words: list[HeardWord]
    active: bool
    """Whether any queued agent audio was played this frame."""


class Playback:
    def __init__(self, max_buffer_ms: int = 300_000, rate: int = SAMPLE_RATE) -> None:
        self.rate = rate
        self.max_buffer = max_buffer_ms * rate // 1000
        self._chunks: deque[_Chunk] = deque()

    @property
    def buffered_samples(self) -> int:
        return sum(c.size - c.played for c in self._chunks)

    @property
    def overflowing(self) -> bool:
        return self.buffered_samples > self.max_buffer

    @property
    def idle(self) -> bool:
        return not self._chunks

    def text(self, text: str) -> None:
        """A transcript delta: seals the current chunk; its text labels the audio that follows."""
        if self._chunks:
            self._chunks[-1].seal()
        self._chunks.append(_Chunk(text))

    def audio(self, samples: Int16Array) -> None:
        if samples.size == 0:
            return
        if not self._chunks or self._chunks[-1].sealed:
            self._chunks.append(_Chunk(""))
        chunk = self._chunks[-1]
        chunk.parts.append(samples)
        chunk.size += samples.size

    def seal(self) -> None:
        """The response is done: every queued chunk's text is final."""
        for chunk in self._chunks:
            chunk.seal()

    def cancel(self) -> tuple[int, str]:
        """Drop everything not yet played; returns (dropped samples, unheard text)."""
        dropped = self.buffered_samples
        unheard: list[str] = []
        for chunk in self._chunks:
            chunk.seal()
            unheard += [w for _, w in chunk.ends[chunk.next_word :]]
        self._chunks.clear()
        return dropped, " ".join(unheard)

    def pull(self, n: int, t_ms: int) -> Delivered:
        """Deliver the next `n` samples (silence-padded) starting at media time `t_ms`."""
        out = np.zeros(n, dtype=np.int16)
        words: list[HeardWord] = []
        filled = 0
        active = False
        while filled < n and self._chunks:
            chunk = self._chunks[0]
            take = min(n - filled, chunk.size - chunk.played)
            if take > 0:
                active = True
                out[filled : filled + take] = _slice(chunk, chunk.played, take)
                chunk.played += take
                filled += take
            if chunk.sealed:
                words += _heard(chunk, t_ms, filled, self.rate)
            if chunk.played >= chunk.size and chunk.sealed:
                self._chunks.popleft()
            elif take == 0:
                break  # an open chunk waiting for more audio
        return Delivered(out, words, active)


def _slice(chunk: _Chunk, start: int, length: int) -> Int16Array:
    if len(chunk.parts) > 1:
        chunk.parts = [np.concatenate(chunk.parts)]
    return chunk.parts[0][start : start + length]


def _heard(chunk: _Chunk, t_ms: int, filled: int, rate: int) -> list[HeardWord]:
    """Words whose end has now been played; timed within the frame."""
    out = []
    frame_start = chunk.played - filled  # sample offset of this frame's first sample in the chunk
    while chunk.next_word < len(chunk.ends) and chunk.ends[chunk.next_word][0] <= chunk.played:
        offset, word = chunk.ends[chunk.next_word]
        within = max(0, offset - frame_start)
        out.append(HeardWord(word, t_ms + within * 1000 // rate))
        chunk.next_word += 1
    return out
