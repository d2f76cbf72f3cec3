"""The user-channel effects chain (tau-Voice "regular" preset) and its timeline.

:func:`apply_effects` degrades clean mono int16 speech at 16 kHz in a fixed
order -- speech effects (dynamic muffling) -> background noise -> bursts ->
telephony -> frame drops -- and returns the degraded audio (same length,
rounded and clipped to int16, never wrapped, no NaN) with an
:class:`EffectEvent` timeline.

Levels. SNRs are relative to the *active speech power* of the clean input:
the mean power of its 20 ms frames that are at most 40 dB below the loudest
frame and above -60 dBFS. A silent input (no such frame) is measured against
a reference level of -26 dBFS (the nominal active speech level of ITU-T
P.56), so noise still has a defined level. A noise or burst is scaled by its
own power: background noise over the whole clip, a burst over its active
frames (within 30 dB of its loudest frame).

Stages (defaults in :class:`EffectsConfig`):

muffle
    Each 500 ms segment is muffled with probability 0.2: a 1500 Hz
    2nd-order Butterworth low-pass (:func:`~duplexbench.audio._spatial.butterworth_lowpass`)
    cross-faded in and out over 5 ms inside the segment; adjacent muffled
    segments form one event.
noise
    One kind per run (indoor or outdoor, drawn from the seed) at 15 dB SNR.
    With drift the SNR follows a random walk (steps N(0, 0.25 dB) every
    100 ms, reflected into 15 +- 3 dB, linear between steps).
bursts
    A Poisson process at 1 per minute; kind uniform over the burst kinds,
    duration the nominal length of the kind +- 20 %, SNR uniform in [-5, 10]
    dB; a burst running past the end is cut.
telephony
    :func:`~duplexbench.audio._effects.telephony.telephone`: 300-3400 Hz and
    G.711 mu-law at 8 kHz, back at 16 kHz.
frame drops
    Gilbert-Elliott losses on 20 ms frames, 2 % loss, 100 ms mean burst;
    lost frames become silence.

Every stage draws from its own random stream (``SeedSequence(seed).spawn``),
so turning one stage off leaves what the others do unchanged. The sources are
pluggable (:class:`~duplexbench.audio._effects.sources.Source`).

:func:`tic_clip` renders one vocal tic (cough, sneeze, sniffle) as int16 at a
given active level (frames within 40 dB of the loudest), for out-of-turn user
sounds. :class:`~duplexbench.audio._effects.line.UserLine` runs this chain as a
stream, frame by frame.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field

import numpy as np
import numpy.typing as npt

from duplexbench.audio._effects.sources import (
    BURST_DURATION_MS,
    BURST_KINDS,
    NOISE_KINDS,
    TIC_KINDS,
    ProceduralSource,
    Source,
    interpolate_control,
    make,
)
from duplexbench.audio._effects.telephony import (
    drop_frames,
    gilbert_elliott_mask,
    loss_runs,
    telephone,
)
from duplexbench.audio._pcm import SAMPLE_RATE, Int16Array
from duplexbench.audio._spatial import apply_biquad, butterworth_lowpass

__all__ = [
    "EffectEvent",
    "EffectsConfig",
    "EffectsResult",
    "apply_effects",
    "schedule_bursts",
    "speech_power",
    "tic_clip",
]

JsonScalar = str | int | float | bool
_F64 = npt.NDArray[np.float64]
SR = SAMPLE_RATE
_FRAME = SR // 50  # 20 ms analysis frames
_FULL_SCALE = 32768.0
_MUFFLE_CONTEXT = 512
_MUFFLE_FADE = SR * 5 // 1000
_SPEECH_FLOOR = (_FULL_SCALE * 10.0 ** (-60.0 / 20.0)) ** 2  # -60 dBFS


@dataclass(frozen=True)
class EffectsConfig:
    """Every parameter of the chain; the defaults are the tau-Voice "regular" preset."""

    muffle: bool = True
    muffle_probability: float = 0.2
    muffle_segment_ms: int = 500
    muffle_cutoff_hz: float = 1500.0
    noise: bool = True
    noise_kinds: tuple[str, ...] = ("indoor", "outdoor")
    noise_snr_db: float = 15.0
    snr_drift_db: float = 3.0
    snr_drift_step_db: float = 0.25
    snr_drift_step_ms: int = 100
    bursts: bool = True
    burst_kinds: tuple[str, ...] = BURST_KINDS[:6]
    bursts_per_minute: float = 1.0
    burst_snr_db: tuple[float, float] = (-5.0, 10.0)
    telephony: bool = True
    band_hz: tuple[float, float] = (300.0, 3400.0)
    codec_rate: int = 8000
    frame_drops: bool = True
    drop_rate: float = 0.02
    drop_burst_ms: int = 100
    drop_frame_ms: int = 20
    reference_dbfs: float = -26.0

    def __post_init__(self) -> None:
        for name in ("muffle_probability", "drop_rate"):
            if not 0.0 <= getattr(self, name) <= (1.0 if name == "muffle_probability" else 0.5):
                raise ValueError(f"{name} out of range: {getattr(self, name)}")
        bad = set(self.noise_kinds) - set(NOISE_KINDS) | set(self.burst_kinds) - set(BURST_KINDS)
        if bad or not self.noise_kinds or not self.burst_kinds:
            raise ValueError(f"unknown or empty sound kinds: {sorted(bad)}")
        if self.burst_snr_db[0] > self.burst_snr_db[1]:
            raise ValueError(f"burst_snr_db must be (low, high), got {self.burst_snr_db}")
        positive = ("muffle_segment_ms", "snr_drift_step_ms", "drop_frame_ms", "codec_rate")
        if min(getattr(self, name) for name in positive) <= 0 or self.bursts_per_minute < 0:
            raise ValueError(f"{', '.join(positive)} must be positive, bursts_per_minute >= 0")
        if self.snr_drift_db < 0 or self.drop_burst_ms < self.drop_frame_ms:
            raise ValueError("snr_drift_db must be >= 0 and drop_burst_ms >= drop_frame_ms")

    def to_dict(self) -> dict[str, object]:
        """JSON-safe parameters (tuples as lists)."""
        return asdict(self)


@dataclass(frozen=True)
class EffectEvent:
    """One effect on the timeline; ``end_ms`` is exclusive, params are JSON scalars."""

    type: str
    start_ms: int
    end_ms: int
    params: dict[str, JsonScalar] = field(default_factory=dict)

    def to_dict(self) -> dict[str, object]:
        return {"type": self.type, "start_ms": self.start_ms, "end_ms": self.end_ms} | {
            "params": dict(self.params)
        }


@dataclass(frozen=True)
class EffectsResult:
    """The degraded audio (same length as the input) and what was done to it, by start."""

    degraded: Int16Array
    timeline: tuple[EffectEvent, ...]


def _event(type_: str, start: int, end: int, **params: JsonScalar) -> EffectEvent:
    """An event over samples ``[start, end)``, in whole ms (start down, end up)."""
    return EffectEvent(type_, start * 1000 // SR, -(-end * 1000 // SR), params)


def _frame_powers(x: _F64) -> _F64:
    n_full = x.shape[0] // _FRAME
    if n_full == 0:
        return np.array([float(np.mean(x * x))]) if x.size else np.zeros(0)
    frames = x[: n_full * _FRAME].reshape(n_full, _FRAME)
    powers: _F64 = np.einsum("ij,ij->i", frames, frames) / _FRAME
    return powers


def _active_mean(powers: _F64, range_db: float, floor_power: float) -> float:
    """Mean of the frame powers within ``range_db`` of the loudest and above ``floor_power``."""
    if powers.size == 0:
        return 0.0
    active = powers[(powers >= powers.max() * 10.0 ** (-range_db / 10.0)) & (powers > floor_power)]
    return float(active.mean()) if active.size else 0.0


def _active_power(x: _F64, range_db: float, floor_power: float) -> float:
    """Mean power of frames within ``range_db`` of the loudest and above ``floor_power``."""
    return _active_mean(_frame_powers(x), range_db, floor_power)


def speech_power(clean: Int16Array, reference_dbfs: float = -26.0) -> float:
    """Active speech power in int16 units squared (module docstring)."""
    power = _active_power(np.asarray(clean, dtype=np.float64), 40.0, _SPEECH_FLOOR)
    return power if power > 0 else (_FULL_SCALE * 10.0 ** (reference_dbfs / 20.0)) ** 2


def tic_clip(kind: str, rng: np.random.Generator, level_dbfs: float = -26.0) -> Int16Array:
    """One procedural vocal tic of ``kind`` (``TIC_KINDS``) at active level ``level_dbfs``.

    The length is the nominal duration of the kind +- 20 %; int16 at 16 kHz,
    clipped (never wrapped) if a loud level pushes peaks past full scale.
    """
    if kind not in TIC_KINDS:
        raise ValueError(f"unknown tic kind {kind!r}; expected one of {list(TIC_KINDS)}")
    length = int(BURST_DURATION_MS[kind] * rng.uniform(0.8, 1.2) * SR / 1000)
    clip = make(kind, length, rng).astype(np.float64)
    target = (_FULL_SCALE * 10.0 ** (level_dbfs / 20.0)) ** 2
    scaled = clip
    for floor_power in (0.0, *[_SPEECH_FLOOR] * 3):  # then settle speech_power's floor
        power = _active_power(scaled, 40.0, floor_power)
        scaled = scaled * np.sqrt(target / power) if power > 0 else scaled
    return np.clip(np.rint(scaled), -32768, 32767).astype(np.int16)


def schedule_bursts(n_samples: int, per_minute: float, rng: np.random.Generator) -> list[int]:
    """Onsets (samples) of a Poisson process with ``per_minute`` events per minute."""
    if per_minute <= 0 or n_samples <= 0:
        return []
    mean_gap = 60.0 * SR / per_minute
    onsets: list[int] = []
    t = rng.exponential(mean_gap)
    while t < n_samples:
        onsets.append(int(t))
        t += rng.exponential(mean_gap)
    return onsets


def _muffle(y: _F64, cfg: EffectsConfig, rng: np.random.Generator) -> list[EffectEvent]:
    seg = SR * cfg.muffle_segment_ms // 1000
    chosen = rng.random(-(-y.shape[0] // seg)) < cfg.muffle_probability
    lowpass = butterworth_lowpass(cfg.muffle_cutoff_hz)
    events = []
    for first, end in loss_runs(chosen):
        a, b = first * seg, min(end * seg, y.shape[0])
        lead = max(0, a - _MUFFLE_CONTEXT)
        wet = apply_biquad(y[lead:b], lowpass)[a - lead :]
        mix = np.ones(b - a)
        fade = min(_MUFFLE_FADE, (b - a) // 2)
        if fade:
            mix[:fade] = np.linspace(0.0, 1.0, fade)
            mix[b - a - fade :] = np.linspace(1.0, 0.0, fade)
        y[a:b] += mix * (wet - y[a:b])
        events.append(_event("muffle", a, b, cutoff_hz=cfg.muffle_cutoff_hz, segments=end - first))
    return events


def _snr_track(n: int, cfg: EffectsConfig, rng: np.random.Generator) -> _F64:
    """SNR in dB at control points ``snr_drift_step_ms`` apart: the reflected random walk."""
    d = cfg.snr_drift_db
    count = n // (SR * cfg.snr_drift_step_ms // 1000) + 2
    if d == 0:
        return np.full(count, cfg.noise_snr_db)
    walk = rng.uniform(-d, d) + np.cumsum(rng.normal(0.0, cfg.snr_drift_step_db, count))
    return _reflect(walk, cfg)


def _reflect(walk: _F64, cfg: EffectsConfig) -> _F64:
    """A random walk around 0 reflected into ``noise_snr_db +- snr_drift_db``."""
    d = cfg.snr_drift_db
    folded = np.mod(walk + d, 4 * d)
    track: _F64 = cfg.noise_snr_db - d + np.where(folded > 2 * d, 4 * d - folded, folded)
    return track


def _background(
    y: _F64, cfg: EffectsConfig, power: float, rng: np.random.Generator, source: Source
) -> list[EffectEvent]:
    n = y.shape[0]
    kind = str(rng.choice(list(cfg.noise_kinds)))
    noise = source.make(kind, n, rng).astype(np.float64)
    rms = float(np.sqrt(np.mean(noise * noise)))
    if rms == 0.0:
        return []
    snr = _snr_track(n, cfg, rng)
    gain = (np.sqrt(power) / rms) * 10.0 ** (-snr / 20.0)  # per control point
    noise *= interpolate_control(gain, SR * cfg.snr_drift_step_ms // 1000, n)
    y += noise
    lo, hi = round(float(snr.min()), 2), round(float(snr.max()), 2)
    params: dict[str, JsonScalar] = {"kind": kind, "snr_db": cfg.noise_snr_db}
    params |= {"drift_db": cfg.snr_drift_db, "snr_min_db": lo, "snr_max_db": hi}
    return [EffectEvent("background_noise", 0, -(-n * 1000 // SR), params)]


def _bursts(
    y: _F64, cfg: EffectsConfig, power: float, rng: np.random.Generator, source: Source
) -> list[EffectEvent]:
    n = y.shape[0]
    events = []
    for onset in schedule_bursts(n, cfg.bursts_per_minute, rng):
        kind = str(rng.choice(list(cfg.burst_kinds)))
        length = int(BURST_DURATION_MS[kind] * rng.uniform(0.8, 1.2) * SR / 1000)
        clip = source.make(kind, length, rng).astype(np.float64)
        snr = float(rng.uniform(*cfg.burst_snr_db))
        clip_power = _active_power(clip, 30.0, 0.0)
        if clip_power <= 0.0:
            continue
        part = clip[: n - onset] * np.sqrt(power / clip_power * 10.0 ** (-snr / 10.0))
        y[onset : onset + part.shape[0]] += part
        events.append(_event("burst", onset, onset + part.shape[0], kind=kind, snr_db=snr))
    return events


def _drops(y: _F64, cfg: EffectsConfig, rng: np.random.Generator) -> list[EffectEvent]:
    frame = SR * cfg.drop_frame_ms // 1000
    mask = gilbert_elliott_mask(
        -(-y.shape[0] // frame), cfg.drop_rate, cfg.drop_burst_ms / cfg.drop_frame_ms, rng
    )
    drop_frames(y, mask, frame)
    return [
        _event("frame_drop", a * frame, min(b * frame, y.shape[0]), frames=b - a)
        for a, b in loss_runs(mask)
    ]


def apply_effects(
    clean: Int16Array,
    config: EffectsConfig | None = None,
    seed: int = 0,
    source: Source | None = None,
) -> EffectsResult:
    """Degrade ``clean`` (mono int16, 16 kHz) with ``config``; deterministic in ``seed``."""
    cfg = config if config is not None else EffectsConfig()
    x = np.asarray(clean)
    if x.ndim != 1 or x.dtype != np.int16:
        raise ValueError(f"expected mono int16 samples, got {x.dtype} with shape {x.shape}")
    if seed < 0:
        raise ValueError(f"seed must be non-negative, got {seed}")
    src: Source = source if source is not None else ProceduralSource()
    rngs = [np.random.default_rng(s) for s in np.random.SeedSequence(seed).spawn(5)]
    y = x.astype(np.float64)
    power = speech_power(x, cfg.reference_dbfs)
    events: list[EffectEvent] = []
    if y.size and cfg.muffle:
        events += _muffle(y, cfg, rngs[0])
    if y.size and cfg.noise:
        events += _background(y, cfg, power, rngs[1], src)
    if y.size and cfg.bursts:
        events += _bursts(y, cfg, power, rngs[2], src)
    if y.size and cfg.telephony:
        low, high = cfg.band_hz
        y = telephone(y, low, high, cfg.codec_rate)
        events.append(
            _event("telephony", 0, y.shape[0], low_hz=low, high_hz=high, codec="g711_mulaw")
        )
    if y.size and cfg.frame_drops:
        events += _drops(y, cfg, rngs[4])
    degraded = np.clip(np.rint(np.nan_to_num(y)), -32768, 32767).astype(np.int16)
    events.sort(key=lambda e: e.start_ms)
    return EffectsResult(degraded, tuple(events))
