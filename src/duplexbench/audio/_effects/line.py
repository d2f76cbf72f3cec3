"""The user's line as a stream: the effects chain frame by frame (:class:`UserLine`).

The episode loop hands the agent each user frame as soon as it exists and the
user's future audio is unknown, so :class:`UserLine` runs the chain of
:func:`~duplexbench.audio._effects.chain.apply_effects` causally: ``process``
takes the next clean mono int16 frame (any length, 0 included) and returns
the degraded frame of the same length at once. Same stage order, same
:class:`~duplexbench.audio._effects.chain.EffectsConfig`, same event types and
parameters; every stage carries its state across frames:

muffle
    One decision per 500 ms segment on the absolute grid, drawn one segment
    ahead (a run's last segment knows to fade out), from the same stream as
    the whole-clip chain (same segments for a seed); the low-pass runs as its
    truncated impulse response over the input history. Fades: ``min(5 ms,
    segment / 2)``.
noise
    The kind as in the whole-clip chain (same kind for a seed); the noise in
    30 s blocks from the source, each at unit power over its own samples, with
    a 50 ms equal-power crossfade into the next; the SNR walk (a child stream)
    carries over. A procedural block costs ~25 ms once per 30 s.
bursts, frame drops
    The Poisson onsets and the Gilbert-Elliott runs (the model of
    :func:`~duplexbench.audio._effects.telephony.gilbert_elliott_mask`, 20 ms
    frames on the absolute grid) are drawn one at a time as the stream
    reaches them; a burst's kind, length, sound and SNR at its onset.
telephony
    :class:`~duplexbench.audio._effects.telephony.TelephoneStream`: the same
    band and G.711 mu-law at 8 kHz through causal minimum-phase filters
    instead of soxr (whose streaming resampler has a long start-up delay).

Reference level. SNRs are relative to the active speech power (the
:func:`~duplexbench.audio._effects.chain.speech_power` definition) pooled over
the 20 ms frames of every clip passed to :meth:`UserLine.note_speech` so far;
before the first clip (or while all are silent), -26 dBFS. A new reference
glides in linearly over 100 ms from the sample where it is noted; a burst
takes the reference at its onset. After the first few clips the reference
settles, so the noise level barely moves at later speech onsets.

Latency. :data:`DELAY_MS` = 0: nothing looks ahead or buffers; output sample
``t`` depends only on input samples ``<= t``. The minimum-phase telephony
filters delay the band by about 0.5 ms at 1 kHz (group delay; an impulse
peaks 9 samples later), where linear-phase ones would take ~16 ms.

Determinism. The output depends only on the config, seed, source, clean
samples and where ``note_speech`` was called, not on the framing: every
decision and draw is tied to absolute sample positions (one stream per stage,
spawned from the seed as in the whole-clip chain) and every filter output is
a fixed dot product over past samples, so 20 ms frames, 40 ms frames or one
call give byte-identical output. Output is rounded and clipped to int16
(never wrapped; no NaN, the sources are sanitized as they are drawn).

Events (:class:`~duplexbench.audio._effects.chain.EffectEvent`, ms from the
line's first sample): muffle runs, bursts and frame drops come from
:meth:`UserLine.drain` once ended; background noise and telephony (the whole
call) and the events still open (clipped to the samples processed) from
:meth:`UserLine.close`.

Cost: one minute of speech-like audio in 20 ms frames, default chain, about
165 ms on one core (``benchmarks/effects.py``, entry ``line``).
"""

from __future__ import annotations

import math

import numpy as np
import numpy.typing as npt

from duplexbench.audio._effects.chain import (
    _FULL_SCALE,
    _MUFFLE_CONTEXT,
    _MUFFLE_FADE,
    _SPEECH_FLOOR,
    EffectEvent,
    EffectsConfig,
    JsonScalar,
    _active_mean,
    _active_power,
    _event,
    _frame_powers,
    _reflect,
)
from duplexbench.audio._effects.sources import BURST_DURATION_MS, ProceduralSource, Source
from duplexbench.audio._effects.telephony import TelephoneStream, _run_fir
from duplexbench.audio._pcm import SAMPLE_RATE, Int16Array
from duplexbench.audio._spatial import apply_biquad, butterworth_lowpass

