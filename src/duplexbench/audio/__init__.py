"""Audio primitives: PCM conversion, frames, WAV files, voice activity."""

from duplexbench.audio._effects import (
    EffectEvent,
    EffectsConfig,
    RecordingSource,
    UserLine,
    mulaw_decode,
    mulaw_encode,
    tic_clip,
)
from duplexbench.audio._fit import (
    DurationMismatch,
    cap_pauses,
    fit_duration,
    spoken_pieces,
    trim_silence,
)
from duplexbench.audio._frames import FRAME_MS, AudioFrame, energy, silence
from duplexbench.audio._pcm import (
    SAMPLE_RATE,
    AudioFormatError,
    Int16Array,
    ms_for_samples,
    pcm16_bytes_to_array,
    resample,
    samples_for_ms,
    sha256_pcm,
    to_float32,
    to_int16,
    to_internal,
    to_mono,
)
from duplexbench.audio._spatial import off_axis, render_role
from duplexbench.audio._vad import NOISE_MARGIN_DB, Segment, StreamingVad, VadConfig, segments
from duplexbench.audio._wav import MAX_WAV_BYTES, read_wav, write_wav

__all__ = [
    "FRAME_MS",
    "MAX_WAV_BYTES",
    "NOISE_MARGIN_DB",
    "SAMPLE_RATE",
    "AudioFormatError",
    "AudioFrame",
    "DurationMismatch",
    "EffectEvent",
    "EffectsConfig",
    "Int16Array",
    "RecordingSource",
    "Segment",
    "StreamingVad",
    "UserLine",
    "VadConfig",
    "cap_pauses",
    "energy",
    "fit_duration",
    "ms_for_samples",
    "mulaw_decode",
    "mulaw_encode",
    "off_axis",
    "pcm16_bytes_to_array",
    "read_wav",
    "render_role",
    "resample",
    "samples_for_ms",
    "segments",
    "sha256_pcm",
    "silence",
    "spoken_pieces",
    "tic_clip",
    "to_float32",
    "to_int16",
    "to_internal",
    "to_mono",
    "trim_silence",
    "write_wav",
]
