"""Voice activity detection: speech segments of a channel, and a streaming VAD.

Timing metrics (who spoke when, overlaps, how fast the agent stopped after a
barge-in) are computed from the speech segments of each audio channel. The
default backend is energy-based: deterministic, numpy-only and fast (60 s of
16 kHz audio segments in well under a millisecond). A frame is speech when its RMS
level in dBFS (full-scale square wave = 0 dB, so a full-scale sine is about
-3 dB) is at least ``threshold_dbfs`` and, when ``relative_db`` is set, at
least the loudest frame of the signal minus ``relative_db``.

Post-processing of the frame decisions, in this order (as in silero and
pyannote): speech runs separated by silences shorter than ``min_silence_ms``
are merged, then segments shorter than ``min_speech_ms`` are dropped, then each
segment is padded by ``pad_ms`` on both sides (clipped to the signal) and
segments that the padding made overlap or touch are merged.

The optional ``"silero"`` backend uses ``faster_whisper.vad`` (extra
``duplexbench[asr]``); it ignores the level thresholds.

:class:`StreamingVad` makes the frame-by-frame decision with an onset count
and a hangover, for agents' end-of-turn detection; it uses only
``threshold_dbfs`` of its :class:`VadConfig`.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from duplexbench.audio._pcm import SAMPLE_RATE, Int16Array, resample, to_float32, to_int16

__all__ = [
    "LEVEL_FLOOR_DBFS",
    "NOISE_MARGIN_DB",
    "Segment",
    "StreamingVad",
    "VadConfig",
    "frame_levels",
    "segments",
    "speech_frames",
]

NOISE_MARGIN_DB = 12.0
"""How far above the tracked noise floor the built-in agents' streaming VAD wants speech."""

LEVEL_FLOOR_DBFS = -120.0
"""Level reported for digital silence (instead of -inf)."""

_FULL_SCALE_SQ = 32768.0 * 32768.0
_FLOOR_POWER = 10.0 ** (LEVEL_FLOOR_DBFS / 10.0)
_STUCK_MS = 4000
"""Above the floor this long: the floor is wrong (noise from the start), track all frames."""
_SILENT_POWER = _FULL_SCALE_SQ * 10.0 ** (-100.0 / 10.0)
"""Mean power per sample (int16 units) below which a frame is digital silence."""
_ASR_HINT = "pip install 'duplexbench[asr]'"
_SILERO_RATE = 16_000


@dataclass(frozen=True)
class VadConfig:
    """Energy-VAD settings; all durations in milliseconds."""

    frame_ms: int = 20
    """Analysis frame."""
    threshold_dbfs: float = -45.0
    """A frame is speech when its RMS level (dBFS) is at least this ..."""
    relative_db: float | None = 35.0
    """... and (if set) at least (loudest frame - relative_db); ignored by StreamingVad."""
    min_speech_ms: int = 80
    """Drop speech segments shorter than this (clicks), after merging pauses."""
    min_silence_ms: int = 300
    """Merge speech runs separated by shorter silences (pauses inside a turn)."""
    pad_ms: int = 0
    """Extend each segment on both sides (clipped to the signal)."""

    def __post_init__(self) -> None:
        if self.frame_ms <= 0:
            raise ValueError(f"frame_ms must be positive, got {self.frame_ms}")
        if self.min_speech_ms < 0 or self.min_silence_ms < 0 or self.pad_ms < 0:
            raise ValueError("min_speech_ms, min_silence_ms and pad_ms must be >= 0")
        if self.relative_db is not None and self.relative_db < 0:
            raise ValueError(f"relative_db must be >= 0 or None, got {self.relative_db}")


@dataclass(frozen=True)
class Segment:
    """Speech from ``start_ms`` (inclusive) to ``end_ms`` (exclusive) on the signal's timeline."""

    start_ms: int
    end_ms: int

    @property
    def duration_ms(self) -> int:
        return self.end_ms - self.start_ms


def _as_int16(samples: npt.ArrayLike) -> Int16Array:
    arr = np.asarray(samples)
    if arr.ndim != 1:
        raise ValueError(f"expected mono 1-D samples, got shape {arr.shape}")
    return to_int16(arr)