__all__ = ["DELAY_MS", "UserLine"]

_F64 = npt.NDArray[np.float64]
SR = SAMPLE_RATE
DELAY_MS = 0
_NOISE_BLOCK = 30 * SR
_NOISE_FADE = SR * 50 // 1000
_GLIDE = SR // 10  # a new speech reference glides in over 100 ms
_DECISIONS = 64  # muffle decisions drawn at a time
_CONTROLS = 256  # SNR control points drawn at a time


class _Level:
    """The speech reference as an amplitude (int16 units) over absolute samples."""

    def __init__(self, reference_dbfs: float) -> None:
        self.powers: list[_F64] = []
        self.src = self.dst = float(_FULL_SCALE * 10.0 ** (reference_dbfs / 20.0))
        self.start = 0

    def note(self, clip: _F64, at: int) -> None:
        self.powers.append(_frame_powers(clip))
        power = _active_mean(np.concatenate(self.powers), 40.0, _SPEECH_FLOOR)
        if power > 0:
            self.src, self.dst, self.start = self.at(at), math.sqrt(power), at

    def at(self, t: int) -> float:
        if t >= self.start + _GLIDE:
            return self.dst
        return self.src + (self.dst - self.src) * ((t - self.start) / _GLIDE)

    def over(self, p: int, n: int) -> float | _F64:
        if p >= self.start + _GLIDE:
            return self.dst
        frac = (np.arange(p, p + n) - self.start) / _GLIDE
        amp: _F64 = self.src + (self.dst - self.src) * frac
        amp[frac >= 1.0] = self.dst
        return amp


def _reversed_response(cutoff_hz: float) -> _F64:
    """The muffle low-pass as time-reversed FIR taps (its truncated impulse response)."""
    impulse = np.zeros(_MUFFLE_CONTEXT)
    impulse[0] = 1.0
    h = apply_biquad(impulse, butterworth_lowpass(cutoff_hz))
    h = h[: int(np.flatnonzero(h)[-1]) + 1]
    return np.ascontiguousarray(h[::-1])


