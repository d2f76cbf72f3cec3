"""Audio frames on the media timeline (frozen dataclasses on the hot path)."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from duplexbench.audio._pcm import SAMPLE_RATE, Int16Array

FRAME_MS = 20
"""Default frame size; 40 ms (APEX-Voice) and 200 ms (tau-Voice ticks) are settings."""


@dataclass(frozen=True, slots=True)
class AudioFrame:
    """`samples`: mono int16 at `sample_rate`, starting at media time `t_ms`."""

    t_ms: int
    samples: Int16Array
    sample_rate: int = SAMPLE_RATE

    @property
    def duration_ms(self) -> int:
        return len(self.samples) * 1000 // self.sample_rate


def silence(n: int) -> Int16Array:
    return np.zeros(n, dtype=np.int16)


def energy(samples: Int16Array) -> float:
    """Mean square of int16 samples, in full-scale units (0 .. 1)."""
    if samples.size == 0:
        return 0.0
    x = samples.astype(np.float32) / 32768.0
    return float(np.dot(x, x)) / samples.size
