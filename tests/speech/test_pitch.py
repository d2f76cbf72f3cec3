"""Pitch in SynthesisSettings: validation, unchanged cache keys, and the engines' F0."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import numpy as np
import pytest

from duplexbench.audio._pcm import Int16Array
from duplexbench.audio._wav import read_wav
from duplexbench.speech import _engines as engines
from duplexbench.speech._bank import SpeechBank
from duplexbench.speech._engines import FLITE_F0, check_pitch, espeak_pitch, flite_f0_features
from duplexbench.speech._tts import SynthesisSettings, get_tts

SENTENCE = "The quick brown fox jumps over the lazy dog. Please book a table for two on Thursday."

needs_espeak = pytest.mark.skipif(
    shutil.which("espeak-ng") is None, reason="espeak-ng binary not installed"
)
needs_flite = pytest.mark.skipif(
    shutil.which("flite") is None and not Path(engines.FLITE_FALLBACK).exists(),
    reason="flite binary not installed",
)


def median_f0(audio: tuple[Int16Array, int]) -> float:
    """Median F0 (Hz) of the clearly voiced 40 ms frames, by autocorrelation (60-400 Hz)."""
    samples, rate = audio
    x = samples.astype(np.float64) / 32768.0
    frame, hop = int(0.04 * rate), int(0.01 * rate)
    lo, hi = rate // 400, rate // 60
    found: list[float] = []
    for start in range(0, x.size - frame, hop):
        w = x[start : start + frame] - np.mean(x[start : start + frame])
        if float(np.dot(w, w)) < 1e-4 * frame:
            continue  # silence
        ac = np.correlate(w, w, mode="full")[frame - 1 :]
        lag = lo + int(np.argmax(ac[lo:hi]))
        if ac[lag] > 0.5 * ac[0]:
            found.append(rate / lag)
    assert len(found) > 50, "too few voiced frames to measure F0"
    return float(np.median(found))


def semitones(f0: float, ref: float) -> float:
    return float(12.0 * np.log2(f0 / ref))


# ------------------------------------------------------------------ settings


def test_default_settings_dict_is_unchanged() -> None:
    assert SynthesisSettings().as_dict() == {"speed": 1.0, "gain_db": 0.0}
    assert SynthesisSettings(pitch_semitones=0).as_dict() == {"speed": 1.0, "gain_db": 0.0}
    assert SynthesisSettings(pitch_semitones=-0.0).as_dict() == {"speed": 1.0, "gain_db": 0.0}
    assert SynthesisSettings(speed=1.2, gain_db=-3).as_dict() == {"speed": 1.2, "gain_db": -3.0}


def test_pitch_appears_in_the_dict_only_when_set() -> None:
    assert SynthesisSettings(pitch_semitones=2).as_dict() == {
        "speed": 1.0,
        "gain_db": 0.0,
        "pitch_semitones": 2.0,
    }
    assert SynthesisSettings(pitch_semitones=2) == SynthesisSettings(pitch_semitones=2.0)
    assert isinstance(SynthesisSettings(pitch_semitones=-3).pitch_semitones, float)


@pytest.mark.parametrize("pitch", [12.5, -13.0, float("nan"), float("inf")])
def test_pitch_is_validated(pitch: float) -> None:
    with pytest.raises(ValueError, match="pitch_semitones"):
        SynthesisSettings(pitch_semitones=pitch)


def test_pitch_limits_are_inclusive() -> None:
    assert SynthesisSettings(pitch_semitones=12).pitch_semitones == 12.0
    assert SynthesisSettings(pitch_semitones=-12).pitch_semitones == -12.0


def test_bank_key_unchanged_at_pitch_zero_and_changed_otherwise(tmp_path: Path) -> None:
    bank = SpeechBank(tmp_path)
    text, voice = "Hello there.", "synthetic:alto"
    base = bank.key(text, voice)
    assert bank.key(text, voice, SynthesisSettings(pitch_semitones=0.0)) == base
    shifted = bank.key(text, voice, SynthesisSettings(pitch_semitones=2.0))
    assert shifted != base
    assert shifted != bank.key(text, voice, SynthesisSettings(pitch_semitones=-2.0))


# ------------------------------------------------------------------ mappings


def test_espeak_pitch_map() -> None:
    assert espeak_pitch(0.0) == 50
    assert espeak_pitch(12.0) == 99  # 100 clamped to espeak's maximum
    assert espeak_pitch(-12.0) == 0
    assert espeak_pitch(6.0) == 75
    assert espeak_pitch(-3.0) == 38  # 37.5 rounds to even


def test_flite_features_scale_mean_and_stddev() -> None:
    assert flite_f0_features("slt", 0.0) == []
    args = flite_f0_features("slt", 12.0)
    assert args == [
        "--setf",
        "int_f0_target_mean=344.0000",
        "--setf",
        "int_f0_target_stddev=54.0000",
    ]


@pytest.mark.parametrize(("engine", "voice"), [("piper", "joe"), ("flite", "rms")])
def test_voices_without_pitch_refuse_it(engine: str, voice: str) -> None:
    check_pitch(engine, voice, 0.0)  # fine
    with pytest.raises(ValueError, match=f"{engine}:{voice}"):
        check_pitch(engine, voice, 1.0)


def test_piper_refuses_pitch_naming_the_voice() -> None:
    with pytest.raises(ValueError, match="piper:joe"):
        get_tts("piper").synthesize("hello", "joe", SynthesisSettings(pitch_semitones=2.0))


@needs_flite
def test_flite_rms_refuses_pitch() -> None:
    with pytest.raises(ValueError, match="flite:rms"):
        get_tts("flite").synthesize("hello", "rms", SynthesisSettings(pitch_semitones=-2.0))


# -------------------------------------------------------------------- F0


@needs_espeak
@pytest.mark.parametrize("voice", ["en-us", "en+f3"])
def test_espeak_pitch_moves_median_f0(voice: str) -> None:
    engine = get_tts("espeak")
    f0 = {
        p: median_f0(engine.synthesize(SENTENCE, voice, SynthesisSettings(pitch_semitones=p)))
        for p in (-6.0, 0.0, 6.0)
    }
    # espeak-ng adds its intonation range on top unscaled: it moves less than asked.
    assert 2.0 < semitones(f0[6.0], f0[0.0]) < 7.5, f0
    assert -7.5 < semitones(f0[-6.0], f0[0.0]) < -2.0, f0


@needs_espeak
def test_espeak_pitch_zero_is_byte_identical_to_no_pitch() -> None:
    engine = get_tts("espeak")
    binary = engines.EspeakTTS().binary
    plain = subprocess.run(
        [binary, "-v", "en-us", "-s", "175", "--stdout", "--stdin"],
        input=SENTENCE.encode(),
        capture_output=True,
        check=True,
    ).stdout
    ours = engine.synthesize(SENTENCE, "en-us", SynthesisSettings())
    assert ours[0].tobytes() == engines.parse_wav_bytes(plain)[0].tobytes()


@needs_flite
@pytest.mark.parametrize("voice", sorted(FLITE_F0))
def test_flite_pitch_moves_median_f0(voice: str) -> None:
    engine = get_tts("flite")
    f0 = {
        p: median_f0(engine.synthesize(SENTENCE, voice, SynthesisSettings(pitch_semitones=p)))
        for p in (-4.0, 0.0, 4.0)
    }
    assert 2.5 < semitones(f0[4.0], f0[0.0]) < 5.5, f0
    assert -5.5 < semitones(f0[-4.0], f0[0.0]) < -2.5, f0


@needs_flite
@pytest.mark.parametrize("voice", sorted(FLITE_F0))
def test_flite_nominal_f0_is_the_voice_default(voice: str, tmp_path: Path) -> None:
    """Passing FLITE_F0 unscaled gives the voice's default audio, byte for byte."""
    binary = engines.FliteTTS().binary
    text = tmp_path / "t.txt"
    text.write_text(SENTENCE + "\n", encoding="utf-8")
    mean, stddev = FLITE_F0[voice]
    nominal = ["--setf", f"int_f0_target_mean={mean}", "--setf", f"int_f0_target_stddev={stddev}"]

    def render(extra: list[str], name: str) -> bytes:
        wav = tmp_path / name
        argv = [binary, "-voice", voice, *extra, "-f", str(text), "-o", str(wav)]
        subprocess.run(argv, capture_output=True, check=True)
        return read_wav(wav)[0][0].tobytes()

    assert render([], "default.wav") == render(nominal, "nominal.wav")
