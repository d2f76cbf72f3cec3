"""The pico engine (SVOX Pico through ttspico): voices, determinism, speed, version.

Its pitch (F0) is measured in test_pitch_shift.py.
"""

from __future__ import annotations

import re
import sys
import time
from typing import Any

import numpy as np
import pytest

from duplexbench.audio import pcm16_bytes_to_array
from duplexbench.speech._digits import speak_digits
from duplexbench.speech._pico import PICO_RATE, PicoTTS, pico_pitch, pico_rate
from duplexbench.speech._synthesis import synthesize_checked
from duplexbench.speech._tts import SpeechUnavailable, SynthesisSettings, TTSEngine, get_tts

TEXT = "Hi, I'm calling about my order. The reference is PR-35FD."


@pytest.fixture(scope="module")
def ttspico() -> Any:
    return pytest.importorskip("ttspico")


@pytest.fixture(scope="module")
def engine(ttspico: Any) -> TTSEngine:
    return get_tts("pico")


def test_missing_package_names_the_extra(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "ttspico", None)  # import ttspico -> ImportError
    with pytest.raises(SpeechUnavailable, match=re.escape("pip install 'duplexbench[pico]'")):
        PicoTTS()


def test_rate_and_pitch_maps() -> None:
    assert pico_rate(1.0) == 100
    assert pico_rate(1.25) == 125
    assert pico_rate(0.2) == 20 and pico_rate(4.0) == 400
    with pytest.raises(ValueError, match=r"pico speaks at speed 0\.2 to 5"):
        pico_rate(0.1)
    assert pico_pitch(0.0) == 100
    assert pico_pitch(12.0) == 200 and pico_pitch(-12.0) == 50
    assert pico_pitch(3.0) == 119 and pico_pitch(-3.0) == 84


def test_voices_and_version(engine: TTSEngine) -> None:
    assert engine.voices() == ["en-US", "en-GB"]
    assert re.fullmatch(r"ttspico 0\.3\.2 / languages [0-9a-f]{16} / digits-\d+", engine.version())
    with pytest.raises(ValueError, match="pico voice 'de-DE' not available"):
        engine.synthesize("Hallo.", "de-DE", SynthesisSettings())


@pytest.mark.parametrize("voice", ["en-US", "en-GB"])
def test_output_is_int16_at_16k_and_byte_identical(engine: TTSEngine, voice: str) -> None:
    first, rate = engine.synthesize(TEXT, voice, SynthesisSettings())
    engine.synthesize("Something else in between.", voice, SynthesisSettings())
    second, _ = engine.synthesize(TEXT, voice, SynthesisSettings())
    assert rate == PICO_RATE and first.dtype == np.int16 and first.size > rate
    assert first.tobytes() == second.tobytes()


def test_defaults_are_plain_ttspico(engine: TTSEngine, ttspico: Any) -> None:
    """At speed 1 and pitch 0 the samples are ttspico's own on the spelled text,
    no property set."""
    plain = ttspico.TtsEngine("en-US").speak(speak_digits(TEXT))
    ours, _ = engine.synthesize(TEXT, "en-US", SynthesisSettings())
    assert ours.tobytes() == pcm16_bytes_to_array(plain).tobytes()


def test_voices_differ(engine: TTSEngine) -> None:
    us, _ = engine.synthesize(TEXT, "en-US", SynthesisSettings())
    gb, _ = engine.synthesize(TEXT, "en-GB", SynthesisSettings())
    assert us.tobytes() != gb.tobytes()


def test_speed_uses_picos_rate(engine: TTSEngine) -> None:
    normal, _ = engine.synthesize(TEXT, "en-US", SynthesisSettings())
    fast, _ = engine.synthesize(TEXT, "en-US", SynthesisSettings(speed=1.5))
    slow, _ = engine.synthesize(TEXT, "en-US", SynthesisSettings(speed=0.75))
    assert fast.size < 0.85 * normal.size < slow.size
    with pytest.raises(ValueError, match="pico speaks at speed"):
        engine.synthesize(TEXT, "en-US", SynthesisSettings(speed=0.1))


def test_passes_the_bank_checks(engine: TTSEngine) -> None:
    samples = synthesize_checked(engine, "pico", TEXT, "en-GB", SynthesisSettings(speed=1.2))
    assert samples.dtype == np.int16 and samples.size > 16000


def test_real_time_factor(engine: TTSEngine) -> None:
    """About 200x real time measured; a loose bound, for a loaded CI machine."""
    start = time.process_time()
    samples, rate = engine.synthesize(TEXT * 3, "en-US", SynthesisSettings())
    assert time.process_time() - start < 0.1 * samples.size / rate
