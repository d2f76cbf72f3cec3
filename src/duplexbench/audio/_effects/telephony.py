"""Telephone channel: band-pass, G.711 mu-law at 8 kHz, Gilbert-Elliott frame drops.

:func:`telephone` turns 16 kHz float audio (int16 units) into what a narrow-band
phone line delivers, still at 16 kHz and with the same length:

1. 16 kHz -> 8 kHz with soxr (already a project dependency, used by
   :func:`duplexbench.audio._pcm.resample`; its anti-alias low-pass removes
   everything above 4 kHz by > 100 dB);
2. band-pass 300-3400 Hz at 8 kHz by FFT masking (:func:`band_pass`): unity
   gain inside the band, raised-cosine roll-offs 200-300 Hz and 3400-3600 Hz,
   zero outside; the signal is zero-padded so the (short) filter does not wrap;
3. rounding/clipping to int16 and G.711 mu-law encode + decode
   (:func:`mulaw_encode` / :func:`mulaw_decode`, the segmented 8-bit ITU-T
   G.711 code, bit-exact with the reference ``g711.c``);
4. 8 kHz -> 16 kHz with soxr, cut or zero-padded to the input length.

Band-passing after the down-sampling equals band-passing before it (the band
lies below 4 kHz) and costs half as much.

:func:`gilbert_elliott_mask` draws packet loss on fixed frames from the
two-state Gilbert-Elliott model in its simple Gilbert form: every frame in the
*bad* state is lost, none in the *good* state. With stationary loss ``L`` and
mean burst ``B`` frames, ``P(bad -> good) = 1 / B`` and ``P(good -> bad) =
L / (B (1 - L))``. Runs are drawn as alternating geometric lengths (vectorized),
the first state from the stationary distribution. :func:`drop_frames` zeroes
the lost frames; the length never changes.

:class:`TelephoneStream` is the causal, streaming counterpart of
:func:`telephone` (for :class:`~duplexbench.audio._effects.line.UserLine`): no
look-ahead and no buffering, so sample ``t`` of the output depends only on
input samples ``<= t`` and a chunk comes back at once, with its length. Its
filters are minimum-phase FIRs (:func:`minimum_phase`) with the magnitude
responses of the whole-clip path: an anti-alias low-pass at 16 kHz (flat to
``high + 200`` Hz = 3600 Hz, raised cosine to zero at ``codec_rate - 3600`` =
4400 Hz; 64 taps, aliases into the band below -48 dB) evaluated only on the
samples kept at 8 kHz, the :func:`band_pass` mask at 8 kHz (192 taps =
24 ms; within +-0.3 dB in the band, below -40 dB under 150 Hz and above
3700 Hz), mu-law, zero-stuffing and the low-pass again (gain 2) as the
interpolator. Each output sample is a fixed dot product over past samples,
so cutting the input into chunks differently gives bit-identical output. The
minimum-phase filters delay the band by about 0.5 ms at 1 kHz (group delay;
about 5 ms at the 300 Hz edge), where linear-phase filters of these lengths
would need ~16 ms of look-ahead.
"""

from __future__ import annotations

import math
from functools import lru_cache

import numpy as np
import numpy.typing as npt
import soxr

from duplexbench.audio._pcm import SAMPLE_RATE

__all__ = [
    "CODEC_RATE",
    "TelephoneStream",
    "band_pass",
    "drop_frames",
    "gilbert_elliott_mask",
    "loss_runs",
    "minimum_phase",
    "mulaw_decode",
    "mulaw_encode",
    "telephone",
]

CODEC_RATE = 8_000
_F64 = npt.NDArray[np.float64]
_BoolArray = npt.NDArray[np.bool_]
_BIAS = 0x84
_CLIP = 32635
_ROLL_LOW_HZ = 100.0
_ROLL_HIGH_HZ = 200.0
_PAD_S = 0.05
_DESIGN_SIZE = 1 << 15
_DESIGN_FLOOR = 1e-3  # -60 dB: the stop-band floor of the minimum-phase designs
_LOWPASS_MS = 4.0
_BANDPASS_MS = 24.0


