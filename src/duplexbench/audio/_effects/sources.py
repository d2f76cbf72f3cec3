"""Sound sources for the effects chain: procedural (seeded numpy) or user recordings.

A source has ``make(kind, duration_samples, rng) -> float32 array`` at 16 kHz
in arbitrary units (the chain scales everything to a target SNR). For a
*noise* kind the array is exactly ``duration_samples`` long; for a *burst* kind
it is at most that long (a recording may be shorter than the slot).

Procedural sources (no downloads, deterministic for a given ``rng`` state):

``indoor``
    Pink-ish noise plus mains hum (50 or 60 Hz with harmonics 2, 3, 5).
``outdoor``
    Brown-ish rumble plus traffic swells (band noise ~250-2000 Hz under slow
    bell-shaped envelopes, a car every ~6 s) over a faint pink floor.
``babble``
    Multi-voice babble *approximated*: four band-limited noises in formant-like
    bands, each gated by its own syllable-rate (3-6 Hz) and word-rate envelope.
    It has the spectral and modulation profile of distant chatter but no
    intelligible speech.
Bursts
    ``phone_ring`` (440 + 480 Hz, 0.4 s on / 0.2 s off), ``dog_bark`` (short
    harmonic barks with a falling pitch), ``car_horn`` (soft-square 400 + 500
    Hz), ``engine`` (low harmonic rumble with revs), ``siren`` (wailing swept
    tone), ``door_slam`` (noise transient + thump, exponential decay),
    ``cough`` (noise bursts in formant-ish bands).
Vocal tics (:data:`TIC_KINDS`, also usable as bursts)
    ``cough``; ``sneeze`` (a rising breathy inhale, then an explosive broadband
    "choo" with a short voiced onset); ``sniffle`` (two or three short nasal
    inhales, band noise around 1-5 kHz under smooth envelopes).

Coloured noise is built without IIR filters: one cumulative sum of white
noise gives moving averages of any width in O(n); pink-ish noise is a weighted
sum of moving averages of widths 1, 4, 16, 64, 256 (about -3 dB per octave),
brown-ish of widths 4-160 (about -6 dB per octave down to ~50 Hz).

:class:`RecordingSource` serves WAV recordings from ``folder/<kind>/*.wav``.
All files are read and checked when it is built (so a run never fails half-way):
an unreadable or silent file raises :class:`ValueError` naming the file;
other rates are resampled to 16 kHz (soxr), several channels are averaged.
Kinds without a subfolder fall back to the procedural source.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Protocol

import numpy as np
import numpy.typing as npt

from duplexbench.audio._pcm import SAMPLE_RATE, resample, to_mono
from duplexbench.audio._wav import read_wav

__all__ = [
    "BURST_DURATION_MS",
    "BURST_KINDS",
    "NOISE_KINDS",
    "TIC_KINDS",
    "ProceduralSource",
    "RecordingSource",
    "Source",
    "interpolate_control",
    "make",
]

FloatArray = npt.NDArray[np.float32]
_F64 = npt.NDArray[np.float64]
SR = SAMPLE_RATE
NOISE_KINDS = ("indoor", "outdoor", "babble")
BURST_DURATION_MS: dict[str, int] = {
    "phone_ring": 2000,
    "dog_bark": 1200,
    "car_horn": 700,
    "engine": 3000,
    "siren": 3000,
    "door_slam": 500,
    "cough": 700,
    "sneeze": 900,
    "sniffle": 600,
}
BURST_KINDS = tuple(BURST_DURATION_MS)
TIC_KINDS = ("cough", "sneeze", "sniffle")
_SILENT_RMS = 32768.0 * 10.0 ** (-60.0 / 20.0)  # -60 dBFS
_CONTROL = 160  # samples per envelope control point (10 ms)


class Source(Protocol):
    """Anything that renders a noise or burst kind (see the module docstring)."""

    def make(self, kind: str, duration_samples: int, rng: np.random.Generator) -> FloatArray: ...


def _boxes(white: FloatArray, widths: tuple[int, ...], weights: tuple[float, ...]) -> _F64:
    """``sum(weight * moving_average(white, width))`` from one cumulative sum."""
    n = white.shape[0]
    c = np.zeros(n + 1, dtype=np.float64)
    np.cumsum(white, out=c[1:])
    out = np.zeros(n, dtype=np.float64)
    for width, g in zip(widths, weights, strict=True):
        w = min(width, n)
        out[w - 1 :] += (g / w) * (c[w:] - c[: n - w + 1])
        out[: w - 1] += (g / w) * c[1:w]
    return out


def interpolate_control(control: _F64, step: int, n: int) -> _F64:
    """``n`` samples linearly interpolated between control points ``step`` samples apart."""
    k = -(-n // step)
    pad = np.repeat(control[-1:], max(0, k + 1 - control.shape[0]))
    v = np.concatenate([control[: k + 1], pad])
    frac = np.arange(step, dtype=np.float64) / step
    out: _F64 = (v[:k, None] + (v[1 : k + 1] - v[:k])[:, None] * frac[None, :]).reshape(-1)
    return out[:n]


def _upsample(control: _F64, n: int) -> _F64:
    return interpolate_control(control, _CONTROL, n)


def _bumps(rng: np.random.Generator, n: int, every_s: float, width_s: tuple[float, float]) -> _F64:
    """Control-rate envelope: Gaussian bumps at Poisson times (passing cars)."""
    k = n // _CONTROL + 2
    t = np.arange(k, dtype=np.float64) * _CONTROL / SR
    env = np.full(k, 0.15)
    count = rng.poisson(t[-1] / every_s + 1.0)
    for centre, width in zip(
        rng.uniform(-2.0, t[-1] + 2.0, count), rng.uniform(*width_s, count), strict=True
    ):
        env += np.exp(-0.5 * ((t - centre) / width) ** 2)
    return env


def _indoor(n: int, rng: np.random.Generator) -> _F64:
    white = rng.standard_normal(n, dtype=np.float32)
    pink = _boxes(white, (1, 4, 16, 64, 256), (1.0, 1.0, 2.0, 4.0, 8.0))
    pink /= max(float(np.std(pink)), 1e-12)
    f0 = float(rng.choice([50.0, 60.0]))
    period = SR // 10  # 100 ms holds whole cycles of 50 and 60 Hz: compute once, tile
    phase = (2.0 * np.pi * f0 / SR) * np.arange(period, dtype=np.float64) + rng.uniform(0, 6.3)
    hum = np.sin(phase) + 0.5 * np.sin(2 * phase) + 0.3 * np.sin(3 * phase)
    hum += 0.2 * np.sin(5 * phase)
    pink += np.tile(0.3 * hum, -(-n // period))[:n]
    return pink


def _outdoor(n: int, rng: np.random.Generator) -> _F64:
    white = rng.standard_normal(n, dtype=np.float32)
    rumble = _boxes(white, (4, 16, 64, 160), (1.0, 3.0, 12.0, 30.0))
    rumble /= max(float(np.std(rumble)), 1e-12)
    band = _boxes(white, (4, 32), (1.0, -1.0))
    band /= max(float(np.std(band)), 1e-12)
    swells = _upsample(_bumps(rng, n, 6.0, (0.8, 2.0)), n)
    rumble += 1.2 * swells * band
    return rumble


def _voice_envelope(rng: np.random.Generator, n: int) -> _F64:
    k = n // _CONTROL + 2
    t = np.arange(k, dtype=np.float64) * _CONTROL / SR
    syllables = np.abs(np.sin(np.pi * rng.uniform(3.0, 6.0) * t + rng.uniform(0, 3.1)))
    words = np.repeat(rng.random(k // 40 + 1) < 0.7, 40)[:k]  # 0.4 s word/pause gates
    env: _F64 = syllables**2 * words
    return env


def _babble(n: int, rng: np.random.Generator) -> _F64:
    white = rng.standard_normal(n, dtype=np.float32)
    bands = ((6, 24), (3, 10), (2, 5), (4, 16))  # ~300-1300, ~800-2600, 1.6-4 kHz, ...
    out = np.zeros(n, dtype=np.float64)
    for lo, hi in bands:
        carrier = _boxes(white, (lo, hi), (1.0, -1.0))
        carrier /= max(float(np.std(carrier)), 1e-12)
        out += carrier * _upsample(_voice_envelope(rng, n), n)
    return out


def _fade(x: _F64, ms: float = 10.0) -> _F64:
    m = min(int(SR * ms / 1000), x.shape[0] // 2)
    if m:
        ramp = np.linspace(0.0, 1.0, m)
        x[:m] *= ramp
        x[-m:] *= ramp[::-1]
    return x


def _phone_ring(n: int, rng: np.random.Generator) -> _F64:
    t = np.arange(n, dtype=np.float64) / SR
    tone = np.sin(2 * np.pi * 440.0 * t) + np.sin(2 * np.pi * 480.0 * t)
    cadence = (np.arange(n // _CONTROL + 2) % 60 < 40).astype(np.float64)  # 0.4 s on, 0.2 off
    return _fade(tone * _upsample(cadence, n))


def _dog_bark(n: int, rng: np.random.Generator) -> _F64:
    out = np.zeros(n, dtype=np.float64)
    pos = int(rng.uniform(0.0, 0.05) * SR)
    while pos < n:
        length = min(int(rng.uniform(0.12, 0.2) * SR), n - pos)
        t = np.arange(length, dtype=np.float64) / SR
        f0 = rng.uniform(400.0, 600.0) * (1.0 - 0.3 * t / max(t[-1], 1e-9))
        phase = 2 * np.pi * np.cumsum(f0) / SR
        bark = sum(np.sin(h * phase) / h for h in range(1, 6)) + 0.3 * rng.standard_normal(length)
        out[pos : pos + length] = bark * (1 - np.exp(-t / 0.005)) * np.exp(-t / 0.06)
        pos += length + int(rng.uniform(0.15, 0.3) * SR)
    return out


def _car_horn(n: int, rng: np.random.Generator) -> _F64:
    t = np.arange(n, dtype=np.float64) / SR
    f = rng.uniform(0.95, 1.05)
    tones = np.tanh(4 * np.sin(2 * np.pi * 400.0 * f * t)) + np.tanh(
        4 * np.sin(2 * np.pi * 500.0 * f * t)
    )
    return _fade(tones, 20.0)


def _engine(n: int, rng: np.random.Generator) -> _F64:
    t = np.arange(n, dtype=np.float64) / SR
    rev = rng.uniform(30.0, 45.0) * (1.0 + 0.3 * np.sin(2 * np.pi * t / max(t[-1], 1e-9)))
    phase = 2 * np.pi * np.cumsum(rev) / SR
    out = sum(np.sin(h * phase) * 0.8**h for h in range(1, 9))
    noise = _boxes(rng.standard_normal(n, dtype=np.float32), (8,), (1.0,))
    return _fade(out + 0.5 * noise / max(float(np.std(noise)), 1e-12), 300.0)


def _siren(n: int, rng: np.random.Generator) -> _F64:
    t = np.arange(n, dtype=np.float64) / SR
    freq = 950.0 + 400.0 * np.sin(2 * np.pi * rng.uniform(0.3, 0.6) * t)
    phase = 2 * np.pi * np.cumsum(freq) / SR
    return _fade(np.sin(phase) + 0.3 * np.sin(2 * phase) + 0.1 * np.sin(3 * phase), 50.0)


def _door_slam(n: int, rng: np.random.Generator) -> _F64:
    t = np.arange(n, dtype=np.float64) / SR
    noise = _boxes(rng.standard_normal(n, dtype=np.float32), (3, 12), (1.0, 2.0))
    thump = np.sin(2 * np.pi * rng.uniform(70.0, 110.0) * t) * np.exp(-t / 0.12)
    slam: _F64 = noise / max(float(np.std(noise[:800])), 1e-12) * np.exp(-t / 0.04) + thump
    slam *= 1 - np.exp(-t / 0.001)
    return slam


def _cough(n: int, rng: np.random.Generator) -> _F64:
    white = rng.standard_normal(n, dtype=np.float32)
    body = _boxes(white, (3, 6, 14), (1.0, -0.6, 0.8))  # broad formant-ish hump
    t = np.arange(n, dtype=np.float64) / SR
    env = np.zeros(n, dtype=np.float64)
    for start in (0.0, rng.uniform(0.3, 0.4)):
        s = t - start
        env += np.where(s >= 0, (1 - np.exp(-np.maximum(s, 0) / 0.01)) * np.exp(-s / 0.08), 0.0)
    return body * env


def _sneeze(n: int, rng: np.random.Generator) -> _F64:
    white = rng.standard_normal(n, dtype=np.float32)
    t = np.arange(n, dtype=np.float64) / SR
    onset = float(rng.uniform(0.45, 0.6)) * max(t[-1], 1e-9)  # the "choo" after the inhale
    s = np.maximum(t - onset, 0.0)
    after = t >= onset
    breath = _boxes(white, (4, 24), (1.0, -1.0))
    rise = np.where(after, 0.0, 0.2 * (t / onset) ** 2)
    inhale = breath / max(float(np.std(breath)), 1e-12) * rise
    blast = _boxes(white, (1, 2, 6), (1.0, 0.5, -0.8))
    decay = (1 - np.exp(-s / 0.004)) * np.exp(-s / 0.09)
    choo = blast / max(float(np.std(blast)), 1e-12) * np.where(after, decay, 0.0)
    f0 = rng.uniform(220.0, 320.0) * (1.0 - 0.3 * np.clip(s / 0.2, 0.0, 1.0))
    phase = 2 * np.pi * np.cumsum(f0) / SR
    voice = sum(np.sin(h * phase) / h for h in range(1, 6))
    voice *= np.where(after, np.exp(-s / 0.05), 0.0)
    return inhale + choo + 0.4 * voice


def _sniffle(n: int, rng: np.random.Generator) -> _F64:
    white = rng.standard_normal(n, dtype=np.float32)
    hiss = _boxes(white, (1, 3), (1.0, -1.0))  # ~1-5 kHz nasal hiss
    t = np.arange(n, dtype=np.float64) / SR
    env = np.zeros(n, dtype=np.float64)
    count = int(rng.integers(2, 4))
    starts = np.sort(rng.uniform(0.0, max(t[-1] - 0.15, 0.0), count))
    for start, width in zip(starts, rng.uniform(0.08, 0.15, count), strict=True):
        u = np.clip((t - start) / width, 0.0, 1.0)
        env += np.sin(np.pi * u) ** 2 * rng.uniform(0.6, 1.0)
    return hiss * env


_MAKERS: dict[str, Callable[[int, np.random.Generator], _F64]] = {
    "indoor": _indoor,
    "outdoor": _outdoor,
    "babble": _babble,
    "phone_ring": _phone_ring,
    "dog_bark": _dog_bark,
    "car_horn": _car_horn,
    "engine": _engine,
    "siren": _siren,
    "door_slam": _door_slam,
    "cough": _cough,
    "sneeze": _sneeze,
    "sniffle": _sniffle,
}


def make(kind: str, duration_samples: int, rng: np.random.Generator) -> FloatArray:
    """Procedural ``kind`` of exactly ``duration_samples`` samples (float32)."""
    maker = _MAKERS.get(kind)
    if maker is None:
        raise ValueError(f"unknown sound kind {kind!r}; expected one of {sorted(_MAKERS)}")
    if duration_samples <= 0:
        return np.zeros(0, dtype=np.float32)
    return maker(duration_samples, rng).astype(np.float32)


class ProceduralSource:
    """The procedural sounds of this module as a :class:`Source`."""

    def make(self, kind: str, duration_samples: int, rng: np.random.Generator) -> FloatArray:
        return make(kind, duration_samples, rng)


def _load(path: Path) -> FloatArray:
    try:
        channels, rate = read_wav(path)
    except ValueError as exc:
        raise ValueError(f"{path}: unreadable recording: {exc}") from None
    except OSError as exc:
        raise ValueError(f"{path}: unreadable recording: {exc}") from None
    mono = to_mono(np.stack(channels, axis=1)) if len(channels) > 1 else channels[0]
    pcm = resample(mono, rate, SR)
    x = pcm.astype(np.float32)
    if x.size == 0 or float(np.sqrt(np.mean(x.astype(np.float64) ** 2))) < _SILENT_RMS:
        raise ValueError(f"{path}: silent recording (RMS below -60 dBFS); remove or replace it")
    return x


class RecordingSource:
    """WAV recordings from ``folder/<kind>/*.wav``; see the module docstring."""

    def __init__(self, folder: Path, fallback: Source | None = None) -> None:
        folder = Path(folder)
        if not folder.is_dir():
            raise ValueError(f"{folder}: recordings folder does not exist")
        self.folder = folder
        self.fallback: Source = fallback if fallback is not None else ProceduralSource()
        self.recordings: dict[str, tuple[FloatArray, ...]] = {}
        for sub in sorted(p for p in folder.iterdir() if p.is_dir()):
            files = sorted(p for p in sub.iterdir() if p.suffix.lower() == ".wav")
            if files:
                self.recordings[sub.name] = tuple(_load(f) for f in files)

    def make(self, kind: str, duration_samples: int, rng: np.random.Generator) -> FloatArray:
        clips = self.recordings.get(kind)
        if not clips:
            return self.fallback.make(kind, duration_samples, rng)
        clip = clips[int(rng.integers(len(clips)))]
        if duration_samples <= 0:
            return np.zeros(0, dtype=np.float32)
        if kind in NOISE_KINDS:  # loop from a random offset to fill the slot
            idx = (int(rng.integers(clip.shape[0])) + np.arange(duration_samples)) % clip.shape[0]
            looped: FloatArray = clip[idx]
            return looped
        return _fade(clip[:duration_samples].astype(np.float64), 5.0).astype(np.float32)
