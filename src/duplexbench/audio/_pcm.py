"""PCM conversions for the audio hot path: dtype, channels, rate, sanitizing.

Internal audio is mono int16 at 16 kHz (:data:`SAMPLE_RATE`). Everything an
adapter or a TTS engine hands over goes through :func:`to_internal`, which
converts or rejects with a clear error, replaces NaN/inf with silence and
clips to full scale.
"""

from __future__ import annotations

import hashlib

import numpy as np
import numpy.typing as npt
import soxr

SAMPLE_RATE = 16_000
Int16Array = npt.NDArray[np.int16]
FloatArray = npt.NDArray[np.float32]


class AudioFormatError(ValueError):
    """Audio that cannot be converted to the internal format."""


def to_float32(samples: npt.ArrayLike) -> FloatArray:
    """Samples in [-1, 1] as float32; int16 is scaled by 1/32768."""
    arr = np.asarray(samples)
    if arr.dtype == np.int16:
        return (arr.astype(np.float32) / 32768.0).astype(np.float32)
    if arr.dtype.kind == "f":
        out = np.nan_to_num(arr.astype(np.float32), nan=0.0, posinf=1.0, neginf=-1.0)
        return np.clip(out, -1.0, 1.0).astype(np.float32)
    raise AudioFormatError(f"unsupported sample type {arr.dtype}; expected int16 or float")


def to_int16(samples: npt.ArrayLike) -> Int16Array:
    """Samples as int16; floats are sanitized (NaN -> 0) and clipped to full scale."""
    arr = np.asarray(samples)
    if arr.dtype == np.int16:
        return np.asarray(arr, dtype=np.int16)
    if arr.dtype.kind == "f":
        scaled = np.rint(to_float32(arr).astype(np.float64) * 32767.0)
        return scaled.astype(np.int16)
    if arr.dtype.kind in "iu":
        clipped: Int16Array = np.clip(arr, -32768, 32767).astype(np.int16)
        return clipped
    raise AudioFormatError(f"unsupported sample type {arr.dtype}")


def pcm16_bytes_to_array(data: bytes, channels: int = 1) -> Int16Array:
    """Little-endian PCM16 bytes to int16 samples (interleaved channels kept)."""
    if len(data) % (2 * channels):
        raise AudioFormatError(
            f"{len(data)} bytes is not a whole number of {channels}-channel PCM16 frames"
        )
    return np.frombuffer(data, dtype="<i2").astype(np.int16)


def to_mono(samples: npt.ArrayLike, channels: int = 1) -> npt.NDArray[np.generic]:
    """Downmix interleaved samples (or a 2-D frames x channels array) to mono."""
    arr = np.asarray(samples)
    if arr.ndim == 2:
        mixed: npt.NDArray[np.generic] = (
            arr.mean(axis=1).astype(arr.dtype) if arr.shape[1] > 1 else np.asarray(arr[:, 0])
        )
        return mixed
    if channels == 1:
        return np.asarray(arr)
    if channels < 1 or arr.size % channels:
        raise AudioFormatError(f"{arr.size} samples do not split into {channels} channels")
    down: npt.NDArray[np.generic] = arr.reshape(-1, channels).mean(axis=1).astype(arr.dtype)
    return down


def resample(samples: npt.ArrayLike, from_rate: int, to_rate: int) -> Int16Array:
    """Resample mono audio (high-quality soxr); returns int16."""
    if from_rate <= 0 or to_rate <= 0:
        raise AudioFormatError(f"bad sample rates {from_rate} -> {to_rate}")
    mono = to_int16(samples)
    if from_rate == to_rate or mono.size == 0:
        return mono
    out = soxr.resample(to_float32(mono), from_rate, to_rate, quality="HQ")
    return to_int16(out)


def to_internal(samples: npt.ArrayLike, sample_rate: int, channels: int = 1) -> Int16Array:
    """Any supported audio -> mono int16 at 16 kHz, or AudioFormatError."""
    arr = np.asarray(samples)
    if arr.ndim > 2:
        raise AudioFormatError(f"audio must be 1-D or frames x channels, got shape {arr.shape}")
    mono = to_mono(arr, channels)
    return resample(to_int16(mono), sample_rate, SAMPLE_RATE)


def samples_for_ms(ms: int, rate: int = SAMPLE_RATE) -> int:
    return ms * rate // 1000


def ms_for_samples(n: int, rate: int = SAMPLE_RATE) -> int:
    return n * 1000 // rate


def sha256_pcm(samples: Int16Array) -> str:
    """Checksum of int16 samples (little-endian bytes)."""
    return hashlib.sha256(samples.astype("<i2").tobytes()).hexdigest()
