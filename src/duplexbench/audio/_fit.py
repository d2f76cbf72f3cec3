"""Fit speech clips to a time slot: trim silence, match a target duration.

:func:`trim_silence` cuts leading and trailing quiet. The signal is split into
``frame_ms`` frames exactly as :func:`duplexbench.audio._vad.frame_levels` does
(frame ``i`` covers samples ``[i * L, (i + 1) * L)``, ``L = 16000 * frame_ms //
1000``, a last partial frame included); a frame is loud when its RMS level is
at least ``threshold_dbfs`` (full-scale square wave = 0 dBFS). The result is
the samples from the start of the first loud frame to the end of the last one
(quiet frames in between are kept); with no loud frame it is empty.

:func:`fit_duration` makes a clip exactly ``target_samples`` long:

``"exact"``
    If the length differs from the target by at most ``tolerance_samples``,
    zeros are appended or the end is cut; otherwise :class:`DurationMismatch`.
``"stretch"``
    Linear-interpolation resampling: output sample ``i`` is the input
    interpolated at position ``i * len / target`` (positions past the last
    sample take its value). Like playing a tape faster or slower, this scales
    every frequency -- the pitch -- by ``len / target``. Allowed for
    ``target / len`` in [0.5, 2.0], otherwise :class:`DurationMismatch`;
    ``tolerance_samples`` is not used.

:func:`cap_pauses` shortens long quiet stretches inside a clip (the speech kit lent to
local agents: a TTS that pauses longer between sentences than a caller waits for its
turn would be talked over at every sentence break).

All are deterministic and work on mono int16 at 16 kHz.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from typing import Literal

import numpy as np
import numpy.typing as npt

from duplexbench.audio._pcm import SAMPLE_RATE, Int16Array, to_int16
from duplexbench.audio._vad import frame_levels

__all__ = [
    "MAX_STRETCH",
    "MIN_STRETCH",
    "DurationMismatch",
    "FitMode",
    "cap_pauses",
    "fit_duration",
    "spoken_pieces",
    "trim_silence",
]

FitMode = Literal["exact", "stretch"]
MIN_STRETCH = 0.5
"""Smallest allowed ``target / len`` in ``"stretch"`` mode."""
MAX_STRETCH = 2.0
"""Largest allowed ``target / len`` in ``"stretch"`` mode."""


class DurationMismatch(ValueError):
    """A clip cannot be fitted to the target duration."""


def _mono_int16(samples: npt.ArrayLike) -> Int16Array:
    arr = np.asarray(samples)
    if arr.ndim != 1:
        raise ValueError(f"expected mono 1-D samples, got shape {arr.shape}")
    return to_int16(arr)


def _ms(n: int) -> str:
    return f"{n * 1000 / SAMPLE_RATE:.1f} ms"


def trim_silence(
    samples: Int16Array, threshold_dbfs: float = -50.0, frame_ms: int = 10
) -> Int16Array:
    """Drop leading and trailing frames quieter than ``threshold_dbfs`` (a new array)."""
    x = _mono_int16(samples)
    levels = frame_levels(x, SAMPLE_RATE, frame_ms)
    loud = np.flatnonzero(levels >= threshold_dbfs)
    if loud.size == 0:
        return np.zeros(0, dtype=np.int16)
    flen = max(1, SAMPLE_RATE * frame_ms // 1000)
    start = int(loud[0]) * flen
    end = min((int(loud[-1]) + 1) * flen, x.shape[0])
    return x[start:end].copy()


def cap_pauses(
    samples: Int16Array,
    max_ms: int,
    threshold_dbfs: float = -50.0,
    frame_ms: int = 10,
    *,
    lead_ms: int | None = None,
    trail_ms: int | None = None,
) -> Int16Array:
    """Every quiet stretch between the first and the last loud frame (frames as in
    :func:`trim_silence`) longer than ``max_ms`` is cut to ``max_ms`` from its middle;
    the leading and trailing quiet are cut to ``lead_ms`` and ``trail_ms`` (None: kept)
    next to the speech. The input itself when nothing is cut; all quiet: kept."""
    x = _mono_int16(samples)
    loud = frame_levels(x, SAMPLE_RATE, frame_ms) >= threshold_dbfs
    if not loud.any():
        return x
    flen = max(1, SAMPLE_RATE * frame_ms // 1000)
    keep = max(0, max_ms // frame_ms)
    changes = (np.flatnonzero(np.diff(loud.astype(np.int8))) + 1).tolist()
    bounds = [0, *changes, loud.size]
    cuts: list[tuple[int, int]] = []
    if lead_ms is not None and not loud[0] and bounds[1] > lead_ms // frame_ms:
        cuts.append((0, (bounds[1] - lead_ms // frame_ms) * flen))
    for start, end in itertools.pairwise(bounds[1:-1]):  # inner runs only
        if not loud[start] and end - start > keep:  # a quiet stretch between loud frames
            head = start + keep // 2
            cuts.append((head * flen, (end - (keep - keep // 2)) * flen))
    last = bounds[-2]
    if trail_ms is not None and not loud[-1] and loud.size - last > trail_ms // frame_ms:
        cuts.append(((last + trail_ms // frame_ms) * flen, x.shape[0]))
    if not cuts:
        return x
    parts, at = [], 0
    for cut_start, cut_end in cuts:
        parts.append(x[at:cut_start])
        at = cut_end
    parts.append(x[at:])
    return np.concatenate(parts)


def spoken_pieces(pieces: Sequence[Int16Array], gap_ms: int) -> Int16Array:
    """Clips said one after another with `gap_ms` of silence between them, each with its
    own leading and trailing quiet kept: a spelled value, one clip per piece. Measured
    (benchmarks/spelling.py, docs/audio.md): cutting the clips' own quiet first made
    whisper read fewer letters right (0.87 against 0.96 for piper, 0.83 against 0.98 for
    hibari, clean), so the pauses stay as the voices make them (about 0.55 s between two
    piper letters, 0.8 s between two hibari ones, with a 250 ms gap)."""
    gap = np.zeros(SAMPLE_RATE * gap_ms // 1000, dtype=np.int16)
    parts: list[Int16Array] = []
    for piece in pieces:
        if piece.size:
            parts += [gap, piece] if parts else [piece]
    return np.concatenate(parts) if parts else np.zeros(0, dtype=np.int16)


def _fit_exact(x: Int16Array, target: int, tolerance: int) -> Int16Array:
    n = x.shape[0]
    if abs(n - target) > tolerance:
        raise DurationMismatch(
            f"clip is {_ms(n)} but the target is {_ms(target)} (tolerance {_ms(tolerance)})"
        )
    if n >= target:
        return x[:target].copy()
    out = np.zeros(target, dtype=np.int16)
    out[:n] = x
    return out


def _fit_stretch(x: Int16Array, target: int) -> Int16Array:
    n = x.shape[0]
    if n == target:
        return x.copy()
    if n == 0 or not MIN_STRETCH <= target / n <= MAX_STRETCH:
        raise DurationMismatch(
            f"clip is {_ms(n)} but the target is {_ms(target)}: stretch ratio outside "
            f"[{MIN_STRETCH}, {MAX_STRETCH}]"
        )
    positions = np.arange(target, dtype=np.float64) * (n / target)
    values = np.interp(positions, np.arange(n, dtype=np.float64), x.astype(np.float64))
    return to_int16(np.rint(values).astype(np.int64))


def fit_duration(
    samples: Int16Array, target_samples: int, mode: FitMode, tolerance_samples: int
) -> Int16Array:
    """A new array exactly ``target_samples`` long, or :class:`DurationMismatch`."""
    if target_samples < 0:
        raise ValueError(f"target_samples must be >= 0, got {target_samples}")
    if tolerance_samples < 0:
        raise ValueError(f"tolerance_samples must be >= 0, got {tolerance_samples}")
    x = _mono_int16(samples)
    if mode == "exact":
        return _fit_exact(x, target_samples, tolerance_samples)
    if mode == "stretch":
        return _fit_stretch(x, target_samples)
    raise ValueError(f"unknown fit mode {mode!r}; expected 'exact' or 'stretch'")
