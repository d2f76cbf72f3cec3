"""Telephony stage: G.711 mu-law, the 300-3400 Hz band, Gilbert-Elliott frame drops."""

from __future__ import annotations

import numpy as np
import pytest

from duplexbench.audio._effects.telephony import (
    band_pass,
    drop_frames,
    gilbert_elliott_mask,
    loss_runs,
    mulaw_decode,
    mulaw_encode,
    telephone,
)

SR = 16_000


def _tone(freq: float, seconds: float = 1.0, amp: float = 16_000.0) -> np.ndarray:
    t = np.arange(int(seconds * SR)) / SR
    return amp * np.sin(2 * np.pi * freq * t)


def _rms_db(x: np.ndarray) -> float:
    return float(10 * np.log10(np.mean(np.asarray(x, dtype=np.float64) ** 2) + 1e-12))


def test_mulaw_reference_codes() -> None:
    assert mulaw_encode(np.array([0], dtype=np.int16))[0] == 0xFF
    assert mulaw_decode(np.array([0xFF, 0x80, 0x00], dtype=np.uint8)).tolist() == [
        0,
        32124,
        -32124,
    ]


def test_mulaw_round_trip_error_is_bounded() -> None:
    x = np.arange(-32768, 32768, dtype=np.int64)
    y = mulaw_decode(mulaw_encode(x.astype(np.int16))).astype(np.int64)
    inside = np.abs(x) <= 32124
    err = np.abs(y - x)
    assert np.all(err[inside] <= (np.abs(x[inside]) + 132) / 32 + 1)
    assert np.all(np.sign(y[np.abs(x) > 8]) == np.sign(x[np.abs(x) > 8]))
    codes = np.arange(256, dtype=np.uint8)
    once = mulaw_decode(codes)
    assert np.array_equal(mulaw_decode(mulaw_encode(once)), once)  # idempotent


def test_telephone_output_is_band_limited_and_same_length() -> None:
    rng = np.random.default_rng(0)
    x = rng.normal(0.0, 4000.0, SR * 2 + 7)
    y = telephone(x)
    assert y.shape == x.shape
    assert np.all(np.isfinite(y))
    spec = np.abs(np.fft.rfft(y)) ** 2
    freqs = np.fft.rfftfreq(y.shape[0], 1 / SR)
    assert spec[freqs > 4000].sum() < 1e-4 * spec.sum()
    assert spec[freqs < 150].sum() < 1e-4 * spec.sum()


@pytest.mark.parametrize("freq", [100.0, 6000.0])
def test_telephone_rejects_out_of_band_tones(freq: float) -> None:
    x = _tone(freq)
    y = telephone(x)
    assert _rms_db(y[SR // 10 : -SR // 10]) - _rms_db(x) < -40


def test_telephone_passes_1khz() -> None:
    x = _tone(1000.0)
    y = telephone(x)
    assert abs(_rms_db(y[SR // 10 : -SR // 10]) - _rms_db(x)) < 0.5


def test_band_pass_direct() -> None:
    for freq, passes in ((100.0, False), (1000.0, True), (3000.0, True), (3800.0, False)):
        x = _tone(freq, amp=1.0)
        gain = _rms_db(band_pass(x, SR, 300.0, 3400.0)[SR // 10 : -SR // 10]) - _rms_db(x)
        assert (abs(gain) < 0.1) if passes else gain < -60
    with pytest.raises(ValueError, match="band"):
        band_pass(np.zeros(10), 8000, 300.0, 3900.0)
    assert band_pass(np.zeros(0), SR, 300.0, 3400.0).shape == (0,)


def test_gilbert_elliott_long_run_statistics() -> None:
    frames = 3600 * 50  # one hour of 20 ms frames
    mask = gilbert_elliott_mask(frames, 0.02, 5.0, np.random.default_rng(7))
    assert mask.shape == (frames,)
    assert 0.015 <= mask.mean() <= 0.025
    bursts = [b - a for a, b in loss_runs(mask)]
    assert 5.0 * 0.75 <= float(np.mean(bursts)) <= 5.0 * 1.25  # 100 ms +- 25 %


def test_gilbert_elliott_edges() -> None:
    rng = np.random.default_rng(0)
    assert not gilbert_elliott_mask(100, 0.0, 5.0, rng).any()
    assert gilbert_elliott_mask(0, 0.02, 5.0, rng).shape == (0,)
    with pytest.raises(ValueError, match="loss_rate"):
        gilbert_elliott_mask(10, 1.0, 5.0, rng)
    with pytest.raises(ValueError, match="burst"):
        gilbert_elliott_mask(10, 0.1, 0.5, rng)


def test_drop_frames_zeroes_whole_frames_and_keeps_length() -> None:
    x = np.ones(1000)
    mask = np.array([False, True, False, True])
    y = drop_frames(x, mask, 320)
    assert y.shape == (1000,)
    assert not y[320:640].any() and not y[960:].any()
    assert y[:320].all() and y[640:960].all()
    assert loss_runs(mask) == [(1, 2), (3, 4)]
