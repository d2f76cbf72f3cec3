"""Pitch for neural engines without a pitch control: render slower, play it faster.

To shift a voice by ``s`` semitones (``k = 2 ** (s / 12)``), the engine renders
the text ``k`` times longer than at ``speed`` and the result is resampled as if
it had been recorded ``k`` times faster (soxr, high quality): the duration is
back to that of ``speed`` and every frequency, F0 and formants alike, is
multiplied by ``k``. Moving the formants with F0 is what a tape played faster
does; a few semitones sound like another speaker, more sound processed, so the
engines that use it allow at most :data:`RESAMPLED_PITCH_LIMIT` semitones
(``check_pitch`` in :mod:`duplexbench.speech._engines`).

The first try renders at ``speed / k``. hibari's length does not follow
``1 / speed`` near 1 (each phoneme lasts whole 12.5 ms frames, so many keep
their length): on 14 suite lines at ±1..3 semitones, its clips at ``speed / k``
missed the length of the clip at ``speed`` by 4.3% on average, at most 10%.
So the length is checked against ``k`` times the length at ``speed`` and, when
it misses by more than :data:`LENGTH_TOLERANCE`, the speed is corrected by
secant steps on log length over log speed, at most :data:`MAX_RENDERS` slow
renders, keeping the closest: the same lines then missed by 1.2% on average, at
most 5% (at ±3), for about two slow renders a clip besides the one at ``speed``.

The resampling always moves the render's pitch by exactly ``k``; every render
is deterministic, so is the result. The voice's own F0 may differ between
speeds: hibari speaks a little lower when slower (at speed 0.8 its median F0 is
0.7 semitone lower), so +3 semitones moved its median F0 by +2.3 and -3 by
-3.3 (tests/speech/test_pitch_shift.py).

At 0 semitones nothing is resampled: the samples are those of the engine at
``speed``, byte for byte, from one render.
"""

from __future__ import annotations

import math
from collections.abc import Callable

import numpy as np
import numpy.typing as npt
import soxr

__all__ = [
    "LENGTH_TOLERANCE",
    "MAX_RENDERS",
    "RESAMPLED_PITCH_LIMIT",
    "pitch_factor",
    "play_faster",
    "render_at_pitch",
]

FloatArray = npt.NDArray[np.float32]

RESAMPLED_PITCH_LIMIT = 3.0
"""The largest shift, in semitones, rendered by resampling (the formants move by
as much as F0: about 19% at 3 semitones)."""
LENGTH_TOLERANCE = 0.01
"""A slow render within 1% of its target length is taken as it is."""
MAX_RENDERS = 4
"""Renders at most, besides the one at ``speed`` that sets the target length."""


def pitch_factor(semitones: float) -> float:
    """The frequency ratio of a shift in semitones."""
    return float(2.0 ** (semitones / 12.0))


def play_faster(samples: FloatArray, factor: float, rate: int) -> FloatArray:
    """`samples` (at `rate`) played `factor` times faster, still at `rate`: about
    ``len / factor`` samples, every frequency times `factor`."""
    if factor <= 0.0:
        raise ValueError(f"pitch factor must be positive, got {factor!r}")
    mono = np.ascontiguousarray(samples, dtype=np.float32).reshape(-1)
    if mono.size == 0:
        return mono
    out = soxr.resample(mono, rate * factor, rate, quality="HQ")
    return np.asarray(out, dtype=np.float32)


def render_at_pitch(
    render: Callable[[float], FloatArray], speed: float, semitones: float, rate: int
) -> FloatArray:
    """`render(speed)` shifted by `semitones`: a render about ``k`` times as long
    (:func:`slow_render`), played ``k`` times faster. At 0 it is
    ``render(speed)`` itself, untouched."""
    if semitones == 0.0:
        return render(speed)
    factor = pitch_factor(semitones)
    target = factor * np.asarray(render(speed)).size
    return play_faster(slow_render(render, speed, factor, target), factor, rate)


def slow_render(
    render: Callable[[float], FloatArray], speed: float, factor: float, target: float
) -> FloatArray:
    """The render, at ``speed / factor`` or a corrected speed, whose length is
    closest to `target` samples (see the module docstring)."""
    best = render(speed / factor)
    if best.size == 0 or target <= 0:
        return best
    goal = math.log(target)
    tried = [  # (log speed, log length): the one at speed, the first slow one
        (math.log(speed), goal - math.log(factor)),
        (math.log(speed / factor), math.log(best.size)),
    ]
    for _ in range(MAX_RENDERS - 1):
        if abs(math.log(best.size) - goal) <= math.log1p(LENGTH_TOLERANCE):
            break
        step = _next_step(tried, goal)
        audio = render(math.exp(step))
        if audio.size == 0:
            break
        tried.append((step, math.log(audio.size)))
        if abs(math.log(audio.size) - goal) < abs(math.log(best.size) - goal):
            best = audio
    return best


def _next_step(tried: list[tuple[float, float]], goal: float) -> float:
    """The log speed at which the log length should reach `goal`: between the
    closest tries on either side of it if there are such, else along the last
    two; a flat pair (a length that did not move) steps as if length were
    ``1 / speed``."""
    above = [t for t in tried if t[1] > goal]
    below = [t for t in tried if t[1] < goal]
    if above and below:
        (s0, l0), (s1, l1) = min(above, key=lambda t: t[1]), max(below, key=lambda t: t[1])
    else:
        (s0, l0), (s1, l1) = tried[-2], tried[-1]
    if l0 == l1:
        return s1 + (l1 - goal)
    return s1 + (goal - l1) * (s1 - s0) / (l1 - l0)
