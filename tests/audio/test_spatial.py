"""Renderings of non-addressed speech: gains, filters, reflections, lengths (measured)."""

from __future__ import annotations

import math
from typing import Any

import numpy as np
import pytest

from duplexbench.audio._pcm import SAMPLE_RATE, Int16Array
from duplexbench.audio._spatial import (
    DISTANT,
    OFF_AXIS,
    Biquad,
    Reflection,
    Rendering,
    Role,
    apply_biquad,
    butterworth_lowpass,
    distant,
    high_shelf,
    off_axis,
    render,
    render_role,
)

SR = SAMPLE_RATE
OFF_AXIS_TAIL = 120 * SR // 1000
DISTANT_TAIL = 100 * SR // 1000


def tone(freq: float, ms: int, amp: float = 16000.0) -> Int16Array:
    t = np.arange(ms * SR // 1000) / SR
    return np.rint(amp * np.sin(2 * np.pi * freq * t)).astype(np.int16)


def impulse(ms: int, amp: int = 30000) -> Int16Array:
    x = np.zeros(ms * SR // 1000, dtype=np.int16)
    x[0] = amp
    return x


def rms(x: Int16Array) -> float:
    return math.sqrt(float(np.mean(x.astype(np.float64) ** 2)))


def gain_db(out: Int16Array, inp: Int16Array, start: int, end: int) -> float:
    return 20 * math.log10(rms(out[start:end]) / rms(inp[start:end]))


def energy_db(x: Int16Array) -> float:
    return 10 * math.log10(float(np.sum(x.astype(np.float64) ** 2)))


# Whole periods of 1 kHz (16 samples) and 6 kHz (8 samples = 3 periods), after the
# filter transient (10 ms) and before the first reflection (45 ms = 720 samples).
PRE_REFLECTION = (160, 704)


def test_off_axis_direct_path_gain_at_1khz() -> None:
    x = tone(1000, 500)
    assert gain_db(off_axis(x), x, *PRE_REFLECTION) == pytest.approx(-8.0, abs=0.5)


def test_off_axis_high_shelf_cuts_6khz_by_13db() -> None:
    x = tone(6000, 500)
    assert gain_db(off_axis(x), x, *PRE_REFLECTION) == pytest.approx(-12.85, abs=0.3)


def test_off_axis_reflections_at_45_and_120_ms() -> None:
    y = off_axis(impulse(300))
    win = 64  # the shelf's impulse response has died out well within 4 ms
    direct = energy_db(y[:win])
    first = energy_db(y[720 : 720 + win])
    second = energy_db(y[1920 : 1920 + win])
    assert first - direct == pytest.approx(-6.0, abs=0.1)
    assert second - direct == pytest.approx(-12.0, abs=0.1)
    onsets = np.flatnonzero(y[200:]) + 200
    assert int(onsets[0]) == 720
    assert int(onsets[onsets >= 800][0]) == 1920
    assert int(np.argmax(np.abs(y[600:1000]))) + 600 == 720
    assert int(np.argmax(np.abs(y[1800:2200]))) + 1800 == 1920
    assert np.all(y[2000:] == 0)


def test_distant_gain_and_lowpass() -> None:
    low, high = tone(1000, 500), tone(6000, 500)
    window = (160, 1600 - 16)  # before the 100 ms echo
    assert gain_db(distant(low), low, *window) == pytest.approx(-15.0, abs=0.5)
    assert gain_db(distant(high), high, *window) < -35.0


def test_distant_echo_at_100_ms() -> None:
    y = distant(impulse(300))
    win = 64
    direct = energy_db(y[:win])
    echo = energy_db(y[1600 : 1600 + win])
    assert echo - direct == pytest.approx(-10.0, abs=0.1)
    assert int(np.flatnonzero(y[200:])[0]) + 200 == 1600  # the echo's onset
    assert np.all(y[1700:] == 0)


@pytest.mark.parametrize("n", [0, 1, 999, 16000])
def test_lengths(n: int) -> None:
    x = tone(440, 1000)[:n]
    assert off_axis(x).shape == (n + OFF_AXIS_TAIL,)
    assert distant(x).shape == (n + DISTANT_TAIL,)
    assert off_axis(x).dtype == np.int16
    assert distant(x).dtype == np.int16
    assert OFF_AXIS.tail_ms == 120
    assert DISTANT.tail_ms == 100


def test_silence_stays_silent() -> None:
    x = np.zeros(800, dtype=np.int16)
    assert not off_axis(x).any()
    assert not distant(x).any()
    assert not off_axis(np.zeros(0, dtype=np.int16)).any()


def test_loud_output_is_clipped_not_wrapped() -> None:
    # +12 dB through a flat (0 dB) shelf with an in-phase echo saturates; int16 must not wrap.
    loud = Rendering(12.0, high_shelf(4000.0, 0.0), (Reflection(50, 0.0),))
    x = np.where(np.arange(8000) % 800 < 400, 20000, -20000).astype(np.int16)
    y = render(x, loud)
    assert y.shape == (8000 + 800,)
    assert y.dtype == np.int16
    assert int(y.max()) == 32767
    assert int(y.min()) == -32768
    np.testing.assert_array_equal(np.sign(y[:8000]), np.sign(x))


def test_float_input_is_sanitized() -> None:
    x: Any = np.array([0.5, np.nan, np.inf, -np.inf, -0.5] * 100, dtype=np.float32)  # not int16
    roles: tuple[Role, ...] = ("other", "background")
    for role in roles:
        y = render_role(x, role)
        assert y.dtype == np.int16


def test_render_role() -> None:
    x = tone(440, 200)
    user = render_role(x, "user")
    np.testing.assert_array_equal(user, x)
    assert user.dtype == np.int16
    assert user is not x
    np.testing.assert_array_equal(render_role(x, "other"), off_axis(x))
    np.testing.assert_array_equal(render_role(x, "background"), distant(x))
    with pytest.raises(ValueError, match="unknown role"):
        agent: Any = "agent"  # not a Role
        render_role(x, agent)


def test_deterministic() -> None:
    x = (np.random.default_rng(7).standard_normal(16000) * 4000).astype(np.int16)
    np.testing.assert_array_equal(off_axis(x), off_axis(x.copy()))
    np.testing.assert_array_equal(distant(x), distant(x.copy()))


def test_rejects_multichannel() -> None:
    with pytest.raises(ValueError, match="mono"):
        off_axis(np.zeros((10, 2), dtype=np.int16))


def test_filter_designs() -> None:
    shelf = high_shelf(4000.0, -5.0)
    assert shelf.response_db(1000) == pytest.approx(0.0, abs=0.02)
    assert shelf.response_db(4000) == pytest.approx(-2.5, abs=0.01)
    assert shelf.response_db(7999) == pytest.approx(-5.0, abs=0.01)
    lp = butterworth_lowpass(3000.0)
    assert lp.response_db(0) == pytest.approx(0.0, abs=1e-9)
    assert lp.response_db(3000) == pytest.approx(-3.01, abs=0.01)
    assert lp.response_db(6000) < -20.0
    with pytest.raises(ValueError, match="corner"):
        butterworth_lowpass(8000.0)
    with pytest.raises(ValueError, match="slope"):
        high_shelf(4000.0, -5.0, slope=0.0)


def test_apply_biquad_matches_the_recursion() -> None:
    x = np.random.default_rng(3).standard_normal(3000)
    for bq in (OFF_AXIS.biquad, DISTANT.biquad, Biquad(0.5, 0.2, 0.1, -1.8, 0.9801)):
        want = np.zeros_like(x)
        x1 = x2 = y1 = y2 = 0.0
        for i, v in enumerate(x):
            y0 = bq.b0 * v + bq.b1 * x1 + bq.b2 * x2 - bq.a1 * y1 - bq.a2 * y2
            want[i] = y0
            x2, x1, y2, y1 = x1, float(v), y1, y0
        np.testing.assert_allclose(apply_biquad(x, bq), want, rtol=0, atol=1e-9)
    assert apply_biquad(np.zeros(0), DISTANT.biquad).shape == (0,)


def test_apply_biquad_rejects_unstable() -> None:
    with pytest.raises(ValueError, match="unstable"):
        apply_biquad(np.ones(10), Biquad(1.0, 0.0, 0.0, -2.0, 1.0))
