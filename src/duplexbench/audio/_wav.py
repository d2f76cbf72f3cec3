"""WAV files (PCM16) with the standard library, atomically written.

Reading is bounded: a file above :data:`MAX_WAV_BYTES` (or the limit given), or
one that is not a regular file, is refused before it is decoded.
"""

from __future__ import annotations

import io
import wave
from pathlib import Path

import numpy as np

from duplexbench.audio._pcm import AudioFormatError, Int16Array, pcm16_bytes_to_array, to_int16
from duplexbench.files import UnsafeFileError, atomic_path, read_limited

MAX_WAV_BYTES = 128 * 1024 * 1024
"""A WAV file read: a 20-minute episode (its time limit) in two 16 kHz channels is
77 MB; a noise recording of about 11 minutes of 48 kHz stereo fits too."""


WRITE_BLOCK_FRAMES = 1 << 16
"""Frames interleaved and written at a time (4.1 s at 16 kHz)."""


def write_wav(path: Path, channels: list[Int16Array], sample_rate: int) -> None:
    """Write one or more int16 channels as an interleaved PCM16 WAV (a shorter channel
    is padded with silence). Interleaved a block at a time, so writing a long
    episode never holds a second copy of its audio."""
    if not channels:
        raise ValueError("no channels to write")
    length = max(len(c) for c in channels)
    with atomic_path(path) as tmp, wave.open(str(tmp), "wb") as out:
        out.setnchannels(len(channels))
        out.setsampwidth(2)
        out.setframerate(sample_rate)
        if length == 0:
            out.writeframes(b"")
        for start in range(0, length, WRITE_BLOCK_FRAMES):
            stop = min(length, start + WRITE_BLOCK_FRAMES)
            block = np.zeros((stop - start, len(channels)), dtype="<i2")
            for i, channel in enumerate(channels):
                part = channel[start:stop]
                block[: len(part), i] = to_int16(part)
            out.writeframes(block.data.cast("B"))


def read_wav(path: Path, max_bytes: int = MAX_WAV_BYTES) -> tuple[list[Int16Array], int]:
    """Read a PCM16 WAV into per-channel int16 arrays and its sample rate.

    AudioFormatError (a ValueError) names the file when it is not a PCM16 WAV,
    is larger than `max_bytes` or is not a regular file; OSError when unreadable.
    """
    try:
        data = read_limited(Path(path), max_bytes, "WAV file")
    except UnsafeFileError as exc:
        raise AudioFormatError(str(exc)) from None
    try:
        with wave.open(io.BytesIO(data), "rb") as src:
            if src.getsampwidth() != 2:
                raise AudioFormatError(f"{path}: {8 * src.getsampwidth()}-bit WAV; expected 16")
            channels, rate = src.getnchannels(), src.getframerate()
            raw = src.readframes(src.getnframes())
    except (wave.Error, EOFError) as exc:
        raise AudioFormatError(f"{path}: not a readable WAV file: {exc}") from None
    interleaved = pcm16_bytes_to_array(raw, channels).reshape(-1, channels)
    return [np.ascontiguousarray(interleaved[:, i]) for i in range(channels)], rate
