"""The caller's microphone as the harness reads it: 16 kHz int16, a bounded queue.

The page sends int16 audio at its own AudioContext rate; `MicBuffer` resamples
it to 16 kHz as it arrives (one `soxr.ResampleStream`, so chunk edges leave no
clicks) and hands it out in exact sizes. The stream runs at soxr's `LQ`
quality: each 20 ms frame from the page comes out as about 20 ms at 16 kHz,
10-15 ms late, where `HQ` holds audio back and releases it in 30-70 ms bursts
that a reader on a 20 ms clock would see as underruns (for speech at 16 kHz
the passband hardly differs; the latency does).

The harness reads at its own pace, which never matches the browser's clock
exactly, so the buffer keeps at most `MAX_MS` of audio (older samples are
dropped: a bounded delay beats a growing one in a live call) and fills a
short read with silence; both are counted so a run can report how far the
two clocks drifted.
"""

from __future__ import annotations

import threading

import numpy as np
import numpy.typing as npt
import soxr

Int16Array = npt.NDArray[np.int16]


class MicBuffer:
    """Thread-safe: the server thread pushes, the episode loop reads."""

    RATE = 16000
    MAX_MS = 500

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._rate = self.RATE
        self._stream: soxr.ResampleStream | None = None
        self._buffer: Int16Array = np.zeros(0, dtype=np.int16)
        self.underrun_samples = 0
        """Samples `read` filled with silence because too few were buffered."""
        self.dropped_samples = 0
        """Samples dropped, oldest first, to keep the buffer within `MAX_MS`."""

    def set_input_rate(self, rate: int) -> None:
        """Expect `rate` Hz from now on (a new resampler: nothing of the old rate carries over)."""
        if not 8000 <= rate <= 384000:
            raise ValueError(f"unsupported microphone rate {rate} Hz")
        with self._lock:
            self._rate = rate
            self._stream = self._new_stream()

    def push(self, pcm16: bytes) -> None:
        """Append int16 little-endian mono audio at the input rate (an odd byte is an error)."""
        if len(pcm16) % 2:
            raise ValueError(f"int16 audio has an even byte count, not {len(pcm16)}")
        samples = np.frombuffer(pcm16, dtype="<i2").astype(np.int16)
        with self._lock:
            if self._stream is not None:
                samples = self._stream.resample_chunk(samples).astype(np.int16, copy=False)
            buffer = np.concatenate([self._buffer, samples])
            excess = len(buffer) - self.RATE * self.MAX_MS // 1000
            if excess > 0:
                self.dropped_samples += excess
                buffer = buffer[excess:]
            self._buffer = buffer

    def read(self, n: int) -> Int16Array:
        """Exactly `n` samples at 16 kHz: what is buffered, then silence for the rest."""
        if n < 0:
            raise ValueError(f"cannot read {n} samples")
        with self._lock:
            taken, self._buffer = self._buffer[:n].copy(), self._buffer[n:]
            missing = n - len(taken)
            self.underrun_samples += missing
        if missing:
            taken = np.concatenate([taken, np.zeros(missing, dtype=np.int16)])
        return taken

    def clear(self) -> None:
        """Forget what is buffered and the resampler's state (a new call, a new turn)."""
        with self._lock:
            self._buffer = np.zeros(0, dtype=np.int16)
            self._stream = self._new_stream()

    def _new_stream(self) -> soxr.ResampleStream | None:
        if self._rate == self.RATE:
            return None
        return soxr.ResampleStream(self._rate, self.RATE, 1, dtype="int16", quality="LQ")
