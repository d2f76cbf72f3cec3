"""Pitch by rendering slower and resampling (speech/_pitch.py), and the engines'
pitch: hibari through it (±3 semitones), pico through its own control."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from duplexbench.audio import Int16Array
from duplexbench.speech._engines import check_pitch
from duplexbench.speech._pitch import (
    MAX_RENDERS,
    FloatArray,
    pitch_factor,
    play_faster,
    render_at_pitch,
)
from duplexbench.speech._tts import SynthesisSettings, get_tts

SENTENCE = "The quick brown fox jumps over the lazy dog. Please book a table for two on Thursday."


def median_f0(samples: Int16Array, rate: int) -> float:
    """Median F0 (Hz) of the clearly voiced 40 ms frames, by autocorrelation (60-400 Hz)."""
    x = samples.astype(np.float64) / 32768.0
    frame, hop = int(0.04 * rate), int(0.01 * rate)
    lo, hi = rate // 400, rate // 60
    found: list[float] = []
    for start in range(0, x.size - frame, hop):
        w = x[start : start + frame] - np.mean(x[start : start + frame])
        if float(np.dot(w, w)) < 1e-4 * frame:
            continue
        ac = np.correlate(w, w, mode="full")[frame - 1 :]
        lag = lo + int(np.argmax(ac[lo:hi]))
        if ac[lag] > 0.5 * ac[0]:
            found.append(rate / lag)
    assert len(found) > 50, "too few voiced frames to measure F0"
    return float(np.median(found))


def semitones(f0: float, ref: float) -> float:
    return float(12.0 * np.log2(f0 / ref))


def tone(hz: float, seconds: float, rate: int) -> FloatArray:
    t = np.arange(int(seconds * rate)) / rate
    return (0.5 * np.sin(2 * np.pi * hz * t)).astype(np.float32)


# ------------------------------------------------------------------ the function


def test_play_faster_moves_every_frequency_and_shortens() -> None:
    rate, factor = 24000, pitch_factor(3.0)
    out = play_faster(tone(200.0, 1.0, rate), factor, rate)
    assert out.dtype == np.float32
    assert abs(out.size - rate / factor) <= 2
    spectrum = np.abs(np.fft.rfft(out[1000:-1000] * np.hanning(out.size - 2000)))
    peak = np.argmax(spectrum) * rate / (out.size - 2000)
    assert abs(peak - 200.0 * factor) < 2.0


def test_play_faster_keeps_empty_audio_and_refuses_bad_factors() -> None:
    assert play_faster(np.zeros(0, np.float32), 1.2, 24000).size == 0
    with pytest.raises(ValueError, match="positive"):
        play_faster(tone(200.0, 0.1, 24000), 0.0, 24000)


def test_pitch_zero_is_the_render_itself() -> None:
    calls: list[float] = []
    audio = tone(180.0, 0.5, 24000)

    def render(speed: float) -> FloatArray:
        calls.append(speed)
        return audio

    assert render_at_pitch(render, 1.3, 0.0, 24000) is audio
    assert calls == [1.3]


def test_an_engine_whose_length_follows_speed_renders_once_slower() -> None:
    rate = 24000
    calls: list[float] = []

    def render(speed: float) -> FloatArray:
        calls.append(speed)
        return tone(150.0, 2.0 / speed, rate)

    out = render_at_pitch(render, 1.0, 2.0, rate)
    factor = pitch_factor(2.0)
    assert calls == [1.0, pytest.approx(1.0 / factor)]
    assert abs(out.size - 2 * rate) < 0.01 * 2 * rate


def test_a_lumpy_engine_is_corrected_toward_the_length() -> None:
    """Length that follows speed only by steps (like hibari's whole frames per
    phoneme): the speed is corrected, at most MAX_RENDERS slow renders."""
    rate = 24000
    calls: list[float] = []

    def render(speed: float) -> FloatArray:
        calls.append(speed)
        frames = round(40 / speed**0.6)  # 40 frames of 50 ms at speed 1, too flat
        return tone(150.0, frames * 0.05, rate)

    base = render(1.0).size
    calls.clear()
    out = render_at_pitch(render, 1.0, -3.0, rate)
    assert len(calls) <= 1 + MAX_RENDERS
    assert abs(out.size / base - 1.0) < 0.03
    slow_only = play_faster(render(1.0 / pitch_factor(-3.0)), pitch_factor(-3), rate)
    assert abs(slow_only.size / base - 1.0) > 0.05  # uncorrected, it would miss


# ------------------------------------------------------------------ check_pitch


@pytest.mark.parametrize("pitch", [-3.0, -1.5, 2.0, 3.0])
def test_hibari_allows_three_semitones(pitch: float) -> None:
    check_pitch("hibari", "heart", pitch)


@pytest.mark.parametrize("pitch", [-3.5, 4.0, 12.0])
def test_hibari_refuses_more_naming_voice_and_range(pitch: float) -> None:
    with pytest.raises(ValueError, match=r"hibari:heart shifts pitch within ±3 semitones"):
        check_pitch("hibari", "heart", pitch)


@pytest.mark.parametrize("pitch", [-12.0, 12.0])
def test_pico_allows_the_full_range(pitch: float) -> None:
    check_pitch("pico", "en-US", pitch)


def test_piper_still_refuses_pitch() -> None:
    with pytest.raises(ValueError, match="piper:joe"):
        check_pitch("piper", "joe", 1.0)


# ------------------------------------------------------------------ the engines' F0


@pytest.fixture(scope="module")
def hibari() -> Any:
    pytest.importorskip("hibari")
    return get_tts("hibari")


@pytest.mark.parametrize("pitch", [-3.0, 3.0])
def test_hibari_pitch_moves_f0_and_keeps_the_duration(hibari: Any, pitch: float) -> None:
    plain, rate = hibari.synthesize(SENTENCE, "heart", SynthesisSettings())
    shifted, _ = hibari.synthesize(SENTENCE, "heart", SynthesisSettings(pitch_semitones=pitch))
    moved = semitones(median_f0(shifted, rate), median_f0(plain, rate))
    # hibari speaks a little lower when slower (speed 0.8: -0.7 semitone): +3 moved
    # the median F0 by +2.3, -3 by -3.3
    assert abs(moved - pitch) < 1.0, moved
    assert abs(shifted.size / plain.size - 1.0) < 0.04
    again, _ = hibari.synthesize(SENTENCE, "heart", SynthesisSettings(pitch_semitones=pitch))
    assert again.tobytes() == shifted.tobytes()


def test_hibari_refuses_pitch_beyond_three(hibari: Any) -> None:
    with pytest.raises(ValueError, match="hibari:heart"):
        hibari.synthesize("Hello.", "heart", SynthesisSettings(pitch_semitones=-4.0))


@pytest.mark.parametrize("voice", ["en-US", "en-GB"])
def test_pico_pitch_moves_f0(voice: str) -> None:
    pytest.importorskip("ttspico")
    pico = get_tts("pico")
    f0 = {
        p: median_f0(*pico.synthesize(SENTENCE, voice, SynthesisSettings(pitch_semitones=p)))
        for p in (-4.0, 0.0, 4.0)
    }
    assert 3.5 < semitones(f0[4.0], f0[0.0]) < 4.5, f0
    assert -4.5 < semitones(f0[-4.0], f0[0.0]) < -3.5, f0
