"""Trimming silence and fitting clips to a target duration."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from duplexbench.audio._fit import DurationMismatch, cap_pauses, fit_duration, trim_silence
from duplexbench.audio._pcm import SAMPLE_RATE, Int16Array

SR = SAMPLE_RATE
FRAME = 10 * SR // 1000


def tone(n: int, freq: float = 440.0, amp: float = 8000.0) -> Int16Array:
    t = np.arange(n) / SR
    return np.rint(amp * np.sin(2 * np.pi * freq * t)).astype(np.int16)


def pad(x: Int16Array, before: int, after: int, level: float = 0.0) -> Int16Array:
    rng = np.random.default_rng(0)
    lead = np.rint(rng.standard_normal(before) * level).astype(np.int16)
    tail = np.rint(rng.standard_normal(after) * level).astype(np.int16)
    return np.concatenate([lead, x, tail])


@pytest.mark.parametrize("before", [3200, 3200 + 37, 3251])
def test_trim_tone_with_silence_each_side(before: int) -> None:
    body = tone(16000)
    x = pad(body, before, 3200 + 11)
    y = trim_silence(x)
    assert abs(y.shape[0] - body.shape[0]) <= FRAME
    # The kept span starts on the frame grid, at the frame holding the tone's onset or the next.
    first = before // FRAME * FRAME
    assert any(np.array_equal(y, x[s : s + y.shape[0]]) for s in (first, first + FRAME))


def test_trim_exact_boundaries_on_frame_grid() -> None:
    body = tone(16000)
    x = pad(body, 3200, 3200)
    np.testing.assert_array_equal(trim_silence(x), body)


def test_trim_keeps_quiet_gaps_inside() -> None:
    a, b = tone(3200), tone(3200)
    x = np.concatenate([np.zeros(1600, np.int16), a, np.zeros(4800, np.int16), b])
    y = trim_silence(x)
    np.testing.assert_array_equal(y, x[1600:])


def test_trim_threshold_governs_noise_floor() -> None:
    floor = 32768 * 10 ** (-60 / 20)  # -60 dBFS noise: below -50, above -70
    x = pad(tone(8000), 3200, 3200, level=floor)
    assert trim_silence(x).shape[0] == 8000
    assert trim_silence(x, threshold_dbfs=-70.0).shape[0] == x.shape[0]


def test_trim_all_silent_and_empty() -> None:
    assert trim_silence(np.zeros(16000, np.int16)).shape == (0,)
    assert trim_silence(np.zeros(0, np.int16)).shape == (0,)
    assert trim_silence(np.zeros(0, np.int16)).dtype == np.int16


def test_trim_partial_last_frame_and_frame_size() -> None:
    x = np.concatenate([np.zeros(800, np.int16), tone(1000)])  # ends mid-frame
    np.testing.assert_array_equal(trim_silence(x), x[800:])
    np.testing.assert_array_equal(trim_silence(x, frame_ms=50), x[800:])  # 800 = one frame
    with pytest.raises(ValueError):
        trim_silence(x, frame_ms=0)


def test_trim_returns_a_copy() -> None:
    x = tone(1600)
    y = trim_silence(x)
    y[:] = 0
    assert x.any()


@pytest.mark.parametrize("n", [900, 1000, 1100])
def test_exact_within_tolerance_pads_or_cuts_the_end(n: int) -> None:
    x = tone(n)
    y = fit_duration(x, 1000, "exact", 100)
    assert y.shape == (1000,)
    assert y.dtype == np.int16
    m = min(n, 1000)
    np.testing.assert_array_equal(y[:m], x[:m])
    assert not y[m:].any()


def test_exact_mismatch_reports_ms() -> None:
    with pytest.raises(DurationMismatch, match=r"1500\.0 ms.*1000\.0 ms"):
        fit_duration(tone(24000), 16000, "exact", 1600)
    with pytest.raises(ValueError):  # DurationMismatch is a ValueError
        fit_duration(tone(100), 1000, "exact", 0)


def test_exact_empty_input() -> None:
    assert not fit_duration(np.zeros(0, np.int16), 10, "exact", 10).any()
    assert fit_duration(np.zeros(0, np.int16), 0, "exact", 0).shape == (0,)
    with pytest.raises(DurationMismatch):
        fit_duration(np.zeros(0, np.int16), 11, "exact", 10)


@pytest.mark.parametrize("target", [8000, 12000, 16000, 24000, 32000])
def test_stretch_to_target(target: int) -> None:
    x = tone(16000, freq=500.0)
    y = fit_duration(x, target, "stretch", 0)
    assert y.shape == (target,)
    assert y.dtype == np.int16
    # The pitch scales by len / target: count zero crossings.
    crossings = int(np.count_nonzero(np.diff(np.signbit(y))))
    assert crossings == pytest.approx(1000, abs=3)
    assert y[0] == x[0]


def test_stretch_linear_interpolation_values() -> None:
    x = np.array([0, 100, 200, 300], dtype=np.int16)
    np.testing.assert_array_equal(
        fit_duration(x, 8, "stretch", 0), [0, 50, 100, 150, 200, 250, 300, 300]
    )
    np.testing.assert_array_equal(fit_duration(x, 2, "stretch", 0), [0, 200])


def test_stretch_identity_is_a_copy() -> None:
    x = tone(1000)
    y = fit_duration(x, 1000, "stretch", 0)
    np.testing.assert_array_equal(y, x)
    assert y is not x


@pytest.mark.parametrize(("n", "target"), [(1000, 499), (1000, 2001), (0, 10), (10, 0)])
def test_stretch_out_of_range(n: int, target: int) -> None:
    with pytest.raises(DurationMismatch, match="ratio"):
        fit_duration(tone(n), target, "stretch", 10_000)


def test_fit_bad_arguments() -> None:
    x = tone(100)
    with pytest.raises(ValueError, match="target_samples"):
        fit_duration(x, -1, "exact", 0)
    with pytest.raises(ValueError, match="tolerance_samples"):
        fit_duration(x, 100, "exact", -1)
    with pytest.raises(ValueError, match="unknown fit mode"):
        squash: Any = "squash"  # not a FitMode
        fit_duration(x, 100, squash, 0)
    with pytest.raises(ValueError, match="mono"):
        fit_duration(np.zeros((4, 2), np.int16), 4, "exact", 0)


def test_cap_pauses_shortens_only_long_inner_quiet() -> None:
    """The speech kit lent to local agents caps the pauses inside a line: hibari's 730 ms
    between two sentences let the simulated caller (700 ms response gap) talk over it."""
    tone = (np.sin(np.arange(1600) / 3.0) * 8000).astype(np.int16)  # 100 ms, loud
    quiet = np.zeros(SAMPLE_RATE * 730 // 1000, dtype=np.int16)
    short = np.zeros(SAMPLE_RATE * 300 // 1000, dtype=np.int16)
    lead = np.zeros(SAMPLE_RATE * 900 // 1000, dtype=np.int16)
    clip = np.concatenate([lead, tone, quiet, tone, short, tone, lead])
    capped = cap_pauses(clip, 400)
    assert capped.size == clip.size - SAMPLE_RATE * 330 // 1000  # 730 -> 400 ms, nothing else
    assert np.array_equal(capped[: lead.size + tone.size], clip[: lead.size + tone.size])
    assert np.array_equal(capped[-(lead.size + tone.size) :], clip[-(lead.size + tone.size) :])
    assert cap_pauses(clip, 800).size == clip.size
    assert cap_pauses(np.zeros(0, dtype=np.int16), 400).size == 0
    assert cap_pauses(quiet, 100).size == quiet.size  # all quiet: no inner pause


def test_cap_pauses_cuts_the_edges_to_lead_and_trail() -> None:
    """hibari pads a clip with about 320 ms before and 480 ms after its speech, and the
    320 ms went into every response latency of an agent speaking it."""
    tone = (np.sin(np.arange(1600) / 3.0) * 8000).astype(np.int16)  # 100 ms, loud
    lead = np.zeros(SAMPLE_RATE * 320 // 1000, dtype=np.int16)
    trail = np.zeros(SAMPLE_RATE * 480 // 1000, dtype=np.int16)
    clip = np.concatenate([lead, tone, trail])
    capped = cap_pauses(clip, 400, lead_ms=50, trail_ms=150)
    assert capped.size == SAMPLE_RATE * (50 + 100 + 150) // 1000
    assert np.array_equal(capped[800:2400], tone)  # the speech itself is untouched
    assert cap_pauses(tone, 400, lead_ms=50, trail_ms=150).size == tone.size  # no edges
    assert cap_pauses(lead, 400, lead_ms=50, trail_ms=150).size == lead.size  # all quiet
    assert cap_pauses(clip, 400).size == clip.size  # edges kept unless asked