def _build_tables() -> tuple[npt.NDArray[np.uint8], npt.NDArray[np.int16]]:
    """Encode table (indexed by int16 bit pattern) and decode table (by code)."""
    x = np.arange(-32768, 32768, dtype=np.int64)
    sign = np.where(x < 0, 0x80, 0)
    mag = np.minimum(np.abs(x), _CLIP) + _BIAS
    exponent = np.floor(np.log2(mag)).astype(np.int64) - 7
    mantissa = (mag >> (exponent + 3)) & 0x0F
    codes = (~(sign | (exponent << 4) | mantissa)) & 0xFF
    encode = np.empty(65536, dtype=np.uint8)
    encode[x.astype(np.int16).view(np.uint16)] = codes.astype(np.uint8)
    u = (~np.arange(256, dtype=np.int64)) & 0xFF
    magnitude = (((u & 0x0F) << 3) + _BIAS << ((u >> 4) & 0x07)) - _BIAS
    decode = np.where(u & 0x80, -magnitude, magnitude).astype(np.int16)
    return encode, decode


_ENCODE, _DECODE = _build_tables()


def mulaw_encode(samples: npt.ArrayLike) -> npt.NDArray[np.uint8]:
    """G.711 mu-law codes (uint8) of int16 samples."""
    x = np.asarray(samples, dtype=np.int16)
    codes: npt.NDArray[np.uint8] = _ENCODE[x.view(np.uint16)]
    return codes


def mulaw_decode(codes: npt.ArrayLike) -> npt.NDArray[np.int16]:
    """int16 samples of G.711 mu-law codes."""
    out: npt.NDArray[np.int16] = _DECODE[np.asarray(codes, dtype=np.uint8)]
    return out


def _fast_len(n: int) -> int:
    """Smallest 5-smooth integer >= n (an FFT size pocketfft handles quickly)."""
    best = 1 << max(0, (n - 1).bit_length())
    p5 = 1
    while p5 < best:
        p35 = p5
        while p35 < best:
            m = p35
            while m < n:
                m *= 2
            best = min(best, m)
            p35 *= 3
        p5 *= 5
    return best


def _ramp(freqs: _F64, zero_hz: float, one_hz: float) -> _F64:
    """Raised cosine from 0 at ``zero_hz`` to 1 at ``one_hz`` (either order)."""
    u = np.clip((freqs - zero_hz) / (one_hz - zero_hz), 0.0, 1.0)
    ramp: _F64 = 0.5 - 0.5 * np.cos(np.pi * u)
    return ramp


