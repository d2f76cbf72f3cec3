"""Energy VAD, speech segments, the streaming VAD and the optional silero backend."""

from __future__ import annotations

import importlib.util
import math
import sys
from dataclasses import replace
from itertools import pairwise

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays

from duplexbench.audio._pcm import SAMPLE_RATE, Int16Array
from duplexbench.audio._vad import (
    LEVEL_FLOOR_DBFS,
    Segment,
    StreamingVad,
    VadConfig,
    frame_levels,
    segments,
    speech_frames,
)

SR = SAMPLE_RATE
FRAME_SIZES = [20, 40, 200]


def n_samples(ms: float) -> int:
    return round(ms * SR / 1000)


def noise(ms: float, dbfs: float, seed: int = 0) -> Int16Array:
    """Gaussian noise with RMS level `dbfs`."""
    rms = 32768.0 * 10 ** (dbfs / 20)
    x = np.random.default_rng(seed).standard_normal(n_samples(ms)) * rms
    return np.clip(np.rint(x), -32768, 32767).astype(np.int16)


def tone(ms: float, dbfs: float, freq: float = 440.0) -> Int16Array:
    """Sine with RMS level `dbfs`."""
    amp = 32768.0 * 10 ** (dbfs / 20) * math.sqrt(2)
    t = np.arange(n_samples(ms)) / SR
    return np.rint(amp * np.sin(2 * np.pi * freq * t)).astype(np.int16)


def signal(
    total_ms: float,
    bursts: list[tuple[float, float]],
    floor_dbfs: float | None = -70.0,
    burst_dbfs: float = -20.0,
) -> Int16Array:
    """Noise bursts at [start, end) ms in digital silence or a low noise floor."""
    x = (
        noise(total_ms, floor_dbfs, seed=1)
        if floor_dbfs is not None
        else np.zeros(n_samples(total_ms), dtype=np.int16)
    )
    for i, (start, end) in enumerate(bursts):
        a, b = n_samples(start), n_samples(end)
        x[a:b] = noise(end - start, burst_dbfs, seed=10 + i)[: b - a]
    return x


def assert_near(got: list[Segment], expected: list[tuple[int, int]], tol_ms: int) -> None:
    assert len(got) == len(expected), got
    for seg, (start, end) in zip(got, expected, strict=True):
        assert abs(seg.start_ms - start) <= tol_ms, (seg, start)
        assert abs(seg.end_ms - end) <= tol_ms, (seg, end)


# --- frame levels ------------------------------------------------------------


def test_frame_levels_known_values() -> None:
    square = np.tile(np.array([32767, -32768], dtype=np.int16), 160)  # one 20 ms frame
    assert frame_levels(square)[0] == pytest.approx(0.0, abs=0.01)
    assert frame_levels(tone(20, -20.0, freq=1000))[0] == pytest.approx(-20.0, abs=0.05)
    assert frame_levels(np.zeros(320, dtype=np.int16))[0] == LEVEL_FLOOR_DBFS
    lv = frame_levels(noise(1000, -30.0), frame_ms=40)
    assert lv.shape == (25,)
    assert np.all(np.abs(lv + 30.0) < 1.0)


def test_frame_levels_partial_last_frame() -> None:
    x = np.zeros(2 * 320 + 10, dtype=np.int16)
    x[-10:] = 16384  # -6 dBFS, only in the 10-sample tail frame
    lv = frame_levels(x)
    assert lv.shape == (3,)
    assert lv[0] == lv[1] == LEVEL_FLOOR_DBFS
    assert lv[2] == pytest.approx(20 * math.log10(0.5), abs=0.01)  # RMS over its own samples
    assert np.all(np.isfinite(lv))


