"""Backchannel function: word lists first, a final pitch rise as tie-breaker."""

from __future__ import annotations

import numpy as np
import pytest

from duplexbench.scoring._actions.backchannel import (
    backchannel_function,
    final_pitch_rise,
    lexical_function,
    pitch_track,
)
from support.action_builders import tone


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("yeah", "affirmative"),
        ("mm-hmm", "affirmative"),
        ("uh-huh", "affirmative"),
        ("I see", "affirmative"),
        ("okay sure", "affirmative"),
        ("right?", "uncertainty"),  # a trailing question mark wins
        ("hmm?", "uncertainty"),
        ("huh", "uncertainty"),
        ("really", "uncertainty"),
        ("wait what", "uncertainty"),
        ("um", "uncertainty"),
        ("oh", None),  # says nothing
        ("hmm", None),
        ("yeah wait", None),  # mixed
    ],
)
def test_lexical_function(text: str, expected: str | None) -> None:
    assert lexical_function(text.split()) == expected


def test_words_beat_prosody() -> None:
    rising = tone(150, 250, 700, ramp_last_ms=300)
    assert backchannel_function(["yeah"], rising) == "affirmative"
    assert backchannel_function(["huh"], tone(200, 200, 700)) == "uncertainty"


def test_rising_final_pitch_means_uncertainty() -> None:
    rising = tone(150, 250, 700, ramp_last_ms=300)
    rise = final_pitch_rise(rising)
    assert rise is not None and rise > 3.0
    assert backchannel_function(["oh"], rising) == "uncertainty"


@pytest.mark.parametrize("f_end", [100.0, 150.0, 160.0])
def test_falling_or_flat_pitch_is_affirmative(f_end: float) -> None:
    audio = tone(150, f_end, 700, ramp_last_ms=300)
    rise = final_pitch_rise(audio)
    assert rise is not None and rise < 2.0
    assert backchannel_function(["oh"], audio) == "affirmative"


def test_float_audio_and_other_rates() -> None:
    rising = tone(150, 250, 700, rate=8000, ramp_last_ms=300).astype(np.float32) / 32768
    assert backchannel_function(["hmm"], rising, sample_rate=8000) == "uncertainty"


def test_unknown_prosody_defaults_to_affirmative() -> None:
    assert backchannel_function(["oh"]) == "affirmative"  # no audio
    assert final_pitch_rise(tone(150, 250, 250)) is None  # shorter than the final 300 ms
    silence = np.zeros(16_000, dtype=np.int16)
    assert final_pitch_rise(silence) is None
    noise = np.random.default_rng(0).normal(0, 3000, 16_000).astype(np.int16)
    assert final_pitch_rise(noise) is None
    assert backchannel_function(["oh"], noise) == "affirmative"


def test_pitch_track_recovers_a_steady_tone() -> None:
    f0, starts = pitch_track(tone(200, 200, 500).astype(np.float64) / 32768, 16_000)
    voiced = f0[f0 > 0]
    assert len(voiced) == len(starts) > 40
    assert np.allclose(voiced, 200, rtol=0.02)
