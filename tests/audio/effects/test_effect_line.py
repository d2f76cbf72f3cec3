"""The streaming user line: frame-size invariance, levels, statistics, events, latency, tics."""

from __future__ import annotations

import itertools
from dataclasses import replace
from typing import cast

import numpy as np
import numpy.typing as npt
import pytest

from duplexbench.audio._effects import (
    BURST_DURATION_MS,
    BURST_KINDS,
    TIC_KINDS,
    EffectEvent,
    EffectsConfig,
    UserLine,
    speech_power,
    tic_clip,
)
from duplexbench.audio._effects.telephony import TelephoneStream

SR = 16_000
ONLY = EffectsConfig(muffle=False, noise=False, bursts=False, telephony=False, frame_drops=False)


def _speech(seconds: float, seed: int = 0) -> np.ndarray:
    """Harmonic 'voice' in phrases with pauses (speech-like level changes)."""
    t = np.arange(int(seconds * SR)) / SR
    harmonics = (np.sin(2 * np.pi * 140 * h * t) / h for h in range(1, 12))
    voice = cast(npt.NDArray[np.float64], sum(harmonics))  # an array: 11 terms, not 0
    envelope = np.abs(np.sin(2 * np.pi * 2 * t)) * (np.sin(2 * np.pi * 0.25 * t + seed) > -0.3)
    samples: npt.NDArray[np.int16] = np.rint(6000 * voice * envelope).astype(np.int16)
    return samples


def _tone(seconds: float, amp: float, freq: float = 1000.0) -> np.ndarray:
    t = np.arange(int(seconds * SR)) / SR
    return np.rint(amp * np.sin(2 * np.pi * freq * t)).astype(np.int16)


def _stream(
    line: UserLine, x: np.ndarray, frame: int, notes: dict[int, np.ndarray] | None = None
) -> tuple[np.ndarray, list[EffectEvent]]:
    """Feed ``x`` in ``frame``-sample frames (also cut where a clip is noted); all events."""
    notes = notes or {}
    cuts = sorted({*range(0, x.shape[0], frame), *notes, x.shape[0]})
    out, events = [], []
    for a, b in itertools.pairwise(cuts):
        if a in notes:
            line.note_speech(notes[a])
        y = line.process(x[a:b])
        assert y.shape == (b - a,) and y.dtype == np.int16
        out.append(y)
        events += line.drain()
    events += line.close()
    return np.concatenate(out), events


def _key(e: EffectEvent) -> tuple[int, str, int]:
    return e.start_ms, e.type, e.end_ms


def _power_db(x: np.ndarray) -> float:
    return float(10 * np.log10(np.mean(np.asarray(x, dtype=np.float64) ** 2)))


BUSY = replace(EffectsConfig(), bursts_per_minute=12.0, drop_rate=0.05)


def test_output_does_not_depend_on_the_framing() -> None:
    x = _speech(20.0)
    notes = {0: _speech(3.0, 1), 8 * SR: _tone(2.0, 3000.0)}
    runs = [_stream(UserLine(BUSY, 7), x, size, notes) for size in (320, 640, x.shape[0], 333)]
    (audio, events), *others = runs
    assert {e.type for e in events} == {
        "muffle", "background_noise", "burst", "telephony", "frame_drop"
    }  # fmt: skip
    for other_audio, other_events in others:
        assert np.array_equal(audio, other_audio)
        assert sorted(events, key=_key) == sorted(other_events, key=_key)


def test_same_seed_identical_other_seed_differs() -> None:
    x = _speech(10.0)
    a, ea = _stream(UserLine(BUSY, 1), x, 320)
    b, eb = _stream(UserLine(BUSY, 1), x, 320)
    c, ec = _stream(UserLine(BUSY, 2), x, 320)
    assert np.array_equal(a, b) and ea == eb
    assert not np.array_equal(a, c)
    noise = [[e.params for e in ev if e.type == "background_noise"] for ev in (ea, ec)]
    onsets = [[e.start_ms for e in ev if e.type == "burst"] for ev in (ea, ec)]
    assert noise[0] != noise[1] or onsets[0] != onsets[1]