def test_frame_levels_empty_and_bad_input() -> None:
    assert frame_levels(np.zeros(0, dtype=np.int16)).shape == (0,)
    assert speech_frames(np.zeros(0, dtype=np.int16)).shape == (0,)
    with pytest.raises(ValueError, match="frame_ms"):
        frame_levels(np.zeros(10, dtype=np.int16), frame_ms=0)
    with pytest.raises(ValueError, match="1-D"):
        frame_levels(np.zeros((10, 2), dtype=np.int16))
    with pytest.raises(ValueError, match="frame_ms"):
        VadConfig(frame_ms=0)


# --- batch segments ----------------------------------------------------------


@pytest.mark.parametrize("frame_ms", FRAME_SIZES)
def test_bursts_at_known_times(frame_ms: int) -> None:
    bursts = [(1010.0, 1630.0), (2470.0, 3130.0)]
    x = signal(4000, bursts)
    got = segments(x, config=VadConfig(frame_ms=frame_ms))
    assert_near(got, [(1010, 1630), (2470, 3130)], tol_ms=frame_ms)
    assert all(isinstance(s, Segment) for s in got)
    assert got[0].duration_ms == got[0].end_ms - got[0].start_ms


@pytest.mark.parametrize("frame_ms", FRAME_SIZES)
def test_bursts_in_digital_silence(frame_ms: int) -> None:
    got = segments(signal(3000, [(400.0, 1000.0)], floor_dbfs=None), config=VadConfig(frame_ms))
    assert_near(got, [(400, 1000)], tol_ms=frame_ms)


@pytest.mark.parametrize("frame_ms", [20, 40])
def test_short_gaps_merge_long_gaps_split(frame_ms: int) -> None:
    cfg = VadConfig(frame_ms=frame_ms, min_silence_ms=300)
    merged = segments(signal(3000, [(1000.0, 1500.0), (1650.0, 2200.0)]), config=cfg)
    assert_near(merged, [(1000, 2200)], tol_ms=frame_ms)
    split = segments(signal(3000, [(1000.0, 1500.0), (2000.0, 2500.0)]), config=cfg)
    assert_near(split, [(1000, 1500), (2000, 2500)], tol_ms=frame_ms)
    # A longer min_silence_ms merges the same 500 ms pause.
    longer = segments(
        signal(3000, [(1000.0, 1500.0), (2000.0, 2500.0)]),
        config=VadConfig(frame_ms=frame_ms, min_silence_ms=600),
    )
    assert_near(longer, [(1000, 2500)], tol_ms=frame_ms)


def test_clicks_are_dropped() -> None:
    cfg = VadConfig(min_speech_ms=80)
    assert segments(signal(2000, [(1000.0, 1040.0)]), config=cfg) == []
    got = segments(signal(3000, [(300.0, 340.0), (1500.0, 2100.0)]), config=cfg)
    assert_near(got, [(1500, 2100)], tol_ms=20)
    # At least min_speech_ms is kept, and a click setting passes it through.
    assert_near(segments(signal(2000, [(1000.0, 1100.0)]), config=cfg), [(1000, 1100)], 20)
    kept = segments(signal(2000, [(1000.0, 1040.0)]), config=VadConfig(min_speech_ms=0))
    assert_near(kept, [(1000, 1040)], tol_ms=20)


def test_padding_extends_and_is_clipped() -> None:
    cfg = VadConfig(pad_ms=100)
    assert segments(signal(3000, [(1000.0, 1500.0)]), config=cfg) == [Segment(900, 1600)]
    edges = segments(signal(1000, [(40.0, 300.0), (800.0, 1000.0)]), config=VadConfig(pad_ms=100))
    assert edges == [Segment(0, 400), Segment(700, 1000)]
    # Padding that makes segments meet merges them.
    joined = segments(
        signal(3000, [(1000.0, 1500.0), (2000.0, 2500.0)]), config=VadConfig(pad_ms=300)
    )
    assert joined == [Segment(700, 2800)]


def test_padding_that_touches_merges() -> None:
    got = segments(signal(2000, [(40.0, 300.0), (700.0, 1000.0)]), config=VadConfig(pad_ms=200))
    assert got == [Segment(0, 1200)]


