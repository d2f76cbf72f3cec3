"""Audio primitives: PCM conversion, frames, WAV files, voice activity."""

from duplexbench.audio.frames import FRAME_MS, AudioFrame, energy, silence
from duplexbench.audio.pcm import (
    SAMPLE_RATE,
    AudioFormatError,
    resample,
    sha256_pcm,
    to_float32,
    to_int16,
    to_internal,
)
from duplexbench.audio.wav import read_wav, write_wav

__all__ = [
    "FRAME_MS",
    "SAMPLE_RATE",
    "AudioFormatError",
    "AudioFrame",
    "energy",
    "read_wav",
    "resample",
    "sha256_pcm",
    "silence",
    "to_float32",
    "to_int16",
    "to_internal",
    "write_wav",
]
