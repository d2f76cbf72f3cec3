"""TTS engines, voice references and the engine registry."""

from __future__ import annotations

import hashlib
import importlib
import shutil
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from duplexbench.audio._pcm import Int16Array
from duplexbench.speech import _engines as engines
from duplexbench.speech import _tts as tts
from duplexbench.speech._engines import (
    PIPER_PIECE_CHARS,
    EspeakTTS,
    FliteTTS,
    PiperTTS,
    parse_wav_bytes,
    piper_pieces,
)
from duplexbench.speech._synthetic import SyntheticTTS
from duplexbench.speech._tts import (
    DEFAULT_VOICE,
    SpeechUnavailable,
    SynthesisSettings,
    VoiceRef,
    get_tts,
    register_tts,
    tts_engines,
)

SENTENCE = "The quick brown fox jumps over the lazy dog."
DEFAULTS = SynthesisSettings()

needs_espeak = pytest.mark.skipif(
    shutil.which("espeak-ng") is None, reason="espeak-ng binary not installed"
)
needs_flite = pytest.mark.skipif(
    shutil.which("flite") is None and not Path(engines.FLITE_FALLBACK).exists(),
    reason="flite binary not installed",
)


def _seconds(audio: tuple[Int16Array, int]) -> float:
    samples, rate = audio
    return len(samples) / rate


def _assert_speechlike(audio: tuple[Int16Array, int], lo: float = 0.3, hi: float = 6.0) -> None:
    samples, rate = audio
    assert samples.dtype == np.int16
    assert samples.ndim == 1
    assert rate in (16_000, 22_050)
    assert lo <= _seconds(audio) <= hi
    assert int(np.abs(samples.astype(np.int32)).max()) > 1000  # not silence


# ------------------------------------------------------------------ VoiceRef


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("piper:joe", VoiceRef("piper", "joe")),
        ("espeak:en-us+f3", VoiceRef("espeak", "en-us+f3")),
        ("flite:slt", VoiceRef("flite", "slt")),
        ("synthetic:alto", VoiceRef("synthetic", "alto")),
        (" Flite:slt ", VoiceRef("flite", "slt")),
        ("default", DEFAULT_VOICE),
        ("", DEFAULT_VOICE),
    ],
)
def test_voice_ref_parse(text: str, expected: VoiceRef) -> None:
    assert VoiceRef.parse(text) == expected


def test_voice_ref_str_round_trips() -> None:
    ref = VoiceRef("espeak", "en-gb-scotland")
    assert str(ref) == "espeak:en-gb-scotland"
    assert VoiceRef.parse(str(ref)) == ref
    assert str(DEFAULT_VOICE) == "piper:joe"


@pytest.mark.parametrize("text", ["joe", "piper:", ":joe", "slt"])
def test_voice_ref_rejects_bad_forms(text: str) -> None:
    with pytest.raises(ValueError, match="engine:voice") as err:
        VoiceRef.parse(text)
    for engine in ("piper", "espeak", "flite", "synthetic"):
        assert engine in str(err.value)


@pytest.mark.parametrize(
    "kwargs", [{"speed": 0.0}, {"speed": -1.0}, {"speed": 4.5}, {"gain_db": float("nan")}]
)
def test_settings_are_validated(kwargs: dict[str, float]) -> None:
    with pytest.raises(ValueError):
        SynthesisSettings(**kwargs)


def test_settings_canonicalize_numbers() -> None:
    assert SynthesisSettings(speed=1, gain_db=0) == SynthesisSettings()
    assert isinstance(SynthesisSettings(speed=2).speed, float)


# ------------------------------------------------------------------ registry


def test_registry_lists_builtin_engines() -> None:
    assert {"piper", "espeak", "flite", "synthetic"} <= set(tts_engines())


def test_unknown_engine_lists_engines() -> None:
    with pytest.raises(ValueError, match="unknown TTS engine 'nope'") as err:
        get_tts("nope")
    for engine in ("piper", "espeak", "flite", "synthetic"):
        assert engine in str(err.value)