def test_silence_gives_no_segments() -> None:
    assert segments(np.zeros(SR * 2, dtype=np.int16)) == []
    assert segments(noise(2000, -70.0)) == []
    assert segments(noise(2000, -70.0), config=VadConfig(relative_db=None)) == []


@pytest.mark.parametrize("frame_ms", FRAME_SIZES)
def test_all_loud_is_one_segment(frame_ms: int) -> None:
    x = noise(2500, -10.0)
    assert segments(x, config=VadConfig(frame_ms=frame_ms)) == [Segment(0, 2500)]


def test_relative_threshold_ignores_quiet_background_under_loud_speech() -> None:
    x = signal(3000, [(1000.0, 2000.0)], floor_dbfs=-40.0, burst_dbfs=-3.0)
    # -40 dBFS passes the absolute -45 but is more than 35 dB under the loudest frame.
    assert_near(segments(x), [(1000, 2000)], tol_ms=20)
    assert segments(x, config=VadConfig(relative_db=None)) == [Segment(0, 3000)]


def test_absolute_threshold_governs_quiet_only_signal() -> None:
    # Alone, the -40 dBFS background is the loudest frame and above the absolute threshold.
    assert segments(noise(2000, -40.0)) == [Segment(0, 2000)]
    assert segments(noise(2000, -50.0)) == []
    assert segments(noise(2000, -50.0), config=VadConfig(threshold_dbfs=-55.0)) == [
        Segment(0, 2000)
    ]


def test_empty_input() -> None:
    assert segments(np.zeros(0, dtype=np.int16)) == []
    assert segments(np.zeros(0, dtype=np.int16), config=VadConfig(pad_ms=100)) == []


def test_odd_length_partial_last_frame() -> None:
    x = noise(1000, -10.0)
    x = np.concatenate([x, noise(7 / SR * 1000, -10.0, seed=3)])
    assert x.shape[0] == SR + 7
    assert segments(x) == [Segment(0, 1000)]
    # Loud only in the last, partial frame (150 samples = 9.375 ms).
    tail = np.zeros(SR + 150, dtype=np.int16)
    tail[-150:] = tone(150 / SR * 1000, -10.0)[:150]
    assert segments(tail, config=VadConfig(min_speech_ms=0)) == [Segment(1000, 1009)]
    assert segments(tail) == []  # shorter than min_speech_ms
    # A burst running into the partial frame ends at the signal's end, not the frame's.
    odd = signal(2000, [(1520.0, 2000.0)])
    odd = np.concatenate([odd, noise(10 / SR * 1000, -20.0, seed=4)])
    assert segments(odd, config=VadConfig(frame_ms=40)) == [Segment(1520, 2000)]


