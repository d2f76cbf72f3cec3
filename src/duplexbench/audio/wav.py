"""WAV files (PCM16) with the standard library, atomically written."""

from __future__ import annotations

import wave
from pathlib import Path

import numpy as np

from duplexbench.audio.pcm import AudioFormatError, Int16Array, pcm16_bytes_to_array, to_int16
from duplexbench.files import atomic_path


def write_wav(path: Path, channels: list[Int16Array], sample_rate: int) -> None:
    """Write one or more equal-length int16 channels as an interleaved PCM16 WAV."""
    if not channels:
        raise ValueError("no channels to write")
    length = max(len(c) for c in channels)
    data = np.zeros((length, len(channels)), dtype="<i2")
    for i, channel in enumerate(channels):
        data[: len(channel), i] = to_int16(channel)
    with atomic_path(path) as tmp, wave.open(str(tmp), "wb") as out:
        out.setnchannels(len(channels))
        out.setsampwidth(2)
        out.setframerate(sample_rate)
        out.writeframes(data.tobytes())


def read_wav(path: Path) -> tuple[list[Int16Array], int]:
    """Read a PCM16 WAV into per-channel int16 arrays and its sample rate."""
    try:
        with wave.open(str(path), "rb") as src:
            if src.getsampwidth() != 2:
                raise AudioFormatError(f"{path}: {8 * src.getsampwidth()}-bit WAV; expected 16")
            channels, rate = src.getnchannels(), src.getframerate()
            raw = src.readframes(src.getnframes())
    except (wave.Error, EOFError) as exc:
        raise AudioFormatError(f"{path}: not a readable WAV file: {exc}") from None
    interleaved = pcm16_bytes_to_array(raw, channels).reshape(-1, channels)
    return [np.ascontiguousarray(interleaved[:, i]) for i in range(channels)], rate