def test_get_tts_returns_one_instance_per_process() -> None:
    assert get_tts("synthetic") is get_tts("synthetic")


def test_unavailable_engine_is_not_cached(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(tts.REGISTRY, "_instances", {})
    installed = {"yes": False}

    def factory() -> tts.TTSEngine:
        if not installed["yes"]:
            raise SpeechUnavailable("fake engine: pip install fake")
        return SyntheticTTS()

    monkeypatch.setitem(tts.REGISTRY._factories, "fake", factory)
    with pytest.raises(SpeechUnavailable, match="pip install fake"):
        get_tts("fake")
    installed["yes"] = True
    assert isinstance(get_tts("fake"), SyntheticTTS)


def test_each_builtin_engine_names_its_class() -> None:
    """The registry names the built-in engines by `module:class`: each must resolve
    (a typo would be an AttributeError, not SpeechUnavailable, when first built)."""
    assert set(tts._BUILTIN_ENGINES) == {"synthetic", "piper", "espeak", "flite", "hibari", "pico"}
    for name, spec in tts._BUILTIN_ENGINES.items():
        module, _, attribute = spec.partition(":")
        assert getattr(importlib.import_module(module), attribute).name == name


def test_listing_the_engines_imports_none_of_them() -> None:
    code = (
        "import sys, duplexbench.speech as s; s.tts_engines(); "
        "print(sorted(m for m in ('_synthetic', '_hibari', '_pico') "
        "if 'duplexbench.speech.' + m in sys.modules))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"


def test_register_rejects_bad_names_and_duplicates() -> None:
    with pytest.raises(ValueError):
        register_tts("Bad:Name")
    with pytest.raises(ValueError, match="already registered"):
        register_tts("synthetic")(SyntheticTTS)


# ----------------------------------------------------------------- synthetic


def test_synthetic_speechlike_and_deterministic() -> None:
    engine = get_tts("synthetic")
    first = engine.synthesize(SENTENCE, "alto", DEFAULTS)
    _assert_speechlike(first)
    second = engine.synthesize(SENTENCE, "alto", DEFAULTS)
    assert first[0].tobytes() == second[0].tobytes()
    assert engine.version() == "synthetic-1"


def test_synthetic_rate_voice_and_pauses() -> None:
    engine = get_tts("synthetic")
    slow = engine.synthesize(SENTENCE, "alto", DEFAULTS)
    fast = engine.synthesize(SENTENCE, "alto", SynthesisSettings(speed=2.0))
    assert 0.4 < _seconds(fast) / _seconds(slow) < 0.6
    # About 4 syllables per second: 11 syllables plus gaps.
    assert 2.5 < _seconds(slow) < 4.5
    other = engine.synthesize(SENTENCE, "tenor", DEFAULTS)
    assert other[0].tobytes() != slow[0].tobytes()
    paused = engine.synthesize("one, two. three", "alto", DEFAULTS)
    plain = engine.synthesize("one two three", "alto", DEFAULTS)
    assert _seconds(paused) > _seconds(plain) + 0.5


def test_synthetic_pitch_follows_voice_name() -> None:
    engine = get_tts("synthetic")

    def pitch(voice: str) -> float:
        samples, rate = engine.synthesize("aaa", voice, DEFAULTS)
        x = samples.astype(np.float64)
        ac = np.correlate(x, x, mode="full")[x.size - 1 :]
        lo, hi = rate // 300, rate // 80
        return rate / (lo + int(np.argmax(ac[lo:hi])))

    pitches = {v: pitch(v) for v in ("alto", "bass", "soprano", "x", "y")}
    assert all(85 <= p <= 260 for p in pitches.values()), pitches
    assert len({round(p) for p in pitches.values()}) > 1


# --------------------------------------------------------------------- piper


def test_piper_speechlike_and_deterministic() -> None:
    engine = get_tts("piper")
    assert engine.voices() == ["joe"]
    first = engine.synthesize(SENTENCE, "joe", DEFAULTS)
    _assert_speechlike(first)
    assert first[1] == 22_050
    second = engine.synthesize(SENTENCE, "joe", DEFAULTS)
    assert first[0].tobytes() == second[0].tobytes()
    fast = engine.synthesize(SENTENCE, "joe", SynthesisSettings(speed=1.5))
    assert _seconds(fast) < 0.85 * _seconds(first)


def test_piper_deterministic_across_processes() -> None:
    engine = get_tts("piper")
    here = hashlib.sha256(engine.synthesize(SENTENCE, "joe", DEFAULTS)[0].tobytes()).hexdigest()
    code = (
        "import hashlib, sys\n"
        "from duplexbench.speech._tts import get_tts, SynthesisSettings\n"
        "a, _ = get_tts('piper').synthesize(sys.argv[1], 'joe', SynthesisSettings())\n"
        "print(hashlib.sha256(a.tobytes()).hexdigest())\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", code, SENTENCE],
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
    )
    assert out.stdout.strip() == here


def test_piper_version_names_runtime_and_model() -> None:
    version = get_tts("piper").version()
    assert version.startswith("piper-tts 1.8.0 / en_US-joe-medium ")
    digest = version.split(" / ")[1].rsplit(" ", 1)[1]
    assert len(digest) == 16 and version.endswith(f" / pieces of {PIPER_PIECE_CHARS} chars")


def test_piper_version_is_the_same_when_the_digest_is_remembered() -> None:
    first = PiperTTS().version()  # hashes the model (or reads the remembered digest)
    assert PiperTTS().version() == first


def test_short_texts_are_one_piece_and_long_ones_are_cut_at_clauses() -> None:
    assert piper_pieces("Shall I submit it?") == ["Shall I submit it?"]
    assert piper_pieces("   ") == []
    text = (
        "Here is what I have: device category router, failure date 2026-08-10, affected "
        "user count 57, onsite contacts Kwame Delacroix, Ingrid Brennan, Daniel Lindqvist, "
        "Yuki Castellanos. Shall I submit it?"
    )
    pieces = piper_pieces(text, 60)
    assert len(pieces) > 2 and all(len(p) <= 60 for p in pieces)
    assert " ".join(pieces).split() == text.split()  # nothing lost, nothing reordered
    assert all(p.endswith((",", ".", ":", "?")) for p in pieces)  # cut at clauses
    words = "word " * 40
    assert all(len(p) <= 30 for p in piper_pieces(words, 30))  # no clause: between words


def test_a_long_text_renders_as_its_pieces(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(engines, "PIPER_PIECE_CHARS", 20)
    tts = PiperTTS()
    text = "Your order is 4417, the total is 83 dollars."
    assert piper_pieces(text, 20) == ["Your order is 4417,", "the total is 83", "dollars."]
    whole, rate = tts.synthesize(text, "joe", DEFAULTS)
    parts = [tts.synthesize(p, "joe", DEFAULTS)[0] for p in piper_pieces(text, 20)]
    gap = np.zeros(int(engines.SENTENCE_GAP_S * rate), dtype=np.int16)
    joined = np.concatenate([parts[0], gap, parts[1], gap, parts[2]])
    assert np.array_equal(whole, joined)


def test_piper_rejects_other_voices() -> None:
    with pytest.raises(ValueError, match="joe"):
        get_tts("piper").synthesize("hello", "amy", DEFAULTS)


def test_piper_missing_package(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "piper", None)
    with pytest.raises(SpeechUnavailable, match=r"pip install 'duplexbench\[speech\]'"):
        PiperTTS()


# -------------------------------------------------------------------- espeak


@needs_espeak
def test_espeak_speechlike_and_deterministic() -> None:
    engine = get_tts("espeak")
    for voice in ("en-us", "en-gb-scotland", "en-us+f3"):
        first = engine.synthesize(SENTENCE, voice, DEFAULTS)
        _assert_speechlike(first)
        assert engine.synthesize(SENTENCE, voice, DEFAULTS)[0].tobytes() == first[0].tobytes()
    assert "en-us" in engine.voices()
    assert engine.version().startswith("eSpeak NG")
    assert "Data at" not in engine.version()


@needs_espeak
def test_espeak_speed_changes_rate() -> None:
    engine = get_tts("espeak")
    normal = engine.synthesize(SENTENCE, "en-us", DEFAULTS)
    fast = engine.synthesize(SENTENCE, "en-us", SynthesisSettings(speed=2.0))
    assert _seconds(fast) < 0.7 * _seconds(normal)


@needs_espeak
def test_espeak_speaks_text_that_looks_like_options() -> None:
    engine = get_tts("espeak")
    tricky = engine.synthesize("--help -v xx please read this aloud", "en-us", DEFAULTS)
    _assert_speechlike(tricky, lo=1.0)


@needs_espeak
def test_espeak_bad_voice() -> None:
    engine = get_tts("espeak")
    with pytest.raises(ValueError):
        engine.synthesize("hello", "--help", DEFAULTS)
    with pytest.raises(RuntimeError, match="espeak"):
        engine.synthesize("hello", "xx-nonexistent", DEFAULTS)


def test_espeak_missing_binary(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("PATH", str(tmp_path))
    with pytest.raises(SpeechUnavailable, match="apt-get install espeak-ng"):
        EspeakTTS()
    engine = EspeakTTS(binary=str(tmp_path / "espeak-ng"))
    with pytest.raises(SpeechUnavailable, match="apt-get install espeak-ng"):
        engine.synthesize("hello", "en-us", DEFAULTS)


# --------------------------------------------------------------------- flite


@needs_flite
def test_flite_speechlike_and_deterministic() -> None:
    engine = get_tts("flite")
    for voice in engine.voices():
        first = engine.synthesize(SENTENCE, voice, DEFAULTS)
        _assert_speechlike(first)
        assert engine.synthesize(SENTENCE, voice, DEFAULTS)[0].tobytes() == first[0].tobytes()
    assert sorted(engine.voices()) == ["awb", "kal16", "rms", "slt"]
    assert "flite" in engine.version()


@needs_flite
def test_flite_speed_and_option_like_text() -> None:
    engine = get_tts("flite")
    normal = engine.synthesize(SENTENCE, "slt", DEFAULTS)
    fast = engine.synthesize(SENTENCE, "slt", SynthesisSettings(speed=2.0))
    assert _seconds(fast) < 0.7 * _seconds(normal)
    tricky = engine.synthesize("-voice awb -o /dev/null please read this", "slt", DEFAULTS)
    _assert_speechlike(tricky, lo=1.0)


@needs_flite
def test_flite_rejects_unknown_voice() -> None:
    with pytest.raises(ValueError, match="slt"):
        get_tts("flite").synthesize("hello", "kal99", DEFAULTS)


def test_flite_missing_binary(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("PATH", str(tmp_path))
    monkeypatch.setattr(engines, "FLITE_FALLBACK", str(tmp_path / "flite"))
    with pytest.raises(SpeechUnavailable, match="apt-get install flite"):
        FliteTTS()
    engine = FliteTTS(binary=str(tmp_path / "flite"))
    with pytest.raises(SpeechUnavailable, match="apt-get install flite"):
        engine.synthesize("hello", "slt", DEFAULTS)


# --------------------------------------------------------------------- WAV


def test_parse_wav_bytes_accepts_streamed_header() -> None:
    samples = np.arange(-50, 50, dtype=np.int16)
    header = (
        b"RIFF"
        + (0x7FFFFFFF).to_bytes(4, "little")
        + b"WAVEfmt "
        + (16).to_bytes(4, "little")
        + (1).to_bytes(2, "little")
        + (1).to_bytes(2, "little")
        + (22050).to_bytes(4, "little")
        + (44100).to_bytes(4, "little")
        + (2).to_bytes(2, "little")
        + (16).to_bytes(2, "little")
        + b"data"
        + (0x7FFFFFFF).to_bytes(4, "little")
    )
    out, rate = parse_wav_bytes(header + samples.astype("<i2").tobytes())
    assert rate == 22050
    assert np.array_equal(out, samples)
    with pytest.raises(ValueError):
        parse_wav_bytes(b"Usage: espeak-ng [options] [words]")