def _frame_len(sample_rate: int, frame_ms: int) -> int:
    if sample_rate <= 0:
        raise ValueError(f"sample_rate must be positive, got {sample_rate}")
    if frame_ms <= 0:
        raise ValueError(f"frame_ms must be positive, got {frame_ms}")
    return max(1, sample_rate * frame_ms // 1000)


def frame_levels(
    samples: Int16Array, sample_rate: int = SAMPLE_RATE, frame_ms: int = 20
) -> npt.NDArray[np.float64]:
    """RMS level in dBFS of each ``frame_ms`` frame, floored at :data:`LEVEL_FLOOR_DBFS`.

    Frame ``i`` covers samples ``[i * L, (i + 1) * L)`` with
    ``L = sample_rate * frame_ms // 1000``; a last partial frame is included
    (its RMS is over its own samples).
    """
    x = _as_int16(samples)
    flen = _frame_len(sample_rate, frame_ms)
    n = x.shape[0]
    n_full = n // flen
    n_frames = -(-n // flen)
    power = np.empty(n_frames, dtype=np.float64)
    if n_full:
        full = x[: n_full * flen].astype(np.float32).reshape(n_full, flen)
        power[:n_full] = np.einsum("ij,ij->i", full, full) / (flen * _FULL_SCALE_SQ)
    if n_frames > n_full:
        tail = x[n_full * flen :].astype(np.float64)
        power[n_full] = float(np.dot(tail, tail)) / (tail.shape[0] * _FULL_SCALE_SQ)
    np.maximum(power, _FLOOR_POWER, out=power)
    levels: npt.NDArray[np.float64] = 10.0 * np.log10(power)
    return levels


def speech_frames(
    samples: Int16Array, sample_rate: int = SAMPLE_RATE, config: VadConfig = VadConfig()
) -> npt.NDArray[np.bool_]:
    """Per-frame speech decision (frames as in :func:`frame_levels`)."""
    levels = frame_levels(samples, sample_rate, config.frame_ms)
    mask: npt.NDArray[np.bool_] = levels >= config.threshold_dbfs
    if config.relative_db is not None and levels.size:
        mask &= levels >= float(levels.max()) - config.relative_db
    return mask


def segments(
    samples: Int16Array,
    sample_rate: int = SAMPLE_RATE,
    config: VadConfig = VadConfig(),
    backend: str = "energy",
) -> list[Segment]:
    """Speech segments in ms on the signal's own timeline.

    Sorted, non-overlapping, non-empty, within ``[0, duration]`` where the
    duration is ``len(samples) * 1000 // sample_rate``. Before padding every
    segment lasts at least ``config.min_speech_ms``.
    """
    x = _as_int16(samples)
    if backend == "energy":
        mask = speech_frames(x, sample_rate, config)
        flen = _frame_len(sample_rate, config.frame_ms)
        starts, ends = _runs(mask)
        starts_ms = starts * flen * 1000 // sample_rate
        ends_ms = np.minimum(ends * flen, x.shape[0]) * 1000 // sample_rate
    elif backend == "silero":
        starts_ms, ends_ms = _silero_runs(x, sample_rate, config)
    else:
        raise ValueError(f"unknown VAD backend {backend!r}; expected 'energy' or 'silero'")
    total_ms = x.shape[0] * 1000 // sample_rate
    return _postprocess(starts_ms, ends_ms, total_ms, config)


_IntArray = npt.NDArray[np.int64]


def _runs(mask: npt.NDArray[np.bool_]) -> tuple[_IntArray, _IntArray]:
    """Start (inclusive) and end (exclusive) indices of the runs of True."""
    edges = np.diff(mask.astype(np.int8), prepend=np.int8(0), append=np.int8(0))
    starts = np.flatnonzero(edges == 1).astype(np.int64)
    ends = np.flatnonzero(edges == -1).astype(np.int64)
    return starts, ends


def _merge_gaps(starts: _IntArray, ends: _IntArray, min_gap: int) -> tuple[_IntArray, _IntArray]:
    """Merge consecutive (sorted) intervals whose gap is below ``min_gap``."""
    if starts.size < 2:
        return starts, ends
    split = (starts[1:] - ends[:-1]) >= min_gap
    keep_start = np.concatenate(([True], split))
    keep_end = np.concatenate((split, [True]))
    return starts[keep_start], ends[keep_end]


def _postprocess(
    starts_ms: _IntArray, ends_ms: _IntArray, total_ms: int, config: VadConfig
) -> list[Segment]:
    order = np.argsort(starts_ms, kind="stable")
    starts_ms = np.clip(starts_ms[order], 0, total_ms)
    ends_ms = np.clip(ends_ms[order], 0, total_ms)
    # Overlapping input (silero padding) first becomes one interval, then pauses merge.
    ends_ms = np.maximum.accumulate(ends_ms) if ends_ms.size else ends_ms
    starts_ms, ends_ms = _merge_gaps(starts_ms, ends_ms, max(config.min_silence_ms, 1))
    keep = (ends_ms - starts_ms) >= max(config.min_speech_ms, 1)
    starts_ms, ends_ms = starts_ms[keep], ends_ms[keep]
    if config.pad_ms:
        starts_ms = np.maximum(starts_ms - config.pad_ms, 0)
        ends_ms = np.minimum(ends_ms + config.pad_ms, total_ms)
        starts_ms, ends_ms = _merge_gaps(starts_ms, ends_ms, 1)
    return [Segment(int(s), int(e)) for s, e in zip(starts_ms, ends_ms, strict=True)]


def _silero_runs(x: Int16Array, sample_rate: int, config: VadConfig) -> tuple[_IntArray, _IntArray]:
    try:
        from faster_whisper.vad import (  # noqa: PLC0415 (optional, heavy dependency)
            VadOptions,
            get_speech_timestamps,
        )
    except ImportError as exc:
        raise RuntimeError(f"the silero VAD backend needs faster-whisper: {_ASR_HINT}") from exc
    empty = np.zeros(0, dtype=np.int64)
    if x.shape[0] == 0:
        return empty, empty.copy()
    audio = to_float32(resample(x, sample_rate, _SILERO_RATE))
    options = VadOptions(
        min_speech_duration_ms=config.min_speech_ms,
        min_silence_duration_ms=config.min_silence_ms,
        speech_pad_ms=0,
    )
    stamps = get_speech_timestamps(audio, options, sampling_rate=_SILERO_RATE)
    starts = np.array([int(s["start"]) for s in stamps], dtype=np.int64)
    ends = np.array([int(s["end"]) for s in stamps], dtype=np.int64)
    return starts * 1000 // _SILERO_RATE, ends * 1000 // _SILERO_RATE


class StreamingVad:
    """Frame-by-frame speech/silence decision with hangover, for agents' end-of-turn detection.

    A frame is loud when its RMS level is at least ``config.threshold_dbfs``
    (the other config fields are not used). The VAD enters speech after
    ``start_frames`` consecutive loud frames and leaves it once
    ``hangover_ms`` of continuous quiet has accumulated. Frames may have any
    length, including varying ones; an empty frame changes nothing.

    With ``noise_margin_db`` set, a frame must also be that much above the noise
    floor: the lowest level among the frames of the last ``floor_window_ms``
    that were not above the floor themselves (minimum statistics over 100 ms
    blocks, updated as each block completes), so background noise on a phone
    line, even slowly swelling, is not taken for speech while speech never
    raises the floor. Digital silence (below -100 dBFS: a dropped packet, a gap
    in a clip) is not noise and is left out; a window with nothing else holds
    the last floor. The floor starts at -120 dB, so over a clean line the fixed
    threshold decides alone; when a line is noisy from its first frame (or the
    noise jumps by more than the margin), every frame is above the floor, so
    after 4 s of that all frames count (plain minimum statistics) until the
    floor has caught up.
    """

    __slots__ = (
        "_above_samples",
        "_block",
        "_block_samples",
        "_blocks",
        "_buf",
        "_floor",
        "_floor_blocks",
        "_hangover_scaled",
        "_loud_run",
        "_loud_samples",
        "_power_threshold",
        "_silence_samples",
        "_speaking",
        "_speech_samples",
        "config",
        "hangover_ms",
        "noise_margin_db",
        "sample_rate",
        "start_frames",
    )

    def __init__(
        self,
        config: VadConfig = VadConfig(),
        sample_rate: int = SAMPLE_RATE,
        start_frames: int = 2,
        hangover_ms: int = 300,
        *,
        noise_margin_db: float | None = None,
        floor_window_ms: int = 1000,
    ) -> None:
        if sample_rate <= 0:
            raise ValueError(f"sample_rate must be positive, got {sample_rate}")
        if start_frames < 1:
            raise ValueError(f"start_frames must be >= 1, got {start_frames}")
        if hangover_ms < 0:
            raise ValueError(f"hangover_ms must be >= 0, got {hangover_ms}")
        self.config = config
        self.sample_rate = sample_rate
        self.start_frames = start_frames
        self.hangover_ms = hangover_ms
        # Loud iff sum of squares (int16 units) >= n * _power_threshold; the level
        # floor of frame_levels applies, so a threshold at or below it accepts all.
        if config.threshold_dbfs <= LEVEL_FLOOR_DBFS:
            self._power_threshold = 0.0
        else:
            self._power_threshold = _FULL_SCALE_SQ * 10.0 ** (config.threshold_dbfs / 10.0)
        self._hangover_scaled = hangover_ms * sample_rate
        self._buf: npt.NDArray[np.float32] = np.empty(0, dtype=np.float32)
        if floor_window_ms < 100:
            raise ValueError(f"floor_window_ms must be >= 100, got {floor_window_ms}")
        self.noise_margin_db = noise_margin_db
        self._floor_blocks = floor_window_ms // 100
        self._blocks: list[float] = []
        self._floor = _FLOOR_POWER * _FULL_SCALE_SQ
        self._above_samples = 0
        self._block = math.inf
        self._block_samples = 0
        self.reset()

    def _above_floor(self, power: float, n: int) -> bool:
        """Track the noise floor (mean power per sample) and test `power` against it."""
        assert self.noise_margin_db is not None
        above = bool(power >= self._floor * 10.0 ** (self.noise_margin_db / 10.0))
        self._above_samples = self._above_samples + n if above else 0
        stuck = self._above_samples * 1000 >= _STUCK_MS * self.sample_rate
        if (stuck or not above) and power >= _SILENT_POWER:
            self._block = min(self._block, power)
        self._block_samples += n
        if self._block_samples * 10 >= self.sample_rate:  # a 100 ms block is complete
            self._blocks = [*self._blocks[1 - self._floor_blocks :], self._block]
            self._block, self._block_samples = math.inf, 0
            known = [b for b in self._blocks if b < math.inf]
            if known:  # else hold: only speech or digital silence in the window
                self._floor = min(known)
        return above

    def reset(self) -> None:
        """Back to the initial state: not speaking, all counters zero."""
        self._speaking = False
        self._loud_run = 0
        self._loud_samples = 0
        self._silence_samples = 0
        self._speech_samples = 0

    def push(self, frame: Int16Array) -> bool:
        """Feed the next frame; True while in speech."""
        n = frame.shape[0]
        if n == 0:
            return self._speaking
        if frame.dtype != np.int16:
            frame = _as_int16(frame)
        buf = self._buf
        if buf.shape[0] != n:
            buf = self._buf = np.empty(n, dtype=np.float32)
        buf[...] = frame
        energy = float(np.dot(buf, buf))
        loud = energy >= n * self._power_threshold
        if self.noise_margin_db is not None:
            loud = self._above_floor(energy / n, n) and loud
        if loud:
            self._silence_samples = 0
            if self._speaking:
                self._speech_samples += n
            else:
                self._loud_run += 1
                self._loud_samples += n
                if self._loud_run >= self.start_frames:
                    self._speaking = True
                    self._speech_samples = self._loud_samples
                    self._loud_run = 0
                    self._loud_samples = 0
        else:
            self._silence_samples += n
            self._loud_run = 0
            self._loud_samples = 0
            if self._speaking:
                if self._silence_samples * 1000 >= self._hangover_scaled:
                    self._speaking = False
                    self._speech_samples = 0
                else:
                    self._speech_samples += n
        return self._speaking

    @property
    def speaking(self) -> bool:
        return self._speaking

    @property
    def silence_ms(self) -> int:
        """Milliseconds of continuous quiet since the last loud frame (0 while loud)."""
        return self._silence_samples * 1000 // self.sample_rate

    @property
    def speech_ms(self) -> int:
        """Milliseconds since the current speech run began (its first loud frame); 0 if silent."""
        return self._speech_samples * 1000 // self.sample_rate