def _band_mask(size: int, rate: int, low_hz: float, high_hz: float) -> _F64:
    """Unity in [low, high], raised-cosine roll-offs outside, zero beyond them."""
    mask = np.zeros(size // 2 + 1, dtype=np.float64)
    hz_per_bin = rate / size
    edges = [low_hz - _ROLL_LOW_HZ, low_hz, high_hz, high_hz + _ROLL_HIGH_HZ]
    a, b, c, d = (min(mask.shape[0], int(np.ceil(f / hz_per_bin))) for f in edges)
    mask[b:c] = 1.0
    mask[a:b] = _ramp(np.arange(a, b, dtype=np.float64) * hz_per_bin, edges[0], low_hz)
    mask[c:d] = _ramp(np.arange(c, d, dtype=np.float64) * hz_per_bin, edges[3], high_hz)
    return mask


def band_pass(x: npt.ArrayLike, rate: int, low_hz: float, high_hz: float) -> _F64:
    """FFT band-pass (see the module docstring); same length as ``x``, float64."""
    sig = np.asarray(x, dtype=np.float64)
    n = sig.shape[0]
    if not (low_hz - _ROLL_LOW_HZ > 0.0 and low_hz < high_hz <= rate / 2 - _ROLL_HIGH_HZ):
        raise ValueError(f"band {low_hz}-{high_hz} Hz does not fit below {rate / 2} Hz")
    if n == 0:
        return np.zeros(0, dtype=np.float64)
    size = _fast_len(n + int(rate * _PAD_S))
    spec = np.fft.rfft(sig, size)
    spec *= _band_mask(size, rate, low_hz, high_hz)
    out: _F64 = np.fft.irfft(spec, size)[:n]
    return out


def _fit_length(x: npt.NDArray[np.float32], n: int) -> _F64:
    out = np.zeros(n, dtype=np.float64)
    m = min(n, x.shape[0])
    out[:m] = x[:m]
    return out


def telephone(
    x: npt.ArrayLike,
    low_hz: float = 300.0,
    high_hz: float = 3400.0,
    codec_rate: int = CODEC_RATE,
    rate: int = SAMPLE_RATE,
) -> _F64:
    """Narrow-band phone line (module docstring); float in int16 units, same length."""
    sig = np.asarray(x, dtype=np.float64)
    n = sig.shape[0]
    if n == 0:
        return np.zeros(0, dtype=np.float64)
    low = soxr.resample((sig / 32768.0).astype(np.float32), rate, codec_rate, quality="HQ")
    narrow = band_pass(low, codec_rate, low_hz, high_hz) * 32768.0
    pcm = np.clip(np.rint(narrow), -32768, 32767).astype(np.int16)
    coded = mulaw_decode(mulaw_encode(pcm)).astype(np.float32) / np.float32(32768.0)
    up = soxr.resample(coded, codec_rate, rate, quality="HQ")
    return _fit_length(np.asarray(up, dtype=np.float32), n) * 32768.0


def gilbert_elliott_mask(
    n_frames: int, loss_rate: float, mean_burst_frames: float, rng: np.random.Generator
) -> _BoolArray:
    """Lost-frame mask (True = lost) of the Gilbert model (module docstring)."""
    if not 0.0 <= loss_rate < 1.0:
        raise ValueError(f"loss_rate must be in [0, 1), got {loss_rate}")
    if mean_burst_frames < 1.0:
        raise ValueError(f"mean burst must be at least one frame, got {mean_burst_frames}")
    if n_frames <= 0 or loss_rate == 0.0:
        return np.zeros(max(0, n_frames), dtype=np.bool_)
    to_good = 1.0 / mean_burst_frames
    to_bad = loss_rate * to_good / (1.0 - loss_rate)
    start_bad = bool(rng.random() < loss_rate)
    runs: list[npt.NDArray[np.int64]] = []
    total = 0
    while total < n_frames:
        cycles = max(16, math.ceil((n_frames - total) * to_bad * 1.2))
        good = rng.geometric(to_bad, cycles)
        bad = rng.geometric(to_good, cycles)
        pair = np.stack([bad, good] if start_bad else [good, bad], axis=1).reshape(-1)
        runs.append(pair)
        total += int(pair.sum())
    lengths = np.concatenate(runs)
    states = np.zeros(lengths.shape[0], dtype=np.bool_)
    states[0 if start_bad else 1 :: 2] = True
    mask: _BoolArray = np.repeat(states, lengths)[:n_frames]
    return mask


def loss_runs(mask: _BoolArray) -> list[tuple[int, int]]:
    """``(first, end)`` frame indices of each run of lost frames (end exclusive)."""
    padded = np.concatenate(([False], mask, [False])).astype(np.int8)
    edges = np.flatnonzero(np.diff(padded))
    return [(int(a), int(b)) for a, b in zip(edges[::2], edges[1::2], strict=True)]


def drop_frames(x: _F64, mask: _BoolArray, frame_len: int) -> _F64:
    """Zero every frame of ``frame_len`` samples whose mask entry is True (in place)."""
    if frame_len <= 0:
        raise ValueError(f"frame_len must be positive, got {frame_len}")
    lost = np.repeat(mask, frame_len)[: x.shape[0]]
    x[: lost.shape[0]][lost] = 0.0
    return x


def minimum_phase(magnitude: npt.ArrayLike, taps: int, taper: float = 0.3) -> _F64:
    """First ``taps`` of the minimum-phase filter with ``magnitude``.

    ``magnitude`` is sampled on the ``rfft`` grid of an even size (DC to
    Nyquist); values are floored at -60 dB. Homomorphic design (real cepstrum
    folded onto positive quefrencies); the last ``taper`` share of the taps is
    faded out with a half Hann window to soften the truncation.
    """
    mag = np.asarray(magnitude, dtype=np.float64)
    size = 2 * (mag.shape[0] - 1)
    cepstrum = np.fft.irfft(np.log(np.maximum(mag, _DESIGN_FLOOR)), size)
    folded = np.zeros(size, dtype=np.float64)
    folded[0], folded[size // 2] = cepstrum[0], cepstrum[size // 2]
    folded[1 : size // 2] = 2.0 * cepstrum[1 : size // 2]
    h: _F64 = np.fft.irfft(np.exp(np.fft.rfft(folded)), size)[:taps].copy()
    fade = int(taps * taper)
    if fade:
        h[taps - fade :] *= 0.5 + 0.5 * np.cos(np.pi * np.arange(1, fade + 1) / fade)
    return h


@lru_cache(maxsize=8)
def _stream_filters(low_hz: float, high_hz: float, codec_rate: int, rate: int) -> tuple[_F64, _F64]:
    """Time-reversed taps (for ``np.correlate``): the low-pass at ``rate``, the band-pass."""
    band_pass(np.zeros(1), codec_rate, low_hz, high_hz)  # validates the band
    flat = high_hz + _ROLL_HIGH_HZ
    zero = max(codec_rate - flat, flat + _ROLL_LOW_HZ)
    freqs = np.arange(_DESIGN_SIZE // 2 + 1, dtype=np.float64) * rate / _DESIGN_SIZE
    lowpass = minimum_phase(_ramp(freqs, zero, flat), round(rate * _LOWPASS_MS / 1000))
    mask = _band_mask(_DESIGN_SIZE, codec_rate, low_hz, high_hz)
    bandpass = minimum_phase(mask, round(codec_rate * _BANDPASS_MS / 1000), 0.5)
    taps = (np.ascontiguousarray(lowpass[::-1]), np.ascontiguousarray(bandpass[::-1]))
    for t in taps:
        t.flags.writeable = False
    return taps


def _run_fir(history: _F64, x: _F64, taps_reversed: _F64) -> tuple[_F64, _F64]:
    """FIR output over ``x`` given the last ``len(taps) - 1`` inputs; the new history."""
    buf = np.concatenate((history, x))
    out: _F64 = np.correlate(buf, taps_reversed, "valid")
    return out, buf[x.shape[0] :]


class TelephoneStream:
    """Causal :func:`telephone` for a stream (module docstring); any chunking, same output."""

    def __init__(
        self,
        low_hz: float = 300.0,
        high_hz: float = 3400.0,
        codec_rate: int = CODEC_RATE,
        rate: int = SAMPLE_RATE,
    ) -> None:
        if codec_rate <= 0 or rate % codec_rate:
            raise ValueError(f"codec rate {codec_rate} must divide the rate {rate}")
        self.factor = rate // codec_rate
        self._lowpass, self._bandpass = _stream_filters(low_hz, high_hz, codec_rate, rate)
        self._interpolator = self._lowpass * float(self.factor)
        self._in = np.zeros(self._lowpass.shape[0] - 1)
        self._mid = np.zeros(self._bandpass.shape[0] - 1)
        self._out = np.zeros(self._lowpass.shape[0] - 1)
        self._n = 0

    def process(self, x: npt.ArrayLike) -> _F64:
        """The next chunk (float, int16 units) through the line; same length."""
        sig = np.asarray(x, dtype=np.float64)
        n = sig.shape[0]
        if n == 0:
            return np.zeros(0, dtype=np.float64)
        first = (-self._n) % self.factor  # first sample of the chunk kept at the codec rate
        self._n += n
        if self.factor == 1:
            return self._codec(sig)
        low, self._in = _run_fir(self._in, sig, self._lowpass)
        stuffed = np.zeros(n, dtype=np.float64)
        stuffed[first :: self.factor] = self._codec(low[first :: self.factor])
        out, self._out = _run_fir(self._out, stuffed, self._interpolator)
        return out

    def _codec(self, low: _F64) -> _F64:
        if low.shape[0] == 0:
            return low
        narrow, self._mid = _run_fir(self._mid, low, self._bandpass)
        pcm = np.clip(np.rint(narrow), -32768, 32767).astype(np.int16)
        return mulaw_decode(mulaw_encode(pcm)).astype(np.float64)
