"""Text-to-speech types every engine shares: settings, the engine protocol, errors.

The engines (:mod:`duplexbench.speech._engines`, ``_synthetic``, ``_hibari``,
``_pico``) import these from here; the registry that names and builds them,
and the ``engine:voice`` references it resolves, are in
:mod:`duplexbench.speech._tts`, above the engines.

Engines return mono int16 at their native rate. Converting to the internal
16 kHz format, loudness normalization and ``gain_db`` are applied by the
speech bank (:mod:`duplexbench.speech._bank`), not by the engines.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from typing import Protocol

from duplexbench.audio import Int16Array

__all__ = [
    "MAX_PITCH_SEMITONES",
    "MAX_SPEED",
    "SpeechUnavailable",
    "SynthesisSettings",
    "TTSEngine",
    "TTSError",
    "TTSFactory",
]

MAX_SPEED = 4.0
MAX_PITCH_SEMITONES = 12.0


class SpeechUnavailable(RuntimeError):
    """A speech engine (package, model or binary) is not installed on this machine."""


class TTSError(RuntimeError):
    """A TTS engine failed, or returned audio that cannot be the text spoken
    (:mod:`duplexbench.speech._synthesis`); never stored in the speech bank."""


@dataclass(frozen=True)
class SynthesisSettings:
    """How to speak: ``speed`` multiplies the speaking rate, ``gain_db`` the level,
    ``pitch_semitones`` shifts the voice's pitch (0 = the voice's own).

    ``gain_db`` is relative to the bank's loudness target (-20 dBFS RMS).
    ``pitch_semitones`` is within ±12; how each engine applies it is in
    :mod:`duplexbench.speech._engines` (piper and flite ``rms`` cannot shift
    pitch and raise ``ValueError`` for anything but 0; hibari shifts within ±3).
    """

    speed: float = 1.0
    gain_db: float = 0.0
    pitch_semitones: float = 0.0

    def __post_init__(self) -> None:
        speed, gain = float(self.speed), float(self.gain_db)
        pitch = float(self.pitch_semitones)
        if not math.isfinite(speed) or not 0.0 < speed <= MAX_SPEED:
            raise ValueError(f"speed must be in (0, {MAX_SPEED:g}], got {self.speed!r}")
        if not math.isfinite(gain) or abs(gain) > 60.0:
            raise ValueError(f"gain_db must be within ±60 dB, got {self.gain_db!r}")
        if not math.isfinite(pitch) or abs(pitch) > MAX_PITCH_SEMITONES:
            raise ValueError(
                f"pitch_semitones must be within ±{MAX_PITCH_SEMITONES:g}, "
                f"got {self.pitch_semitones!r}"
            )
        # Canonical floats, so 1 and 1.0 give the same cache key (and -0.0 is 0.0).
        object.__setattr__(self, "speed", speed)
        object.__setattr__(self, "gain_db", gain)
        object.__setattr__(self, "pitch_semitones", pitch + 0.0)

    def as_dict(self) -> dict[str, float]:
        """The settings as part of a cache key.

        ``pitch_semitones`` appears only when it is not 0, so every key made
        before pitch existed (and every suite checksum built on them) is unchanged.
        """
        out = {"speed": self.speed, "gain_db": self.gain_db}
        if self.pitch_semitones != 0.0:
            out["pitch_semitones"] = self.pitch_semitones
        return out


class TTSEngine(Protocol):
    """A text-to-speech engine. Implementations must be deterministic."""

    name: str

    def version(self) -> str:
        """Engine and model identity/version; part of every cache key."""
        ...

    def voices(self) -> list[str]:
        """Voice names this engine accepts (may be a representative subset)."""
        ...

    def synthesize(
        self, text: str, voice: str, settings: SynthesisSettings
    ) -> tuple[Int16Array, int]:
        """Mono int16 samples and their native sample rate."""
        ...


TTSFactory = Callable[[], TTSEngine]
"""A zero-argument function that builds an engine (the registry keeps what it builds)."""