class _Muffle:
    def __init__(self, cfg: EffectsConfig, rng: np.random.Generator) -> None:
        self.rng, self.probability, self.cutoff = rng, cfg.muffle_probability, cfg.muffle_cutoff_hz
        self.seg = SR * cfg.muffle_segment_ms // 1000
        self.fade = max(2, min(_MUFFLE_FADE, self.seg // 2))
        self.taps = _reversed_response(cfg.muffle_cutoff_hz)
        self.history = np.zeros(self.taps.shape[0] - 1)
        self.chosen: list[bool] = []
        self.scan, self.run_from = 0, -1  # next segment to scan; first segment of the open run

    def process(self, y: _F64, p: int) -> list[EffectEvent]:
        n, end = y.shape[0], p + y.shape[0]
        first, last = p // self.seg, (end - 1) // self.seg
        while len(self.chosen) <= last + 1:  # one segment ahead
            self.chosen += (self.rng.random(_DECISIONS) < self.probability).tolist()
        if any(self.chosen[first : last + 1]):
            wet, self.history = _run_fir(self.history, y, self.taps)
            y += self._mix(p, end) * (wet - y)
        else:
            self.history = np.concatenate((self.history, y))[n:]
        events = []
        while self.scan < end // self.seg:  # runs whose last segment is complete
            s, self.scan = self.scan, self.scan + 1
            if self.chosen[s] and self.run_from < 0:
                self.run_from = s
            if self.run_from >= 0 and not self.chosen[s + 1]:
                events.append(self._run(self.run_from, s + 1, (s + 1) * self.seg))
                self.run_from = -1
        return events

    def _mix(self, p: int, end: int) -> _F64:
        mix = np.zeros(end - p)
        ramp = self.fade - 1
        for s in range(p // self.seg, (end - 1) // self.seg + 1):
            if not self.chosen[s]:
                continue
            a, b = max(s * self.seg, p), min((s + 1) * self.seg, end)
            pos = np.arange(a - s * self.seg, b - s * self.seg, dtype=np.float64)
            part = np.ones(b - a)
            if s == 0 or not self.chosen[s - 1]:
                part = np.minimum(part, pos / ramp)
            if not self.chosen[s + 1]:
                part = np.minimum(part, (self.seg - 1 - pos) / ramp)
            mix[a - p : b - p] = part
        return mix

    def _run(self, first: int, stop: int, end: int) -> EffectEvent:
        """Segments ``[first, stop)``, ending at sample ``end``."""
        return _event("muffle", first * self.seg, end, cutoff_hz=self.cutoff, segments=stop - first)

    def close(self, n: int) -> list[EffectEvent]:
        """The run still open at sample ``n`` (the last, partial segment included)."""
        last = (n - 1) // self.seg
        if self.scan <= last and self.chosen[self.scan] and self.run_from < 0:
            self.run_from = self.scan
        return [self._run(self.run_from, last + 1, n)] if self.run_from >= 0 else []


class _Noise:
    def __init__(self, cfg: EffectsConfig, seq: np.random.SeedSequence, source: Source) -> None:
        self.cfg, self.source = cfg, source
        self.rng = np.random.default_rng(seq)
        self.walk_rng = np.random.default_rng(seq.spawn(1)[0])
        self.kind = str(self.rng.choice(list(cfg.noise_kinds)))
        self.step = SR * cfg.snr_drift_step_ms // 1000
        self.snr = np.zeros(0)
        self.walk = math.nan
        self.block, self.samples, self.tail = -1, np.zeros(0), np.zeros(_NOISE_FADE)

    def _controls(self, count: int) -> None:
        """Draw SNR control points (dB, ``step`` apart) until there are ``count``."""
        cfg, d = self.cfg, self.cfg.snr_drift_db
        while self.snr.shape[0] < count:
            if d == 0:
                chunk = np.full(_CONTROLS, cfg.noise_snr_db)
            else:
                if math.isnan(self.walk):
                    self.walk = float(self.walk_rng.uniform(-d, d))
                steps = self.walk_rng.normal(0.0, cfg.snr_drift_step_db, _CONTROLS)
                walk = self.walk + np.cumsum(steps)
                self.walk = float(walk[-1])
                chunk = _reflect(walk, cfg)
            self.snr = np.concatenate((self.snr, chunk))

    def _render(self, k: int) -> None:
        """Block ``k``: unit-power noise, crossfaded from block ``k - 1``, times the SNR gain."""
        raw = np.nan_to_num(self.source.make(self.kind, _NOISE_BLOCK + _NOISE_FADE, self.rng))
        noise = np.zeros(_NOISE_BLOCK + _NOISE_FADE)
        noise[: raw.shape[0]] = raw[: noise.shape[0]]
        rms = float(np.sqrt(np.mean(noise * noise)))
        noise *= 1.0 / rms if rms > 0 else 0.0
        if k > 0:
            u = (np.arange(_NOISE_FADE) + 0.5) * (0.5 * np.pi / _NOISE_FADE)
            noise[:_NOISE_FADE] = np.cos(u) * self.tail + np.sin(u) * noise[:_NOISE_FADE]
        self.tail = noise[_NOISE_BLOCK:].copy()
        t = np.arange(k * _NOISE_BLOCK, (k + 1) * _NOISE_BLOCK)
        c = t // self.step
        self._controls(int(c[-1]) + 2)
        gain = 10.0 ** (-self.snr / 20.0)
        g = gain[c] + (gain[c + 1] - gain[c]) * ((t - c * self.step) / self.step)
        self.block, self.samples = k, noise[:_NOISE_BLOCK] * g

    def add(self, y: _F64, p: int, amp: float | _F64) -> None:
        pos, n = 0, y.shape[0]
        while pos < n:
            k, off = divmod(p + pos, _NOISE_BLOCK)
            if k != self.block:
                self._render(k)
            m = min(n - pos, _NOISE_BLOCK - off)
            scale = amp if isinstance(amp, float) else amp[pos : pos + m]
            y[pos : pos + m] += self.samples[off : off + m] * scale
            pos += m

    def close(self, n: int) -> EffectEvent:
        snr = self.snr[: (n - 1) // self.step + 2]
        cfg = self.cfg
        lo, hi = round(float(snr.min()), 2), round(float(snr.max()), 2)
        params: dict[str, JsonScalar] = {"kind": self.kind, "snr_db": cfg.noise_snr_db}
        params |= {"drift_db": cfg.snr_drift_db, "snr_min_db": lo, "snr_max_db": hi}
        return EffectEvent("background_noise", 0, -(-n * 1000 // SR), params)


class _Bursts:
    def __init__(self, cfg: EffectsConfig, rng: np.random.Generator, source: Source) -> None:
        self.cfg, self.rng, self.source = cfg, rng, source
        per_minute = cfg.bursts_per_minute
        self.mean_gap = 60.0 * SR / per_minute if per_minute > 0 else math.inf
        self.next = float(rng.exponential(self.mean_gap)) if per_minute > 0 else math.inf
        self.active: list[tuple[int, _F64, str, float]] = []

    def _start(self, onset: int, power: float) -> None:
        kind = str(self.rng.choice(list(self.cfg.burst_kinds)))
        length = int(BURST_DURATION_MS[kind] * self.rng.uniform(0.8, 1.2) * SR / 1000)
        clip = np.nan_to_num(self.source.make(kind, length, self.rng).astype(np.float64))
        snr = float(self.rng.uniform(*self.cfg.burst_snr_db))
        clip_power = _active_power(clip, 30.0, 0.0)
        if clip_power > 0.0:
            clip *= math.sqrt(power / clip_power * 10.0 ** (-snr / 10.0))
            self.active.append((onset, clip, kind, snr))

    def add(self, y: _F64, p: int, level: _Level) -> list[EffectEvent]:
        end = p + y.shape[0]
        while self.next < end:
            onset = int(self.next)
            self._start(onset, level.at(onset) ** 2)
            self.next += self.rng.exponential(self.mean_gap)
        for onset, clip, _, _ in self.active:
            a, b = max(p, onset), min(end, onset + clip.shape[0])
            if a < b:
                y[a - p : b - p] += clip[a - onset : b - onset]
        done = [b for b in self.active if b[0] + b[1].shape[0] <= end]
        self.active = [b for b in self.active if b[0] + b[1].shape[0] > end]
        return [self._event(b, end) for b in done]

    @staticmethod
    def _event(burst: tuple[int, _F64, str, float], n: int) -> EffectEvent:
        onset, clip, kind, snr = burst
        return _event("burst", onset, min(onset + clip.shape[0], n), kind=kind, snr_db=snr)

    def close(self, n: int) -> list[EffectEvent]:
        return [self._event(b, n) for b in self.active]


class _Drops:
    def __init__(self, cfg: EffectsConfig, rng: np.random.Generator) -> None:
        self.rng, self.frame = rng, SR * cfg.drop_frame_ms // 1000
        self.to_good = cfg.drop_frame_ms / cfg.drop_burst_ms  # 1 / mean burst in frames
        self.to_bad = cfg.drop_rate * self.to_good / (1.0 - cfg.drop_rate)
        self.bad, self.run_end = False, math.inf  # no losses: one endless good run
        self.lost: list[tuple[int, int]] = []  # bad runs (first, end frame) not yet passed
        if cfg.drop_rate > 0:
            self.bad = not bool(rng.random() < cfg.drop_rate)  # flipped by the first draw
            self.run_end = 0

    def apply(self, y: _F64, p: int) -> list[EffectEvent]:
        end, f = p + y.shape[0], self.frame
        while self.run_end <= (end - 1) // f:
            self.bad = not self.bad
            start = int(self.run_end)
            length = self.rng.geometric(self.to_good if self.bad else self.to_bad)
            self.run_end = start + int(length)
            if self.bad:
                self.lost.append((start, int(self.run_end)))
        for a, b in self.lost:
            if max(a * f, p) < min(b * f, end):
                y[max(a * f, p) - p : min(b * f, end) - p] = 0.0
        done = [r for r in self.lost if r[1] * f <= end]
        self.lost = [r for r in self.lost if r[1] * f > end]
        return [self._event(a, b, end) for a, b in done]

    def _event(self, a: int, b: int, n: int) -> EffectEvent:
        b = min(b, -(-n // self.frame))
        return _event("frame_drop", a * self.frame, min(b * self.frame, n), frames=b - a)

    def close(self, n: int) -> list[EffectEvent]:
        return [self._event(a, b, n) for a, b in self.lost if a * self.frame < n]


class UserLine:
    """The effects chain as a causal stream over the user's frames (module docstring)."""

    def __init__(self, config: EffectsConfig, seed: int, source: Source | None = None) -> None:
        if seed < 0:
            raise ValueError(f"seed must be non-negative, got {seed}")
        self.config = config
        src: Source = source if source is not None else ProceduralSource()
        seqs = np.random.SeedSequence(seed).spawn(5)
        rngs = [np.random.default_rng(s) for s in seqs]
        cfg = config
        self._level = _Level(cfg.reference_dbfs)
        self._muffle = _Muffle(cfg, rngs[0]) if cfg.muffle else None
        self._noise = _Noise(cfg, seqs[1], src) if cfg.noise else None
        self._bursts = _Bursts(cfg, rngs[2], src) if cfg.bursts else None
        low, high = cfg.band_hz
        self._phone = TelephoneStream(low, high, cfg.codec_rate) if cfg.telephony else None
        self._drops = _Drops(cfg, rngs[4]) if cfg.frame_drops else None
        self._n = 0
        self._done: list[EffectEvent] = []
        self._closed = False

    @property
    def delay_ms(self) -> int:
        """Fixed latency of the line: 0 (no stage looks ahead)."""
        return DELAY_MS

    def note_speech(self, clip: Int16Array) -> None:
        """The user is about to say ``clip``: pool its active power into the SNR reference."""
        x = np.asarray(clip)
        if x.ndim != 1:
            raise ValueError(f"expected mono samples, got shape {x.shape}")
        self._level.note(x.astype(np.float64), self._n)

    def process(self, frame: Int16Array) -> Int16Array:
        """The degraded frame (same length) for the next clean mono int16 frame."""
        if self._closed:
            raise RuntimeError("the line is closed")
        x = np.asarray(frame)
        if x.ndim != 1 or x.dtype != np.int16:
            raise ValueError(f"expected mono int16 samples, got {x.dtype} with shape {x.shape}")
        n, p = x.shape[0], self._n
        if n == 0:
            return np.zeros(0, dtype=np.int16)
        y = x.astype(np.float64)
        if self._muffle is not None:
            self._done += self._muffle.process(y, p)
        if self._noise is not None:
            self._noise.add(y, p, self._level.over(p, n))
        if self._bursts is not None:
            self._done += self._bursts.add(y, p, self._level)
        if self._phone is not None:
            y = self._phone.process(y)
        if self._drops is not None:
            self._done += self._drops.apply(y, p)
        self._n = p + n
        np.clip(np.rint(y, out=y), -32768.0, 32767.0, out=y)
        return y.astype(np.int16)

    def drain(self) -> list[EffectEvent]:
        """Events that have ended since the last call, by start."""
        done, self._done = self._done, []
        return sorted(done, key=lambda e: e.start_ms)

    def close(self) -> list[EffectEvent]:
        """End of the call: undrained and still-open events, clipped to the samples processed."""
        if self._closed:
            return []
        self._closed = True
        n, events = self._n, self.drain()
        if n == 0:
            return events
        for stage in (self._muffle, self._bursts, self._drops):
            if stage is not None:
                events += stage.close(n)
        if self._noise is not None:
            events.append(self._noise.close(n))
        if self._phone is not None:
            low, high = self.config.band_hz
            events.append(_event("telephony", 0, n, low_hz=low, high_hz=high, codec="g711_mulaw"))
        return sorted(events, key=lambda e: e.start_ms)