def test_other_sample_rate() -> None:
    rate = 8000
    x = np.zeros(rate * 2, dtype=np.int16)
    x[rate // 2 : rate] = 8000
    assert segments(x, sample_rate=rate) == [Segment(500, 1000)]


def test_unknown_backend() -> None:
    with pytest.raises(ValueError, match="backend"):
        segments(np.zeros(100, dtype=np.int16), backend="webrtc")


# --- silero backend ----------------------------------------------------------

HAS_FASTER_WHISPER = importlib.util.find_spec("faster_whisper") is not None


@pytest.mark.skipif(not HAS_FASTER_WHISPER, reason="faster-whisper not installed")
def test_silero_backend_silence_and_types() -> None:
    assert segments(np.zeros(SR, dtype=np.int16), backend="silero") == []
    x = tone(1500, -10.0)
    got = segments(x, backend="silero", config=VadConfig(pad_ms=50))
    assert all(isinstance(s, Segment) for s in got)
    assert all(0 <= s.start_ms < s.end_ms <= 1500 for s in got)
    assert segments(np.zeros(0, dtype=np.int16), backend="silero") == []


def test_silero_backend_missing_dependency(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "faster_whisper.vad", None)  # import now fails
    with pytest.raises(RuntimeError, match=r"pip install 'duplexbench\[asr\]'"):
        segments(np.zeros(SR, dtype=np.int16), backend="silero")


# --- streaming VAD -----------------------------------------------------------


def frames_of(x: Int16Array, frame_ms: int) -> list[Int16Array]:
    n = SR * frame_ms // 1000
    return [x[i : i + n] for i in range(0, len(x), n)]


LOUD = noise(20, -20.0)
QUIET = noise(20, -70.0)


@pytest.mark.parametrize("start_frames", [1, 2, 3])
def test_streaming_enters_after_start_frames(start_frames: int) -> None:
    vad = StreamingVad(start_frames=start_frames)
    states = [vad.push(LOUD) for _ in range(start_frames + 1)]
    assert states == [False] * (start_frames - 1) + [True, True]
    assert vad.speaking


def test_streaming_needs_consecutive_loud_frames() -> None:
    vad = StreamingVad(start_frames=2)
    for _ in range(5):
        assert vad.push(LOUD) is False
        assert vad.push(QUIET) is False
    assert vad.speech_ms == 0


@pytest.mark.parametrize("frame_ms", FRAME_SIZES)
def test_streaming_leaves_after_hangover(frame_ms: int) -> None:
    loud, quiet = noise(frame_ms, -20.0), noise(frame_ms, -70.0)
    vad = StreamingVad(start_frames=2, hangover_ms=300)
    vad.push(loud)
    assert vad.push(loud)
    assert vad.speech_ms == 2 * frame_ms
    quiet_frames = 0
    while vad.push(quiet):
        quiet_frames += 1
        assert vad.silence_ms == quiet_frames * frame_ms < 300
        assert vad.speech_ms == (2 + quiet_frames) * frame_ms
    quiet_frames += 1
    assert quiet_frames == math.ceil(300 / frame_ms)
    assert vad.silence_ms == quiet_frames * frame_ms >= 300
    assert not vad.speaking
    assert vad.speech_ms == 0
    assert not vad.push(quiet)
    assert vad.silence_ms == (quiet_frames + 1) * frame_ms


@pytest.mark.parametrize("frame_ms", FRAME_SIZES)
def test_streaming_counters(frame_ms: int) -> None:
    loud, quiet = noise(frame_ms, -20.0), noise(frame_ms, -70.0)
    vad = StreamingVad(hangover_ms=10_000)
    assert (vad.speaking, vad.silence_ms, vad.speech_ms) == (False, 0, 0)
    vad.push(quiet)
    assert vad.silence_ms == frame_ms
    vad.push(loud)
    assert (vad.speaking, vad.silence_ms, vad.speech_ms) == (False, 0, 0)
    vad.push(loud)
    assert (vad.speaking, vad.silence_ms, vad.speech_ms) == (True, 0, 2 * frame_ms)
    vad.push(quiet)
    vad.push(quiet)
    assert (vad.speaking, vad.silence_ms, vad.speech_ms) == (True, 2 * frame_ms, 4 * frame_ms)
    vad.push(loud)  # a loud frame inside the hangover keeps the run going
    assert (vad.speaking, vad.silence_ms, vad.speech_ms) == (True, 0, 5 * frame_ms)
    assert vad.push(np.zeros(0, dtype=np.int16)) is True  # empty frame: no change
    assert vad.speech_ms == 5 * frame_ms
    vad.reset()
    assert (vad.speaking, vad.silence_ms, vad.speech_ms) == (False, 0, 0)
    assert vad.push(loud) is False  # onset count restarts after reset


def test_streaming_mixed_frame_lengths_and_threshold() -> None:
    vad = StreamingVad(VadConfig(threshold_dbfs=-30.0), hangover_ms=100)
    assert not vad.push(noise(20, -35.0))  # under this threshold
    vad.push(noise(40, -20.0))
    assert vad.push(noise(20, -20.0))
    assert vad.speech_ms == 60
    assert vad.push(noise(40, -60.0))
    assert vad.push(noise(20, -60.0))
    assert vad.silence_ms == 60
    assert not vad.push(noise(40, -60.0))
    assert vad.silence_ms == 100


def test_streaming_rejects_bad_settings() -> None:
    with pytest.raises(ValueError, match="start_frames"):
        StreamingVad(start_frames=0)
    with pytest.raises(ValueError, match="hangover_ms"):
        StreamingVad(hangover_ms=-1)


@pytest.mark.parametrize("frame_ms", FRAME_SIZES)
@pytest.mark.parametrize("start_frames", [1, 2])
def test_streaming_agrees_with_batch(frame_ms: int, start_frames: int) -> None:
    hangover = 300
    x = signal(4600, [(510.0, 1400.0), (1590.0, 2310.0), (2990.0, 3530.0)])
    cfg = VadConfig(frame_ms=frame_ms, relative_db=None, min_speech_ms=0, min_silence_ms=hangover)
    batch = segments(x, config=cfg)
    assert len(batch) == 2  # the 190 ms pause is merged, the 680 ms one is not

    vad = StreamingVad(cfg, start_frames=start_frames, hangover_ms=hangover)
    runs: list[tuple[int, int]] = []
    was, t, enter = False, 0, 0
    for frame in frames_of(x, frame_ms):
        now = vad.push(frame)
        t += len(frame) * 1000 // SR
        if now and not was:
            enter = t
        elif was and not now:
            runs.append((enter, t))
        was = now
    assert not was
    assert len(runs) == len(batch)
    for (enter, leave), seg in zip(runs, batch, strict=True):
        # Decided at the end of the start_frames-th loud frame; left after the hangover.
        assert 0 < enter - seg.start_ms <= start_frames * frame_ms
        assert hangover <= leave - seg.end_ms < hangover + frame_ms


# --- properties --------------------------------------------------------------


@st.composite
def audio(draw: st.DrawFn) -> Int16Array:
    """Raw random int16, or blocks of noise at random levels (to get speech and pauses)."""
    if draw(st.booleans()):
        raw: Int16Array = draw(arrays(np.int16, st.integers(0, 6000)))
        return raw
    blocks = draw(st.lists(st.tuples(st.integers(1, 4000), st.integers(0, 15)), max_size=12))
    seed = draw(st.integers(0, 2**16))
    rng = np.random.default_rng(seed)
    parts = [rng.integers(-32768, 32768, n).astype(np.int16) >> shift for n, shift in blocks]
    return np.concatenate(parts).astype(np.int16) if parts else np.zeros(0, dtype=np.int16)


configs = st.builds(
    VadConfig,
    frame_ms=st.sampled_from([10, 20, 30, 40, 200]),
    threshold_dbfs=st.floats(-80.0, 0.0),
    relative_db=st.none() | st.floats(0.0, 60.0),
    min_speech_ms=st.integers(0, 300),
    min_silence_ms=st.integers(0, 500),
)


@settings(max_examples=200, deadline=None)
@given(x=audio(), config=configs, rate=st.sampled_from([8000, 16000, 22050, 44100]))
def test_segments_are_well_formed(x: Int16Array, config: VadConfig, rate: int) -> None:
    total = len(x) * 1000 // rate
    got = segments(x, sample_rate=rate, config=config)
    for seg in got:
        assert 0 <= seg.start_ms < seg.end_ms <= total
        assert seg.duration_ms >= config.min_speech_ms
    for a, b in pairwise(got):
        assert a.end_ms < b.start_ms  # sorted, non-overlapping
        assert b.start_ms - a.end_ms >= config.min_silence_ms  # pauses were merged

    pad = 37
    padded = segments(x, sample_rate=rate, config=replace(config, pad_ms=pad))
    for seg in padded:
        assert 0 <= seg.start_ms < seg.end_ms <= total
    for a, b in pairwise(padded):
        assert a.end_ms < b.start_ms
    for seg in got:  # padding only grows coverage, clipped to the signal
        assert any(
            p.start_ms <= max(0, seg.start_ms - pad) and p.end_ms >= min(total, seg.end_ms + pad)
            for p in padded
        )