def test_noise_kind_follows_the_seed_like_the_chain() -> None:
    cfg = replace(ONLY, noise=True)
    kinds = set()
    for seed in range(12):
        _, events = _stream(UserLine(cfg, seed), np.zeros(SR // 10, dtype=np.int16), 320)
        kinds.add(events[0].params["kind"])
    assert kinds == {"indoor", "outdoor"}


def test_length_kept_for_odd_and_empty_frames() -> None:
    x = _speech(3.0)
    sizes = [0, 1, 7, 0, 319, 321, 1000, 3, 0, 4999]
    line = UserLine(BUSY, 3)
    out, pos = [], 0
    while pos < x.shape[0]:
        for size in sizes:
            frame = x[pos : pos + size]
            y = line.process(frame)
            assert y.shape == frame.shape and y.dtype == np.int16
            out.append(y)
            pos += frame.shape[0]
    assert line.process(np.zeros(0, dtype=np.int16)).shape == (0,)
    reference, _ = _stream(UserLine(BUSY, 3), x, 320)
    assert np.array_equal(np.concatenate(out), reference)


def test_full_scale_input_clips_without_wrapping() -> None:
    loud = np.where(_tone(10.0, 1.0, 200.0) >= 0, 32767, -32767).astype(np.int16)
    cfg = replace(ONLY, noise=True, bursts=True, bursts_per_minute=30.0, noise_snr_db=-5.0)
    y, _ = _stream(UserLine(cfg, 9), loud, 320)
    small = (loud // 32).astype(np.int16)  # the added sound does not depend on the input level
    added = _stream(UserLine(cfg, 9), small, 320)[0].astype(np.float64) - small
    expected = np.clip(loud + added, -32768, 32767)
    assert np.max(np.abs(y - expected)) <= 1
    assert y.max() == 32767 and y.min() == -32768
    phone = replace(ONLY, telephony=True)
    full = _stream(UserLine(phone, 9), _tone(5.0, 32767.0), 320)[0].astype(np.float64)
    scaled = _stream(UserLine(phone, 9), _tone(5.0, 8000.0), 320)[0] * (32767.0 / 8000.0)
    assert np.corrcoef(full, np.clip(scaled, -32768, 32767))[0, 1] > 0.99  # nothing wrapped
    y, _ = _stream(UserLine(EffectsConfig(), 9), loud, 320)
    assert y.dtype == np.int16 and y.shape == loud.shape


class _NanSource:
    def make(self, kind: str, duration_samples: int, rng: np.random.Generator) -> np.ndarray:
        return np.full(duration_samples, np.nan, dtype=np.float32)


def test_nan_sources_give_silence_not_nan() -> None:
    x = _speech(3.0)
    cfg = replace(ONLY, noise=True, bursts=True, bursts_per_minute=60.0)
    y, _ = _stream(UserLine(cfg, 0, _NanSource()), x, 320)
    assert np.array_equal(y, x)


@pytest.mark.parametrize("kind", ["indoor", "outdoor", "babble"])
def test_background_snr_over_a_long_run(kind: str) -> None:
    cfg = replace(ONLY, noise=True, noise_kinds=(kind,), snr_drift_db=0.0)
    clip = _tone(2.0, 10_000.0)  # active power 10_000**2 / 2
    line = UserLine(cfg, 4)
    line.note_speech(clip)
    silent = np.zeros(SR, dtype=np.int16)
    noise = np.concatenate([line.process(silent) for _ in range(65)])  # blocks at 0, 30, 60 s
    snr = 10 * np.log10(10_000.0**2 / 2) - _power_db(noise[SR // 5 :])
    assert abs(snr - 15.0) < 0.5
    (event,) = line.close()
    assert event.type == "background_noise" and event.params["kind"] == kind
    assert event.start_ms == 0 and event.end_ms == 65_000


class _WhiteSource:
    def make(self, kind: str, duration_samples: int, rng: np.random.Generator) -> np.ndarray:
        return rng.standard_normal(duration_samples).astype(np.float32)


def test_noise_blocks_crossfade_at_a_constant_level() -> None:
    line = UserLine(replace(ONLY, noise=True, snr_drift_db=0.0), 1, _WhiteSource())
    noise = _stream(line, np.zeros(62 * SR, dtype=np.int16), 4000)[0]
    level = _power_db(noise)
    for seam in (30 * SR, 60 * SR):  # the 50 ms equal-power crossfades between blocks
        assert abs(_power_db(noise[seam - 400 : seam + 1200]) - level) < 0.5
        assert not np.array_equal(noise[seam - 800 : seam], noise[seam : seam + 800])


def test_snr_drift_stays_in_range() -> None:
    line = UserLine(replace(ONLY, noise=True), 2)
    _, events = _stream(line, np.zeros(60 * SR, dtype=np.int16), SR)
    params = events[0].params
    assert 12.0 <= float(params["snr_min_db"]) < float(params["snr_max_db"]) <= 18.0


def test_speech_reference_sets_the_noise_level() -> None:
    cfg = replace(ONLY, noise=True, noise_kinds=("indoor",), snr_drift_db=0.0)
    silent = np.zeros(4 * SR, dtype=np.int16)
    default, _ = _stream(UserLine(cfg, 5), silent, 320)
    reference = (32768 * 10 ** (-26 / 20)) ** 2  # before any clip: -26 dBFS
    assert abs(10 * np.log10(reference) - _power_db(default) - 15.0) < 0.5
    quiet = _tone(1.0, 1000.0)
    loud = _tone(1.0, 10_000.0)
    a, _ = _stream(UserLine(cfg, 5), silent, 320, {0: quiet})
    b, _ = _stream(UserLine(cfg, 5), silent, 320, {0: loud})
    assert abs(_power_db(b[SR // 5 :]) - _power_db(a[SR // 5 :]) - 20.0) < 0.05
    # a second clip pools with the first: the mean power of their active frames
    c, _ = _stream(UserLine(cfg, 5), silent, 320, {0: quiet, 2 * SR: loud})
    pooled = 10 * np.log10((1000.0**2 + 10_000.0**2) / 2 / 1000.0**2)
    change = _power_db(c[2 * SR + SR // 5 :]) - _power_db(a[2 * SR + SR // 5 :])
    assert abs(change - pooled) < 0.05
    assert np.array_equal(c[: 2 * SR], a[: 2 * SR])


def test_gilbert_elliott_statistics_over_an_hour() -> None:
    line = UserLine(replace(ONLY, frame_drops=True), 7)
    ones = np.full(10 * SR, 1000, dtype=np.int16)
    events: list[EffectEvent] = []
    lost = 0
    for _ in range(360):
        lost += int(np.count_nonzero(line.process(ones) == 0))
        events += line.drain()
    events += line.close()
    frames = 3600 * 50
    drops = [e for e in events if e.type == "frame_drop"]
    assert sum(int(e.params["frames"]) for e in drops) * 320 == lost
    assert 0.015 <= lost / 320 / frames <= 0.025
    assert 5.0 * 0.75 <= float(np.mean([e.params["frames"] for e in drops])) <= 5.0 * 1.25
    assert all(e.end_ms - e.start_ms == 20 * int(e.params["frames"]) for e in drops)


def test_muffle_share_over_a_long_run() -> None:
    line = UserLine(replace(ONLY, muffle=True), 11)
    _, events = _stream(line, np.zeros(20 * 60 * SR, dtype=np.int16), 4 * SR)
    share = sum(e.end_ms - e.start_ms for e in events) / (20 * 60_000)
    assert abs(share - 0.2) < 0.03
    assert all(e.type == "muffle" and e.start_ms % 500 == 0 for e in events)
    assert all(e.end_ms - e.start_ms == 500 * int(e.params["segments"]) for e in events)


def test_muffle_lowers_the_highs_inside_runs_only() -> None:
    x = _tone(30.0, 8000.0, 4000.0)
    y, events = _stream(UserLine(replace(ONLY, muffle=True), 11), x, 320)
    assert events
    run = np.zeros(x.shape[0], dtype=bool)
    inside = np.zeros(x.shape[0], dtype=bool)
    for e in events:
        run[e.start_ms * 16 : e.end_ms * 16] = True
        inside[e.start_ms * 16 + 160 : e.end_ms * 16 - 160] = True  # past the 5 ms fades
    assert _power_db(y[inside]) < _power_db(x[inside]) - 12
    assert np.array_equal(y[~run], x[~run])


def test_bursts_over_two_hours() -> None:
    line = UserLine(replace(ONLY, bursts=True), 3)
    silent = np.zeros(20 * SR, dtype=np.int16)
    events: list[EffectEvent] = []
    for i in range(360):
        line.process(silent)
        for e in line.drain():
            assert e.end_ms <= (i + 1) * 20_000  # drained once ended
            events.append(e)
    events += line.close()
    bursts = [e for e in events if e.type == "burst"]
    assert abs(len(bursts) / 120 - 1.0) < 0.2
    assert {e.params["kind"] for e in bursts} <= set(BURST_KINDS[:6])
    for e in bursts:
        assert -5.0 <= float(e.params["snr_db"]) <= 10.0
        assert 0 <= e.start_ms < e.end_ms <= 120 * 60_000


def test_events_come_in_order_and_the_call_spanning_ones_from_close() -> None:
    line = UserLine(replace(EffectsConfig(), bursts_per_minute=30.0, drop_rate=0.1), 12)
    x = _speech(30.0)
    drained: list[EffectEvent] = []
    for a in range(0, x.shape[0] - 320, 320):  # the last frame is never sent
        line.process(x[a : a + 320])
        batch = line.drain()
        assert [e.start_ms for e in batch] == sorted(e.start_ms for e in batch)
        drained += batch
    assert {e.type for e in drained} == {"muffle", "burst", "frame_drop"}
    closing = line.close()
    processed_ms = -(-(x.shape[0] - 320) * 1000 // SR)
    assert {"background_noise", "telephony"} <= {e.type for e in closing}
    for e in drained + closing:
        assert 0 <= e.start_ms < e.end_ms <= processed_ms
    spans = [e for e in closing if e.type in ("background_noise", "telephony")]
    assert all(e.start_ms == 0 and e.end_ms == processed_ms for e in spans)
    assert line.close() == [] and line.drain() == []
    with pytest.raises(RuntimeError, match="closed"):
        line.process(x[:320])


def test_a_burst_cut_by_the_end_of_the_call() -> None:
    cfg = replace(ONLY, bursts=True, bursts_per_minute=120.0, burst_kinds=("engine",))
    line = UserLine(cfg, 1)
    line.process(np.zeros(5 * SR, dtype=np.int16))
    closing = [e for e in line.drain() + line.close() if e.type == "burst"]
    assert closing[-1].end_ms == 5000  # a 3 s engine every 0.5 s: one is still running
    assert all(e.end_ms <= 5000 for e in closing)


def test_delay_is_zero_and_the_line_is_causal() -> None:
    line = UserLine(ONLY, 0)
    assert line.delay_ms == 0
    x = _speech(2.0)
    assert np.array_equal(_stream(line, x, 320)[0], x)  # every stage off: the input itself
    impulse = np.zeros(SR, dtype=np.int16)
    impulse[5000] = 20_000
    y, _ = _stream(UserLine(replace(ONLY, telephony=True), 0), impulse, 320)
    assert not y[:5000].any() and y[5000:5100].any()
    assert 5000 <= int(np.argmax(np.abs(y))) <= 5000 + 16  # peaks within 1 ms
    a = _speech(10.0)
    b = a.copy()
    b[6 * SR :] = _speech(4.0, 3)  # a different future
    ya = _stream(UserLine(EffectsConfig(), 8), a, a.shape[0])[0]
    yb = _stream(UserLine(EffectsConfig(), 8), b, b.shape[0])[0]
    assert np.array_equal(ya[: 6 * SR], yb[: 6 * SR])


def test_telephone_stream_band() -> None:
    def gain_db(freq: float) -> float:
        x = _tone(1.0, 16_000.0, freq).astype(np.float64)
        stream = TelephoneStream()
        y = np.concatenate([stream.process(x[i : i + 320]) for i in range(0, SR, 320)])
        return _power_db(y[SR // 10 :]) - _power_db(x[SR // 10 :])

    assert abs(gain_db(1000.0)) < 0.5 and abs(gain_db(3000.0)) < 0.5
    assert gain_db(100.0) < -40 and gain_db(6000.0) < -40
    with pytest.raises(ValueError, match="divide"):
        TelephoneStream(codec_rate=7000)


def test_bad_arguments() -> None:
    with pytest.raises(ValueError, match="seed"):
        UserLine(EffectsConfig(), -1)
    line = UserLine(EffectsConfig(), 0)
    with pytest.raises(ValueError, match="int16"):
        line.process(np.zeros(10, dtype=np.float32))
    with pytest.raises(ValueError, match="mono"):
        line.note_speech(np.zeros((2, 10), dtype=np.int16))
    assert line.close() == []  # nothing processed: no events


@pytest.mark.parametrize("kind", TIC_KINDS)
def test_tic_clip_level_and_length(kind: str) -> None:
    assert TIC_KINDS == ("cough", "sneeze", "sniffle")
    for level in (-36.0, -26.0):
        clip = tic_clip(kind, np.random.default_rng(2), level)
        assert clip.dtype == np.int16
        assert abs(10 * np.log10(speech_power(clip) / 32768**2) - level) < 0.1
        nominal = BURST_DURATION_MS[kind] * SR / 1000
        assert 0.8 * nominal - 1 <= clip.shape[0] <= 1.2 * nominal
    again = tic_clip(kind, np.random.default_rng(2), -36.0)
    assert np.array_equal(again, tic_clip(kind, np.random.default_rng(2), -36.0))


def test_tic_kinds_keep_the_default_bursts() -> None:
    assert BURST_KINDS[:6] == ("phone_ring", "dog_bark", "car_horn", "engine", "siren", "door_slam")
    assert EffectsConfig().burst_kinds == BURST_KINDS[:6]
    with pytest.raises(ValueError, match="tic kind"):
        tic_clip("hiccup", np.random.default_rng(0))
