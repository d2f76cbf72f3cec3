"""Renderings of speech that is not addressed to the agent (DuplexAct roles).

The DuplexAct benchmark design mixes three kinds of speech into the agent's
input channel; this module renders them from a clean mono int16 clip at
16 kHz. The parameters are exactly those of the DuplexAct design:

``user`` (speech addressed to the agent)
    Unchanged.
``other`` (other-directed speech: the user turns to talk to someone else,
same voice) -- :func:`off_axis`
    Overall gain -8 dB; a high-shelf cut of -5 dB above 4 kHz (RBJ cookbook
    high shelf, midpoint 4 kHz, slope S = 1: -0.01 dB at 1 kHz, -2.5 dB at
    4 kHz, -4.85 dB at 6 kHz, -5 dB at Nyquist); early reflections at 45 ms /
    -6 dB and 120 ms / -12 dB. Output length = input length + 120 ms.
``background`` (speech of a distant third party) -- :func:`distant`
    Gain -15 dB; a 3 kHz low-pass, 2nd-order Butterworth (RBJ cookbook,
    Q = 1/sqrt(2), bilinear transform: -3 dB at 3 kHz, -0.03 dB at 1 kHz,
    -22 dB at 6 kHz, a zero at Nyquist); an echo at 100 ms / -10 dB. Output
    length = input length + 100 ms.

Signal flow of a rendering: ``p = gain * filter(x)`` (``x`` zero-padded by the
tail), then ``y[t] = p[t] + sum(g_r * p[t - d_r])`` over the reflections, so a
reflection is a delayed, attenuated copy of the processed direct path; the
result is rounded and clipped to the int16 range (no NaNs: the input is
sanitized by :func:`~duplexbench.audio._pcm.to_int16`). Everything is
deterministic.

The filters are biquads (2nd-order IIR). Without scipy they are applied as
their impulse response, truncated once the pole envelope ``r ** n`` has
fallen to 1e-24 (about 70 taps here, pole radius < 0.5), by convolution:
identical to the recursive filter to double precision and loop-free over the
signal (10 s of audio renders in a few milliseconds).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Literal

import numpy as np
import numpy.typing as npt

from duplexbench.audio._pcm import SAMPLE_RATE, Int16Array, samples_for_ms, to_int16

__all__ = [
    "DISTANT",
    "OFF_AXIS",
    "Biquad",
    "Reflection",
    "Rendering",
    "Role",
    "apply_biquad",
    "butterworth_lowpass",
    "distant",
    "high_shelf",
    "off_axis",
    "render",
    "render_role",
]

Role = Literal["user", "other", "background"]
_FloatArray = npt.NDArray[np.float64]
_MAX_TAPS = 1 << 16
_FFT_ABOVE_TAPS = 256


@dataclass(frozen=True)
class Biquad:
    """Normalized 2nd-order IIR (``a0 = 1``).

    ``y[n] = b0 x[n] + b1 x[n-1] + b2 x[n-2] - a1 y[n-1] - a2 y[n-2]``
    """

    b0: float
    b1: float
    b2: float
    a1: float
    a2: float

    def response_db(self, freq_hz: float, rate: int = SAMPLE_RATE) -> float:
        """Magnitude response in dB at ``freq_hz``."""
        z1 = complex(np.exp(-2j * math.pi * freq_hz / rate))
        num = self.b0 + self.b1 * z1 + self.b2 * z1 * z1
        den = 1.0 + self.a1 * z1 + self.a2 * z1 * z1
        return 20.0 * math.log10(max(abs(num / den), 1e-300))


@dataclass(frozen=True)
class Reflection:
    """A delayed copy of the processed direct path."""

    delay_ms: int
    gain_db: float


@dataclass(frozen=True)
class Rendering:
    """Gain, filter and reflections of one rendering; the tail is the longest delay."""

    gain_db: float
    biquad: Biquad
    reflections: tuple[Reflection, ...]

    @property
    def tail_ms(self) -> int:
        return max((r.delay_ms for r in self.reflections), default=0)


def _normalize(b: tuple[float, float, float], a: tuple[float, float, float]) -> Biquad:
    a0 = a[0]
    return Biquad(b[0] / a0, b[1] / a0, b[2] / a0, a[1] / a0, a[2] / a0)


def _check_freq(freq_hz: float, rate: int) -> float:
    if rate <= 0 or not 0.0 < freq_hz < rate / 2:
        raise ValueError(f"corner {freq_hz} Hz must lie strictly between 0 and {rate / 2} Hz")
    return 2.0 * math.pi * freq_hz / rate


def high_shelf(
    freq_hz: float, gain_db: float, slope: float = 1.0, rate: int = SAMPLE_RATE
) -> Biquad:
    """RBJ Audio-EQ-Cookbook high shelf: ``gain_db`` above ``freq_hz`` (the midpoint)."""
    w0 = _check_freq(freq_hz, rate)
    if slope <= 0:
        raise ValueError(f"slope must be positive, got {slope}")
    amp = 10.0 ** (gain_db / 40.0)
    cos_w, sq = math.cos(w0), 2.0 * math.sqrt(amp)
    alpha = math.sin(w0) / 2.0 * math.sqrt((amp + 1.0 / amp) * (1.0 / slope - 1.0) + 2.0)
    b = (
        amp * ((amp + 1) + (amp - 1) * cos_w + sq * alpha),
        -2 * amp * ((amp - 1) + (amp + 1) * cos_w),
        amp * ((amp + 1) + (amp - 1) * cos_w - sq * alpha),
    )
    a = (
        (amp + 1) - (amp - 1) * cos_w + sq * alpha,
        2 * ((amp - 1) - (amp + 1) * cos_w),
        (amp + 1) - (amp - 1) * cos_w - sq * alpha,
    )
    return _normalize(b, a)


def butterworth_lowpass(freq_hz: float, rate: int = SAMPLE_RATE) -> Biquad:
    """2nd-order Butterworth low-pass (RBJ cookbook, Q = 1/sqrt(2)): -3 dB at ``freq_hz``."""
    w0 = _check_freq(freq_hz, rate)
    cos_w = math.cos(w0)
    alpha = math.sin(w0) / (2.0 * (1.0 / math.sqrt(2.0)))
    b = ((1 - cos_w) / 2, 1 - cos_w, (1 - cos_w) / 2)
    a = (1 + alpha, -2 * cos_w, 1 - alpha)
    return _normalize(b, a)


def _impulse_response(bq: Biquad) -> _FloatArray:
    """Impulse response, truncated where the pole envelope ``r**n`` is below 1e-24."""
    radius = float(np.max(np.abs(np.roots([1.0, bq.a1, bq.a2]))))
    if radius >= 1.0:
        raise ValueError(f"unstable biquad (pole radius {radius:.6f})")
    taps = 3 if radius < 1e-12 else 3 + math.ceil(-24.0 / math.log10(radius))
    if taps > _MAX_TAPS:
        raise ValueError(f"pole radius {radius:.6f} is too close to 1 for {_MAX_TAPS} taps")
    feedforward = (bq.b0, bq.b1, bq.b2)
    h = np.zeros(taps, dtype=np.float64)
    y1 = y2 = 0.0
    for n in range(taps):  # the recursion driven by a unit impulse (a few dozen steps)
        y0 = (feedforward[n] if n < 3 else 0.0) - bq.a1 * y1 - bq.a2 * y2
        h[n] = y0
        y1, y2 = y0, y1
    return h


def apply_biquad(x: npt.ArrayLike, bq: Biquad) -> _FloatArray:
    """Filter ``x`` (zero initial state) as float64; same length as ``x``."""
    sig = np.asarray(x, dtype=np.float64)
    n = sig.shape[0]
    if n == 0:
        return np.zeros(0, dtype=np.float64)
    h = _impulse_response(bq)
    if h.shape[0] <= _FFT_ABOVE_TAPS:
        out: _FloatArray = np.convolve(sig, h)[:n]
        return out
    size = 1 << (n + h.shape[0] - 1).bit_length()
    spec = np.fft.rfft(sig, size) * np.fft.rfft(h, size)
    fft_out: _FloatArray = np.fft.irfft(spec, size)[:n]
    return fft_out


def _db(gain_db: float) -> float:
    return float(10.0 ** (gain_db / 20.0))


def _mono_int16(samples: npt.ArrayLike) -> Int16Array:
    arr = np.asarray(samples)
    if arr.ndim != 1:
        raise ValueError(f"expected mono 1-D samples, got shape {arr.shape}")
    return to_int16(arr)


def render(samples: npt.ArrayLike, rendering: Rendering, rate: int = SAMPLE_RATE) -> Int16Array:
    """Apply ``rendering``; output length = input length + ``rendering.tail_ms``."""
    x = _mono_int16(samples)
    total = x.shape[0] + samples_for_ms(rendering.tail_ms, rate)
    padded = np.zeros(total, dtype=np.float64)
    padded[: x.shape[0]] = x
    direct = _db(rendering.gain_db) * apply_biquad(padded, rendering.biquad)
    out = direct.copy()
    for refl in rendering.reflections:
        delay = samples_for_ms(refl.delay_ms, rate)
        if delay < total:
            out[delay:] += _db(refl.gain_db) * direct[: total - delay]
    return to_int16(np.rint(out).astype(np.int64))


OFF_AXIS = Rendering(
    gain_db=-8.0,
    biquad=high_shelf(4000.0, -5.0),
    reflections=(Reflection(45, -6.0), Reflection(120, -12.0)),
)
"""Other-directed speech (DuplexAct): -8 dB, -5 dB shelf above 4 kHz, 45/120 ms reflections."""

DISTANT = Rendering(
    gain_db=-15.0,
    biquad=butterworth_lowpass(3000.0),
    reflections=(Reflection(100, -10.0),),
)
"""Distant background speech (DuplexAct): -15 dB, 3 kHz Butterworth low-pass, 100 ms echo."""


def off_axis(samples: Int16Array) -> Int16Array:
    """Other-directed speech; output is the input length + 120 ms (reflection tail)."""
    return render(samples, OFF_AXIS)


def distant(samples: Int16Array) -> Int16Array:
    """Distant third-party speech; output is the input length + 100 ms (echo tail)."""
    return render(samples, DISTANT)


def render_role(samples: Int16Array, role: Role) -> Int16Array:
    """Render speech of ``role``.

    ``user``: a copy of the input; ``other``: :func:`off_axis`; ``background``: :func:`distant`.
    """
    if role == "user":
        return _mono_int16(samples).copy()
    if role == "other":
        return off_axis(samples)
    if role == "background":
        return distant(samples)
    raise ValueError(f"unknown role {role!r}; expected 'user', 'other' or 'background'")
