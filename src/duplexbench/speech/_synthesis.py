"""Calling a TTS engine and checking what it returns, before the bank keeps it.

An engine that raises, or returns something that cannot be the text spoken,
fails with :class:`~duplexbench.speech._tts_types.TTSError` naming ``engine:voice``
and the text, so an episode that needs the clip ends as an ``error`` (never
scored as the agent's failure; the campaign's retry policy reruns it) and
nothing bad is stored in the speech bank. Refused:

- anything but ``(samples, rate)`` with a positive integer rate;
- samples of an unsupported type (complex, strings, objects), or more than
  two dimensions (``AudioFormatError`` from the conversion);
- float samples that are NaN or infinite, or far outside [-1, 1]
  (peak above :data:`FLOAT_PEAK_LIMIT`: int16 values passed as floats), and
  wider integers beyond the 16-bit range (32-bit PCM);
- no samples, or silence (loudest 20 ms frame below -60 dBFS) for text with
  a letter or digit in it;
- a clip longer than :func:`max_clip_ms` (10 s plus 0.5 s a character, at
  speed 1), about seven times the slowest natural speech.

Float samples slightly over full scale are clipped (repaired) by the conversion.
"""

from __future__ import annotations

import math

import numpy as np

from duplexbench.audio import Int16Array, ms_for_samples, to_internal
from duplexbench.speech._asr import is_silent
from duplexbench.speech._pieces import PieceStore, PiecewiseTTS
from duplexbench.speech._tts_types import SpeechUnavailable, SynthesisSettings, TTSEngine, TTSError

__all__ = ["FLOAT_PEAK_LIMIT", "max_clip_ms", "synthesize_checked"]

FLOAT_PEAK_LIMIT = 2.0
BASE_CLIP_S = 10.0
PER_CHAR_S = 0.5
SILENT_DBFS = -60.0
"""A clip whose loudest 20 ms frame is quieter than this is silence."""


def max_clip_ms(text: str, settings: SynthesisSettings) -> int:
    """The longest clip accepted for `text` at these settings."""
    return math.ceil(1000 * (BASE_CLIP_S + PER_CHAR_S * len(text)) / min(1.0, settings.speed))


def _converted(output: object) -> Int16Array:
    """The engine's `(samples, rate)` as 16 kHz mono int16; ValueError saying what is wrong."""
    if not isinstance(output, tuple) or len(output) != 2:
        raise ValueError(f"returned a {type(output).__name__}, not (samples, rate)")
    raw, rate = output
    if isinstance(rate, bool) or not isinstance(rate, int | np.integer) or rate <= 0:
        raise ValueError(f"returned the sample rate {rate!r}")
    arr = np.asarray(raw)
    if arr.dtype.kind == "f" and arr.size:
        if not np.all(np.isfinite(arr)):
            raise ValueError("returned NaN or infinite samples")
        peak = float(np.max(np.abs(arr)))
        if peak > FLOAT_PEAK_LIMIT:
            raise ValueError(f"returned float samples peaking at {peak:g} (expected within ±1)")
    elif arr.dtype.kind in "iu" and arr.dtype != np.int16 and arr.size:
        low, high = int(np.min(arr)), int(np.max(arr))
        if low < -32768 or high > 32767:
            raise ValueError(f"returned {arr.dtype} samples beyond 16 bits ({low}..{high})")
    return to_internal(arr, int(rate))


def synthesize_checked(
    engine: TTSEngine,
    engine_name: str,
    text: str,
    voice: str,
    settings: SynthesisSettings,
    *,
    pieces: PieceStore | None = None,
) -> Int16Array:
    """Speak `text` with `engine`, converted to 16 kHz mono int16; TTSError on a fault.
    An engine that speaks in pieces reuses them from `pieces` (speech/_pieces.py)."""
    what = f"TTS {engine_name}:{voice} on {text[:60]!r}"
    try:
        if pieces is not None and isinstance(engine, PiecewiseTTS):
            output: object = engine.synthesize_pieces(text, voice, settings, pieces)
        else:
            output = engine.synthesize(text, voice, settings)
    except SpeechUnavailable:
        raise
    except Exception as exc:
        raise TTSError(f"{what}: {type(exc).__name__}: {exc}") from exc
    try:
        samples = _converted(output)
    except ValueError as exc:  # AudioFormatError included
        raise TTSError(f"{what}: {exc}") from exc
    except Exception as exc:
        raise TTSError(f"{what}: unusable audio: {type(exc).__name__}: {exc}") from exc
    speech = any(ch.isalnum() for ch in text)
    if samples.size == 0 and speech:
        raise TTSError(f"{what}: returned no audio")
    if speech and is_silent(samples, SILENT_DBFS):
        raise TTSError(f"{what}: returned silence")
    limit = max_clip_ms(text, settings)
    if ms_for_samples(samples.size) > limit:
        raise TTSError(f"{what}: returned {ms_for_samples(samples.size)} ms (at most {limit} ms)")
    return samples
